"""Tests of bench/window."""
