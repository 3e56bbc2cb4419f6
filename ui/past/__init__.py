"""The window's view of the past (As of…): the memories as they were at one instant, as cards with a
detail panel and each memory's history up to that instant, read-only, under a banner."""
