"""Tests of store/evidence."""
