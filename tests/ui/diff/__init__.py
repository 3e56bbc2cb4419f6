"""Tests of ui/diff."""
