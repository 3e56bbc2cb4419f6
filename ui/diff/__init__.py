"""The diff view: rows streamed from the diff engine, painted by a delegate."""
