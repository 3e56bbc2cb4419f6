"""Tests of transfer."""
