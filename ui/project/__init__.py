"""The project memories' page of the main window: a picker of projects (beside "About you"), a project's
memory cards with filters and search, the selected memory's fields, links both ways and history with
its word diff, and the edits the host's way with undo. Built the first time a project is picked, so the
window's first frame and the user memories' launch never load it."""
