"""Tests of store/past."""
