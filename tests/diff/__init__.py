"""Tests of diff."""
