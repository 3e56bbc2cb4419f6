"""Tests of store/schema."""
