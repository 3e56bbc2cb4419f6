"""Moving memories between databases: the export file's format, read back and checked for an import."""
