"""Tests of store/read."""
