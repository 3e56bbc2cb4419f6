"""Tests of schedule."""
