"""The writers, one per change, each writing its revision; the revision log; the expiry sweep."""
