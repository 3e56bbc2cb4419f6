"""The main window and its plumbing: actions, menus, commands, state, welcome page, status line."""
