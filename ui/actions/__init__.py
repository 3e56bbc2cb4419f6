"""The actions people trigger (menus, toolbars, shortcuts): how one is made, and each window's set. Below
every window and widget, so the toolbar's icons, the hub window and the main window share them without
importing one another."""
