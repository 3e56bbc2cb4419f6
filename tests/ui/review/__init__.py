"""Tests of ui/review."""
