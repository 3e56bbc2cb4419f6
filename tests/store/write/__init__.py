"""Tests of store/write."""
