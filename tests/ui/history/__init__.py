"""Tests of ui/history."""
