"""Tests of ui/runtime."""
