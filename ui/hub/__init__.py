"""The hub window: a hub's memories as one card per memory across machines, each machine's copy, the
diff where they differ, Copy to this machine and Dismiss on every machine."""
