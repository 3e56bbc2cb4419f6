"""The past from the revision log: every memory as it was at an instant (`as_of`, one memory or a few;
`as_of_scan`, the whole profile at once) and blame (which revision put each sentence in its current form)."""
