"""The full-text search index kept beside the host's table."""
