"""The window's actions: one QAction each, with its shortcut and a tooltip that says what it does.

Actions that act on the selected card take their shortcut only while the card list itself has focus
(`ON_CARD_LIST`): not in the toolbar that also shows them, whose search field and filters would
otherwise edit, dismiss or delete a memory on Enter, Ctrl+D or Delete. No two actions share a key: Qt
does nothing at all on a key two of them claim ("Ambiguous shortcut overload").
"""

from __future__ import annotations

from PySide6.QtCore import QObject
from PySide6.QtGui import QAction, QKeySequence

from app.core.models import Memory, MemoryStatus
from app.core.settings import settings_path
from ui.actions.make import ON_CARD_LIST, StdKey, keys, make_action


class WindowActions:
    """Every action of the main window; `card_actions` are the ones bound to the card list's focus."""

    def __init__(self, parent: QObject) -> None:
        on_list = ON_CARD_LIST
        # Return/Enter as shortcuts, not the view's `activated` (a double-click on macOS, a single click
        # on some styles): the same keys open the editor on every platform.
        self.edit = make_action(
            parent, "Edit…", "Edit the selected memory's content", keys("Return", "Enter", "F2"), on_list
        )
        self.dismiss = make_action(
            parent, "Dismiss", "Stop the agent seeing this memory (reversible)", keys("Ctrl+D"), on_list
        )
        self.reactivate = make_action(
            parent, "Reactivate", "Make a dismissed memory active again", keys("Ctrl+Shift+D"), on_list
        )
        self.delete = make_action(
            parent,
            "Delete…",
            "Delete the selected memory (its history is kept; Undo brings it back)",
            keys("Del"),  # not the platform's Delete: on X11 that is also Ctrl+D, Dismiss's key
            on_list,
        )
        self.expiry = make_action(
            parent, "Expiry…", "Set or clear when this memory expires", keys("Ctrl+E"), on_list
        )
        self.new_memory = make_action(
            parent, "New memory…", "Write a new memory yourself (active at once, trusted)", keys(StdKey.New)
        )
        self.restore_deleted = make_action(
            parent,
            "Restore",
            "Bring the selected deleted memories back (the Deleted filter lists them)",
            keys("Ctrl+Shift+B"),
            on_list,
        )
        self.next = make_action(parent, "Next card", "Select the next card", keys("J", "Alt+Down"), on_list)
        self.previous = make_action(
            parent, "Previous card", "Select the previous card", keys("K", "Alt+Up"), on_list
        )
        self.undo = make_action(parent, "Undo", "Undo the last action", keys(StdKey.Undo))
        self.refresh = make_action(parent, "Refresh", "Reload from the database", keys(StdKey.Refresh, "F5"))
        self.find = make_action(parent, "Find", "Search memories by text or #id", keys(StdKey.Find))
        self.review_queue = make_action(
            parent,
            "Review queue",
            "Pending candidates: promote, merge into a memory, or discard",
            keys("Ctrl+Shift+R"),
        )
        self.run_review = make_action(
            parent, "Run review", "Run the configured reviewer command and apply its verdict"
        )
        self.blame = make_action(
            parent, "Blame", "Which revision wrote each sentence of the selected memory", keys("Ctrl+B")
        )
        self.pick_project = make_action(
            parent, "Switch project…", "Show the memories about you, or a project's", keys("Ctrl+Shift+P")
        )
        self.as_of = make_action(
            parent,
            "As of…",
            "Show every memory as it was at a past instant (read-only)",
            keys("Ctrl+Shift+A"),
        )
        self.runs = make_action(
            parent,
            "Runs…",
            "Every review run (the dashboard's and the host's): what it changed, on what evidence; undo one",
            keys("Ctrl+Shift+U"),
        )
        self.open_database = make_action(
            parent, "Open database…", "Open another memory database", keys(StdKey.Open)
        )
        self.open_demo = make_action(
            parent, "Open demo data", "Open a demo store with a few hundred memories"
        )
        self.open_hub = make_action(
            parent,
            "Open hub…",
            "Open a hub: every machine's memories, one card each; copy one here or dismiss it everywhere",
            keys("Ctrl+Shift+H"),
        )
        self.about = make_action(
            parent, "About Memory Dashboard", "Version, database path, Qt and Python versions"
        )
        self.quit = make_action(parent, "Quit", "Close the window", keys(StdKey.Quit))
        self.preferences = make_action(
            parent,
            "Preferences…",
            "The reviewer command and the other settings (settings.json)",
            keys(StdKey.Preferences, "Ctrl+,"),
        )
        self.preferences.setMenuRole(QAction.MenuRole.PreferencesRole)
        self.shortcuts = make_action(
            parent, "Keyboard shortcuts", "Every key of the window", keys(StdKey.HelpContents, "F1")
        )
        self.digest = make_action(
            parent,
            "Since you last looked…",
            "What changed since you last looked, by who did it; each change opens its card",
            keys("Ctrl+Shift+L"),
        )
        self.tidy = make_action(
            parent,
            "Tidy…",
            "Likely duplicate memories and pairs that may contradict, with why; selecting one shows its card",
            keys("Ctrl+Shift+T"),
        )
        self.import_file = make_action(
            parent,
            "Import…",
            "Merge the memories of an export file (memory-dashboard export) into this store",
        )
        self.export_file = make_action(
            parent,
            "Export…",
            "Save every memory with its provenance and revisions to a file (JSON, which Import… reads "
            "back, or Markdown), as memory-dashboard export does",
            keys("Ctrl+Shift+E"),
        )
        self.hub_settings = make_action(
            parent,
            "Hub…",
            "The hub: its URL, this machine's name, its password (OS keyring); "
            "publish now, or every N minutes",
        )
        writing = (
            self.edit,
            self.dismiss,
            self.reactivate,
            self.delete,
            self.expiry,
            self.undo,
            self.run_review,
            self.new_memory,
            self.restore_deleted,
            self.import_file,
        )
        self._writer_tips = {action: action.toolTip() for action in writing}
        self._undo_tip = self.undo.toolTip()
        self._queue_tip = self.review_queue.toolTip()
        self._read_only_reason: str | None = None
        self.undo.setIconText("Undo")  # the toolbar keeps its width; the menu and tooltip say what
        self.new_memory.setIconText("New")

    @property
    def card_actions(self) -> list[QAction]:
        return [
            self.edit,
            self.dismiss,
            self.reactivate,
            self.delete,
            self.expiry,
            self.restore_deleted,
            self.next,
            self.previous,
        ]

    @property
    def writers(self) -> dict[QAction, str]:
        """Actions that write, with what they do (their tooltip when the store is writable)."""
        return self._writer_tips

    def enable_for(
        self,
        memory: Memory | None,
        *,
        writable: bool,
        many: bool,
        reviewing: bool,
        can_undo: bool,
        looking_back: bool,
    ) -> None:
        """Each action enabled as it can act now: on `memory` (the current card; `many`: the writers act
        on a selection of several), on a `writable` store, while a review runs, with something to undo,
        or in the past (read-only)."""
        deleted = memory is not None and memory.status == MemoryStatus.DELETED  # the trash's cards
        live = writable and memory is not None and not deleted
        active = memory is not None and memory.status == MemoryStatus.ACTIVE
        self.edit.setEnabled(live and not many)
        self.delete.setEnabled(live)
        self.expiry.setEnabled(live)
        self.dismiss.setEnabled(live and (many or active))
        self.reactivate.setEnabled(live and (many or (memory is not None and (not active or memory.expired))))
        self.restore_deleted.setEnabled(writable and deleted)
        for action in (self.new_memory, self.import_file):  # also after the past, which disabled them
            action.setEnabled(writable)
        self.run_review.setEnabled(writable and not reviewing)
        self.undo.setEnabled(writable and can_undo)
        for action in (self.review_queue, self.runs):  # windows that write
            action.setEnabled(not looking_back)
        if looking_back:  # the past is read-only
            for action in self.writers:
                action.setEnabled(False)

    def set_store_state(self, read_only_reason: str | None, reviewer: str | None) -> None:
        """Writers say why they are disabled on a read-only store; Run review says what it runs."""
        self._read_only_reason = read_only_reason
        self.set_reviewer(reviewer)
        for action, tip in self._writer_tips.items():
            action.setToolTip(f"Read-only: {read_only_reason}" if read_only_reason else tip)

    def set_reviewer(self, reviewer: str | None) -> None:
        """Run review's tooltip says what it runs, or that it opens Preferences to set a reviewer."""
        self._writer_tips[self.run_review] = (
            f"Run the reviewer ({reviewer}) and apply its verdict"
            if reviewer
            else f"Run the reviewer command; none is set yet: opens Preferences (saved in {settings_path()})"
        )
        if not self._read_only_reason:
            self.run_review.setToolTip(self._writer_tips[self.run_review])

    def set_candidate_count(self, count: int) -> None:
        """How many candidates wait for review, in the menu's label and the toolbar button's tooltip."""
        self.review_queue.setText(f"Review queue ({count})")
        self.review_queue.setToolTip(
            f"Review queue: {count} pending candidate{'s' if count != 1 else ''}. " + self._queue_tip
        )

    def set_undo_label(self, label: str) -> None:
        """What Undo would undo ("Undo dismiss of #5"), in the menu and the tooltip; "" when nothing."""
        self.undo.setText(label or "Undo")
        self.undo.setIconText("Undo")
        shortcut = self.undo.shortcut().toString(QKeySequence.SequenceFormat.NativeText)
        tip = f"{label} ({shortcut})" if label else self._undo_tip
        self._writer_tips[self.undo] = tip
        self.undo.setToolTip(f"Read-only: {self._read_only_reason}" if self._read_only_reason else tip)
