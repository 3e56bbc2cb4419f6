"""The tables (the host's, never altered, and the dashboard's own), their migrations and the fence."""
