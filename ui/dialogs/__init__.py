"""Dialogs: edit a memory, set its expiry, Preferences (settings.json), the keyboard shortcuts, the digest,
import, and the instant to look back at (As of…)."""
