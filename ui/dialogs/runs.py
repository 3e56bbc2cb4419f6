"""The Runs window: every review run (the dashboard's and the host's), what the selected one changed with
the candidates' words, and Undo of a run.

Reads and the undo run on the controller's serial runner, off the GUI thread; a result for a run no longer
selected is dropped. Activating a change (Enter, double-click) selects its memory's card, whose history
panel shows the change's diff. A host run's changes are inferred (outside rewrites observed inside its
window) and say so; an unreadable `dream_runs` row is listed as "unreadable run", with why in its tooltip.
A host run's changes to its project's memories (the host's `memories` table) follow, labelled inferred
and with the project's name; they are the host's own and the run's undo leaves them as they are.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QDialogButtonBox,
    QHeaderView,
    QMessageBox,
    QPushButton,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from app.commands.other import UndoRun
from app.core.clock import format_instant
from app.core.models.evidence import Evidence, evidence_words, flat
from app.core.models.runs import Run, RunChange, RunDetail, UndoResult, undo_lines
from app.present.card import shown_word
from app.store import MemoryStore
from ui.runtime.controller import Controller
from ui.widgets.focus_ring import show_focus
from ui.widgets.labels import plain_label
from ui.widgets.plain_tip import plain_tip

RUN_HEADERS = ("Started", "Run", "Kind", "What it did", "Holder")
CHANGE_HEADERS = ("Memory", "When", "Change", "Evidence")
ACTIVATE_TIP = "Enter or a double-click selects the memory: its history shows the diff"
NO_RUNS = "No review runs recorded yet."
UNDO_TIP = "Put every memory this run changed back as it was before the run"
Confirm = Callable[[str, str], bool]
PROJECT_TIP = "A project memory's change, inferred: observed inside this host run's window, of its project"
Detail = tuple[RunDetail, Mapping[int, Evidence], str | None]  # and the run's project, by name


def run_cells(run: Run) -> tuple[tuple[str, ...], str]:
    """A run's cells and its tooltip."""
    tip = run.problem or (
        "changes inferred: outside rewrites observed inside this run's window" if run.origin == "host" else ""
    )
    tip = "\n".join([tip, *(f"malformed: {note}" for note in run.notes)]).strip()
    cells = (
        format_instant(run.started_at),
        flat(run.run_id, 60),
        run.label,
        run.counts_line(),
        flat(run.holder, 40),
    )
    return cells, tip


def _what(change: RunChange) -> str:
    revision = change.revision
    what = f"{revision.kind} by {revision.source}"
    if revision.new_status and revision.previous_status != revision.new_status:
        what += f" ({shown_word(revision.previous_status or '-')} → {shown_word(revision.new_status)})"
    return what + (" · inferred" if change.inferred else "")


def _texts_tip(change: RunChange, last: str) -> str:
    revision = change.revision
    before = "" if revision.previous_content is None else flat(revision.previous_content, 300)
    after = "" if revision.new_content is None else flat(revision.new_content, 300)
    return f"before: {before or '—'}\nafter: {after or '—'}\n{last}"


def change_cells(change: RunChange, found: Mapping[int, Evidence]) -> tuple[tuple[str, ...], str]:
    """A change's cells (its candidates' words in the last) and its tooltip (the texts before and after)."""
    revision = change.revision
    words = "; ".join(f"#{i} {evidence_words(found.get(i), 80)}" for i in revision.candidate_ids)
    cells = (f"#{revision.memory_id}", format_instant(revision.changed_at), _what(change), words or "—")
    return cells, _texts_tip(change, ACTIVATE_TIP)


def project_change_cells(change: RunChange, project: str) -> tuple[tuple[str, ...], str]:
    """A project memory's change: "project #12", inferred, its project's name where the evidence goes."""
    revision = change.revision
    what = _what(change) if change.inferred else f"{_what(change)} · inferred"
    cells = (
        f"project #{revision.memory_id}",
        format_instant(revision.changed_at),
        what,
        f"project {flat(project, 80)}",
    )
    return cells, _texts_tip(change, PROJECT_TIP)


def project_name(store: MemoryStore, identity: str | None) -> str | None:
    """A run's project as the host names it (its identity when the host names it no other way)."""
    if identity is None:
        return None
    return next((p.display_name for p in store.project.projects() if p.identity == identity), identity)


def _table(headers: Sequence[str], name: str, parent: QWidget) -> QTableWidget:
    table = QTableWidget(0, len(headers), parent)
    table.setHorizontalHeaderLabels(list(headers))
    table.verticalHeader().setVisible(False)
    table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
    table.setWordWrap(False)
    table.setAccessibleName(name)
    show_focus(table)  # an empty table, or one without a current row, shows no focus of its own
    header = table.horizontalHeader()
    header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
    header.setSectionResizeMode(len(headers) - 1, QHeaderView.ResizeMode.Stretch)
    return table


def _fill(table: QTableWidget, rows: Sequence[tuple[tuple[str, ...], str]]) -> None:
    table.setRowCount(len(rows))
    for row, (cells, tip) in enumerate(rows):
        for column, text in enumerate(cells):
            item = QTableWidgetItem(text)
            if tip:
                item.setToolTip(plain_tip(tip))
            table.setItem(row, column, item)


def _observed_runs(store: MemoryStore) -> list[Run]:
    """The runs, outside rewrites recorded first: a host run's inferred changes include the newest."""
    store.observe()
    return store.runs()


