"""The diff engine and what a view needs of it: word-level ops, tidying, streaming rows, styles. Pure."""
