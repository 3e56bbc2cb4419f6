"""The history panel: a memory's revisions, its provenance, restore, who wrote each sentence (blame); and
the view of every memory as it was at a past instant (as of)."""
