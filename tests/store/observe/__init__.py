"""Tests of store/observe."""
