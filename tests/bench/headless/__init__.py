"""Tests of bench/headless."""
