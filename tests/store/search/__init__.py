"""Tests of store/search."""