class RunsDialog(QDialog):
    def __init__(
        self,
        controller: Controller,
        select_change: Callable[[int, int], object],
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle("Review runs")
        self.controller = controller
        self._select_change = select_change  # (memory id, revision id): its card, and its diff
        self.confirm: Confirm = self._ask
        self.runs: list[Run] = []
        self.detail: RunDetail | None = None
        self._token = 0
        self.runs_table = _table(RUN_HEADERS, "Review runs, newest first", self)
        self.changes_table = _table(CHANGE_HEADERS, "What the selected run changed", self)
        self.notice = plain_label()
        self.undo_button = QPushButton("&Undo this run…", self)
        self.undo_button.setEnabled(False)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        buttons.addButton(self.undo_button, QDialogButtonBox.ButtonRole.ActionRole)
        buttons.rejected.connect(self.reject)
        splitter = QSplitter(Qt.Orientation.Vertical, self)
        splitter.addWidget(self.runs_table)
        splitter.addWidget(self.changes_table)
        layout = QVBoxLayout(self)
        layout.addWidget(splitter, 1)
        layout.addWidget(self.notice)
        layout.addWidget(buttons)
        self.runs_table.currentCellChanged.connect(lambda row, *_: self._run_selected(row))
        self.changes_table.cellActivated.connect(lambda row, _col: self._change_activated(row))
        self.changes_table.cellDoubleClicked.connect(lambda row, _col: self._change_activated(row))
        self.undo_button.clicked.connect(self.undo_selected)
        self.resize(980, 620)

    def _submit(self, work: Callable[[MemoryStore], object], done: Callable[[object], None]) -> None:
        store = self.controller.store
        self.controller.runner.submit(lambda: work(store), done, self._failed)

    def _failed(self, exc: BaseException) -> None:
        self.notice.setText(f"{exc}")
        self.controller.report(exc)

    def reload(self) -> None:
        """Read the runs again (off the GUI thread)."""
        self._token += 1
        token = self._token
        self._submit(_observed_runs, lambda runs: self._runs_arrived(token, runs))  # type: ignore[arg-type]

    def _runs_arrived(self, token: int, runs: list[Run]) -> None:
        if token != self._token:
            return
        self.runs = runs
        _fill(self.runs_table, [run_cells(run) for run in runs])
        if runs:  # the notice keeps what the last undo did, but no longer says there are none
            if self.notice.text() == NO_RUNS:
                self.notice.clear()
            shown = self.detail.run.run_id if self.detail is not None else None
            row = next((i for i, run in enumerate(runs) if run.run_id == shown), 0)
            if self.runs_table.currentRow() == row:
                self._run_selected(row)  # no signal for the same row, but its run may have moved (undone)
            else:
                self.runs_table.selectRow(row)
        else:
            self.notice.setText(NO_RUNS)
            self._show_detail(None)

    def _run_selected(self, row: int) -> None:
        if not 0 <= row < len(self.runs):
            self._show_detail(None)
            return
        self._token += 1
        token, run_id = self._token, self.runs[row].run_id

        def work(store: MemoryStore) -> Detail:
            detail = store.run(run_id)
            ids = [i for change in detail.changes for i in change.revision.candidate_ids]
            project = project_name(store, detail.run.project_path) if detail.project_changes else None
            return detail, store.evidence(ids), project

        self._submit(work, lambda result: self._detail_arrived(token, result))  # type: ignore[arg-type]

    def _detail_arrived(self, token: int, result: Detail) -> None:
        if token == self._token:
            self._show_detail(*result)

    def _show_detail(
        self,
        detail: RunDetail | None,
        found: Mapping[int, Evidence] | None = None,
        project: str | None = None,
    ) -> None:
        self.detail = detail
        changes = detail.changes if detail is not None else ()
        rows = [change_cells(change, found or {}) for change in changes]
        if detail is not None:  # after the user memories' (a row's number still finds its change)
            named = project or detail.run.project_path or "unknown"
            rows += [project_change_cells(change, named) for change in detail.project_changes]
        _fill(self.changes_table, rows)
        undone = detail.run.undone_at if detail is not None else None
        refusal = self.controller.write_refusal or (
            None if undone is None else f"Undone {format_instant(undone)}: its changes were put back then"
        )
        can_undo = detail is not None and detail.run.readable and bool(changes) and refusal is None
        self.undo_button.setEnabled(can_undo)
        self.undo_button.setToolTip(plain_tip(refusal or UNDO_TIP))

    def _change_activated(self, row: int) -> None:
        if self.detail is not None and 0 <= row < len(self.detail.changes):
            revision = self.detail.changes[row].revision
            self._select_change(revision.memory_id, revision.id)

    def _ask(self, title: str, text: str) -> bool:
        buttons = QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.Cancel
        return QMessageBox.question(self, title, text, buttons) == QMessageBox.StandardButton.Yes

    def undo_selected(self) -> None:
        detail = self.detail
        if detail is None:
            return
        run_id = detail.run.run_id
        question = (
            f"Put the {len(detail.memory_ids)} memories run {flat(run_id, 60)} changed back as they were "
            "before it? Memories changed again since are left as they are and listed. Candidates it consumed "
            "stay consumed (their words stay in the archive)."
        )
        if not self.confirm("Undo this run", question):
            return
        self.controller.undo_history.execute(UndoRun(run_id), self._undone)

    def _undone(self, result: UndoResult) -> None:
        self.notice.setText("\n".join(undo_lines(result)))
        self.controller.message.emit(f"Undid run {flat(result.run_id, 60)}: {len(result.restored)} restored")
        self.reload()
