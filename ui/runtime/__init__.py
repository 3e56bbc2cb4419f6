"""What runs behind the window: the controller, background tasks, live refresh, undo, idle indexing."""
