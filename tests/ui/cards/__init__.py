"""Tests of ui/cards."""
