"""Dialogs: edit a memory, set its expiry."""
