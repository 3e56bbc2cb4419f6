"""Tests of ui/hub."""
