"""The Tidy dialog: finds likely duplicates and pairs that may contradict on a worker, with a progress bar
and Cancel, then lists them; selecting a member selects its card in the main window (`openMemory`).

The active memories are read on the controller's serial runner (every store call goes there); the finder,
pure and seconds long at 100,000 memories, runs on a runner of the dialog's own, so the window's reads
never queue behind it. Progress crosses threads as a queued signal; Cancel sets an event the finder checks.
The dialog writes nothing itself. Each group of likely duplicates offers Merge… (`ui.tidy.merge_dialog`:
a preview, then one command the window's Undo takes back); a merged group leaves the list. Of a pair
that may contradict, Keep this one keeps the selected member and dismisses the other, linked to it (one
command, undoable; only ever the person's call). "Ask the reviewer…" (enabled with a reviewer command
set) opens `ui.tidy.ask`, which previews the reviewer's answer about these groups and applies it on
Apply. Its kind choice runs it again over the host's project memories (every project, or one), grouped
within each project and category; Show card (or activating a member) shows a project memory's card on its
project's page (`openProjectMemory`); such a group's Merge… previews merging those project memories (the
kept one edited the host's way, the others archived and superseded by it), applied through the same Undo.
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtGui import QCloseEvent
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QProgressBar,
    QPushButton,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from app.core.errors import StoreError
from app.core.screening import make_visible
from app.present.plural import counted
from app.tidy.finder import TidyCancelled, find_groups
from app.tidy.model import TidyItem, TidyReport
from app.tidy.scoped import Scope, ScopedReport, find_in_scopes
from app.tidy.source import active_items, project_names, project_scopes
from ui.runtime.controller import NOW, Controller, describe_error
from ui.runtime.tasks import TaskRunner
from ui.tidy.text_line import line
from ui.widgets.labels import plain_label
from ui.widgets.plain_tip import plain_tip

if TYPE_CHECKING:
    from app.tidy.merge import Kind
    from app.tidy.merge_plan import MergePlan

MEMBER_ROLE = Qt.ItemDataRole.UserRole + 1
GROUP_ROLE = Qt.ItemDataRole.UserRole + 2  # on a group's row: its members, for Merge…
KIND_ROLE = Qt.ItemDataRole.UserRole + 3  # on a group's row: "user" or "project" (`app.tidy.merge.Kind`)
SHOW_TIP = "Select this memory's card in the main window"
MERGE_TIP = "Preview merging this group into one memory, then apply (undoable)"
PROJECT_SHOW_TIP = "Show this memory's card on its project's page in the main window"
PROJECT_MERGE_TIP = (
    "Preview merging this group into one project memory (the others archived, superseded by it), "
    "then apply (undoable)"
)
PROJECT_ASK_TIP = "The reviewer is asked about the user memories' groups only"
PAIR_ROLE = Qt.ItemDataRole.UserRole + 4  # on a member of a pair that may contradict: the other's id
PROJECT_ROLE = Qt.ItemDataRole.UserRole + 5  # on a project memory's row: its project's identity
EVERY_PROJECT = ""  # the kind choice's data: None for user memories, else a project identity or this
Section = tuple[str, TidyReport]  # what a group's title adds ("" or " (project, category)"), a report


class _Progress(QObject):
    """Lives in the GUI thread; the worker emits on it and Qt queues the delivery."""

    moved = Signal(int, int)


class TidyDialog(QDialog):
    openMemory = Signal(int)  # memory id
    openProjectMemory = Signal(str, int)  # project identity, project memory id
    finished_listing = Signal()  # the list is shown (or the run failed or was cancelled)

    def __init__(self, controller: Controller, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Tidy: likely duplicates and contradictions")
        self.resize(860, 560)
        self.controller = controller
        self._runner = TaskRunner(self)
        self._cancel = threading.Event()
        self._progress = _Progress(self)
        self.kind = QComboBox()
        self.kind.addItem("User memories", None)
        self.kind.setEnabled(False)
        self.status = plain_label("Reading the active memories…")
        self.bar = QProgressBar()
        self.bar.setRange(0, 0)
        self.tree = QTreeWidget()
        self.tree.setHeaderLabels(["Memory", "Why"])
        self.tree.setColumnWidth(0, 480)
        self.tree.setUniformRowHeights(True)
        buttons = QDialogButtonBox()
        self.cancel_button = QPushButton("Cancel")
        self.open_button = QPushButton("Show card")
        self.merge_button = QPushButton("Merge…")
        self.keep_button = QPushButton("Keep this one")
        self.keep_button.setToolTip(
            "Keep the selected memory and dismiss the one it may contradict, linked to it (undoable)"
        )
        self.ask_button = QPushButton("Ask the reviewer…")
        self.close_button = buttons.addButton(QDialogButtonBox.StandardButton.Close)
        for action in (self.open_button, self.merge_button, self.keep_button, self.ask_button):
            buttons.addButton(action, QDialogButtonBox.ButtonRole.ActionRole)
        buttons.addButton(self.cancel_button, QDialogButtonBox.ButtonRole.ActionRole)
        layout = QVBoxLayout(self)
        for widget in (self.kind, self.status, self.bar, self.tree, buttons):
            layout.addWidget(widget)
        self.open_button.setEnabled(False)
        self.merge_button.setEnabled(False)
        self.merge_button.clicked.connect(self.merge_current)
        self.keep_button.setEnabled(False)
        self.keep_button.clicked.connect(self.keep_current)
        self.ask_button.setEnabled(False)
        self.ask_button.clicked.connect(self.ask_reviewer)
        self.asking: QDialog | None = None  # the open "Ask the reviewer" dialog
        self.cancel_button.clicked.connect(self.cancel)
        self.close_button.clicked.connect(self.close)
        self.open_button.clicked.connect(self._open_current)
        self.tree.currentItemChanged.connect(self._current_changed)
        self.tree.itemActivated.connect(lambda *_: self._open_current())
        self._progress.moved.connect(self._moved)
        self.kind.currentIndexChanged.connect(lambda _index: self._rerun())
        self.report: TidyReport | None = None
        self._items: dict[int, TidyItem] = {}
        self._projects: dict[int, str] = {}  # a project memory's id: its project's identity

    def start(self) -> None:
        """Read the projects for the kind choice, then the active memories, then find the groups; the
        list fills when the finder is done."""
        try:
            store = self.controller.store
        except StoreError as refused:  # the launch's store, refused as it opened: said, not read
            self._failed(refused)
            return
        # A failed read of the projects leaves the choice at user memories; the run below says why.
        self.controller.runner.submit(
            lambda: project_names(store), self._choices, lambda _exc: None, priority=NOW
        )
        self._run()

    def _choices(self, projects: list[tuple[str, str]]) -> None:
        self.kind.blockSignals(True)
        if projects:
            self.kind.addItem("Project memories: every project", EVERY_PROJECT)
        for name, identity in projects:
            self.kind.addItem(f"Project memories: {make_visible(name)}", identity)
        self.kind.blockSignals(False)

    def _rerun(self) -> None:
        """The kind chosen changed: list again, from the start."""
        self.report = None
        self.ask_button.setEnabled(False)
        self._cancel.clear()
        self.tree.clear()
        self.bar.setRange(0, 0)
        self.bar.show()
        self.cancel_button.setEnabled(True)
        self._run()

    def _run(self) -> None:
        self.kind.setEnabled(False)
        store, project = self.controller.store, self.kind.currentData()
        if project is None:
            self.status.setText("Reading the active memories…")
            self.controller.runner.submit(lambda: active_items(store), self._read, self._failed, priority=NOW)
        else:
            self.status.setText("Reading the project memories…")
            chosen = project or None
            self.controller.runner.submit(
                lambda: project_scopes(store, chosen), self._read_scopes, self._failed, priority=NOW
            )

    def cancel(self) -> None:
        """Stop the finder at its next check; the list says it was cancelled."""
        self._cancel.set()
        self.cancel_button.setEnabled(False)
        self.status.setText("Cancelling…")

    def _read(self, items: list[TidyItem]) -> None:
        self._items, self._projects = {item.id: item for item in items}, {}
        self.status.setText(f"Looking for duplicates among {counted(len(items), 'active memory')}…")
        self.bar.setRange(0, 100)
        emit, cancel = self._progress.moved.emit, self._cancel
        self._runner.submit(lambda: find_groups(items, emit, cancel), self._show, self._failed)

    def _read_scopes(self, scopes: list[Scope]) -> None:
        self._items = {item.id: item for scope in scopes for item in scope.items}
        self._projects = {item.id: scope.project for scope in scopes for item in scope.items}
        self.status.setText(f"Looking for duplicates among {counted(len(self._items), 'project memory')}…")
        self.bar.setRange(0, 100)
        emit, cancel = self._progress.moved.emit, self._cancel
        self._runner.submit(lambda: find_in_scopes(scopes, emit, cancel), self._show_scoped, self._failed)

    def _moved(self, done: int, total: int) -> None:
        self.bar.setValue(done * 100 // max(1, total))

    def _failed(self, exc: BaseException) -> None:
        cancelled = isinstance(exc, TidyCancelled)
        self.status.setText(
            "Cancelled: nothing was listed." if cancelled else f"Tidy failed: {describe_error(exc)}"
        )
        self._done()

    def _done(self) -> None:
        self.bar.hide()
        self.cancel_button.setEnabled(False)
        self.kind.setEnabled(self.kind.count() > 1)
        self.finished_listing.emit()

    def _show(self, report: TidyReport) -> None:
        self.report = report
        self._offer_reviewer(report)
        self._fill([("", report)], report.memories, "active memory", cards=True)

    def _show_scoped(self, found: list[ScopedReport]) -> None:
        sections = [(f" ({make_visible(s.scope.name)}, {s.scope.category})", s.report) for s in found]
        self._fill(sections, sum(s.report.memories for s in found), "project memory", cards=False)

    def _fill(self, sections: list[Section], memories: int, among: str, *, cards: bool) -> None:
        groups = [(title, group) for title, report in sections for group in report.groups]
        self._explain_buttons(cards)
        pairs = [pair for _title, report in sections for pair in report.contradictions]
        # Merge… is beside this line: say what changes and when, not that nothing does.
        self.status.setText(
            f"{counted(len(groups), 'group')} of likely duplicates and {counted(len(pairs), 'pair')} "
            f"that may contradict, among {counted(memories, among)}; nothing changes until a merge you "
            "preview is applied."
        )
        for number, (title, group) in enumerate(groups, start=1):
            top = QTreeWidgetItem(
                [
                    f"Group {number}: {counted(len(group.members), 'memory')}{title}",
                    f"score {group.score:.0f}",
                ]
            )
            top.setData(0, GROUP_ROLE, list(group.members))
            top.setData(0, KIND_ROLE, "user" if cards else "project")
            for member in group.members:
                reasons = group.reasons(member)
                self._member(top, member, "; ".join(reasons), "\n".join(reasons), cards)
            self.tree.addTopLevelItem(top)
        if pairs:
            top = QTreeWidgetItem([f"May contradict ({len(pairs)})", "your call" if cards else "listed only"])
            for pair in pairs:
                reason = line(pair.reason)
                tip = "\n".join(filter(None, (pair.reason, pair.alike())))
                self._member(top, pair.a, reason, tip, cards, pair.b)
                self._member(top, pair.b, line(pair.alike()), tip, cards, pair.a)
            self.tree.addTopLevelItem(top)
        self.tree.expandAll()
        first = self.tree.topLevelItem(0)
        shown = first.child(0) if first is not None else None
        if shown is not None:
            self.tree.setCurrentItem(shown)
        self._done()

    def _explain_buttons(self, cards: bool) -> None:
        """What Show card and Merge… do; for project memories, where their cards are instead."""
        self.open_button.setToolTip(SHOW_TIP if cards else PROJECT_SHOW_TIP)
        self.merge_button.setToolTip(MERGE_TIP if cards else PROJECT_MERGE_TIP)
        if not cards:
            self.ask_button.setToolTip(PROJECT_ASK_TIP)

    def _offer_reviewer(self, report: TidyReport) -> None:
        from ui.tidy.ask import NOT_CONFIGURED, configured_command

        found = bool(report.groups or report.contradictions)
        configured = configured_command() is not None
        self.ask_button.setEnabled(found and configured)
        self.ask_button.setToolTip(
            NOT_CONFIGURED
            if not configured
            else "Send these groups to the reviewer command; its answer is previewed before anything changes"
        )

    def ask_reviewer(self) -> None:
        """Open the reviewer's preview for the groups listed and start asking."""
        from ui.tidy.ask import AskReviewerDialog

        if self.report is None:
            return
        asking = AskReviewerDialog(self.controller, self.report, self._items, self)
        self.asking = asking
        asking.show()
        asking.start()

    def _member(
        self,
        parent: QTreeWidgetItem,
        memory_id: int,
        why: str,
        tip: str,
        card: bool,
        other: int | None = None,
    ) -> None:
        item = QTreeWidgetItem([f"#{memory_id}  {line(self._items[memory_id].text)}", why])
        item.setData(0, MEMBER_ROLE, memory_id)
        if not card:
            item.setData(0, PROJECT_ROLE, self._projects[memory_id])
        elif other is not None:  # of a pair that may contradict: Keep this one
            item.setData(0, PAIR_ROLE, other)
        item.setToolTip(0, plain_tip(self._items[memory_id].text))
        item.setToolTip(1, plain_tip(tip))
        parent.addChild(item)

    def _group_item(self) -> QTreeWidgetItem | None:
        """The row of the duplicate group the current row is in (or is), if any."""
        item = self.tree.currentItem()
        while item is not None and item.data(0, GROUP_ROLE) is None:
            item = item.parent()
        return item

    def merge_current(self) -> None:
        """Merge…: the current group's preview, read through the controller, in a dialog of its own."""
        from app.tidy.merge import plan

        group = self._group_item()
        if group is None:
            return
        members = [int(i) for i in group.data(0, GROUP_ROLE)]
        store, kind = self.controller.store, group.data(0, KIND_ROLE)
        self.controller.runner.submit(
            lambda: plan(store, members, kind=kind),
            lambda found: self._preview(found, group, kind),
            self.controller.report,
        )

    def _preview(self, found: MergePlan, group: QTreeWidgetItem, kind: Kind) -> None:
        from ui.tidy.merge_dialog import MergeDialog

        dialog = MergeDialog(self.controller, found, self, kind=kind)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.merged.connect(lambda kept: self._merged(group, kept))
        self.preview = dialog
        dialog.open()

    def _merged(self, group: QTreeWidgetItem, kept: int) -> None:
        index = self.tree.indexOfTopLevelItem(group)
        if index >= 0:
            self.tree.takeTopLevelItem(index)
        self.status.setText(f"Merged into #{kept}; Undo (Ctrl+Z in the main window) takes it back.")
        self._current_changed(self.tree.currentItem())

    def keep_current(self) -> None:
        """Keep this one: the selected member of a pair kept, the other dismissed (through the controller)."""
        item = self.tree.currentItem()
        other = item.data(0, PAIR_ROLE) if item is not None else None
        if item is None or other is None:
            return
        kept = int(item.data(0, MEMBER_ROLE))
        self.controller.keep_over(kept, int(other), lambda _memory: self._kept(kept, int(other)))

    def _kept(self, kept: int, other: int) -> None:
        """Every pair the dismissed memory was in leaves the list (their section too, once empty)."""
        for index in reversed(range(self.tree.topLevelItemCount())):
            top = self.tree.topLevelItem(index)
            if top is None or top.data(0, GROUP_ROLE) is not None:
                continue  # a duplicate group: its members stay until merged
            for row in reversed(range(top.childCount())):
                child = top.child(row)
                if child is not None and other in (child.data(0, MEMBER_ROLE), child.data(0, PAIR_ROLE)):
                    top.takeChild(row)
            if top.childCount() == 0:
                self.tree.takeTopLevelItem(index)
        self.status.setText(
            f"Kept #{kept}, dismissed #{other}; Undo (Ctrl+Z in the main window) takes it back."
        )
        self._current_changed(self.tree.currentItem())

    def _current_changed(self, item: QTreeWidgetItem | None, _previous: object = None) -> None:
        memory_id = item.data(0, MEMBER_ROLE) if item is not None else None
        writable = not self.controller.read_only
        self.open_button.setEnabled(memory_id is not None)
        self.merge_button.setEnabled(self._group_item() is not None and writable)
        self.keep_button.setEnabled(item is not None and item.data(0, PAIR_ROLE) is not None and writable)
        # Following the selection is for the cards about you: a project's page is shown on asking only.
        if memory_id is not None and item is not None and item.data(0, PROJECT_ROLE) is None:
            self.openMemory.emit(int(memory_id))

    def _open_current(self) -> None:
        item = self.tree.currentItem()
        memory_id = item.data(0, MEMBER_ROLE) if item is not None else None
        project = item.data(0, PROJECT_ROLE) if item is not None else None
        if memory_id is not None and project is not None:
            self.openProjectMemory.emit(str(project), int(memory_id))
        elif memory_id is not None:
            self.openMemory.emit(int(memory_id))

    def closeEvent(self, event: QCloseEvent) -> None:
        self._cancel.set()  # a finder still running stops at its next check
        super().closeEvent(event)
