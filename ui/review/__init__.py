"""The review in the window: running it, the candidate queue."""
