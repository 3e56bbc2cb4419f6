"""Tests of ui/dialogs."""
