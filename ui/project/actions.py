"""The project page's actions: edit the content, change the category, archive (with a reason), restore,
and the next and previous card. Each lives on the project card list alone (`ON_CARD_LIST`), so it uses
the user cards' keys without sharing them: only one of the two lists is ever shown. Undo and Redo are
the window's own (one stack for both kinds of memory)."""

from __future__ import annotations

from PySide6.QtCore import QObject
from PySide6.QtGui import QAction

from app.store import ARCHIVED, ProjectMemory
from ui.actions.make import ON_CARD_LIST, keys, make_action


class ProjectActions:
    def __init__(self, parent: QObject) -> None:
        on_list = ON_CARD_LIST
        self.edit = make_action(
            parent,
            "Edit content…",
            "Edit the project memory's content",
            keys("Return", "Enter", "F2"),
            on_list,
        )
        self.category = make_action(
            parent, "Change category…", "Move the project memory to another category", keys("Ctrl+G"), on_list
        )
        self.archive = make_action(
            parent, "Archive…", "Archive the project memory, with a reason", keys("Ctrl+D"), on_list
        )
        self.restore = make_action(
            parent, "Restore", "Make an archived project memory active again", keys("Ctrl+Shift+D"), on_list
        )
        self.next = make_action(parent, "Next card", "Select the next card", keys("J", "Alt+Down"), on_list)
        self.previous = make_action(
            parent, "Previous card", "Select the previous card", keys("K", "Alt+Up"), on_list
        )
        self._tips = {action: action.toolTip() for action in self.writers}

    @property
    def writers(self) -> list[QAction]:
        return [self.edit, self.category, self.archive, self.restore]

    @property
    def all(self) -> list[QAction]:
        return [*self.writers, self.next, self.previous]

    def enable_for(self, memory: ProjectMemory | None, read_only_reason: str | None) -> None:
        """Enabled only where the write can be made: a memory selected, its project writable (a reason
        says why not, in every writer's tooltip); archive for what is not archived, restore for what is."""
        live = memory is not None and read_only_reason is None
        archived = memory is not None and memory.status == ARCHIVED
        self.edit.setEnabled(live)
        self.category.setEnabled(live)
        self.archive.setEnabled(live and not archived)
        self.restore.setEnabled(live and memory is not None and memory.status not in ("active", "permanent"))
        for action, tip in self._tips.items():
            action.setToolTip(f"Read-only: {read_only_reason}" if read_only_reason else tip)
