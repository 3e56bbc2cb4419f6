"""Noticing what others changed: the seen table, observed revisions, the change watch."""
