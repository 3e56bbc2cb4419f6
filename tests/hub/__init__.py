"""Tests of hub."""
