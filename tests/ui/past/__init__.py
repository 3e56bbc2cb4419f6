"""Tests of ui/past."""
