"""The writers, one per change, each writing its revision; a person's triage of the candidate pool; the
review's lease on `dream_state`; the revision log; the expiry sweep."""
