"""Tests of present."""
