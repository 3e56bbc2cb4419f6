"""Dialogs: edit a memory, set its expiry, Preferences (settings.json), the keyboard shortcuts."""
