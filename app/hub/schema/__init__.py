"""The hub's schema: where its tables live (`layout`, import-free so the store can refuse a hub's
database), the tables and the check that a hub is one `hub setup` made (`tables`), and `hub setup`
itself (`setup`)."""
