"""Tests of ui/widgets."""
