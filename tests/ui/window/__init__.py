"""Tests of ui/window."""
