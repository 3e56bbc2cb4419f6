"""The history panel: a memory's revisions, its provenance, restore."""
