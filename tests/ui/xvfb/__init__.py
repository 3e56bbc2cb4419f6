"""Tests of ui/xvfb."""
