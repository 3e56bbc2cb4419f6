"""Tests of store/project."""
