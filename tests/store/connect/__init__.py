"""Tests of store/connect."""
