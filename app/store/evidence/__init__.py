"""The audit of what changed memories, on what evidence: candidate archive, review runs, undo."""
