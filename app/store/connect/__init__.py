"""Opening a database: the engine with the host's rules, file checks and identity."""
