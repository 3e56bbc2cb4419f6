"""Ask the reviewer about tidy's groups: its answer previewed first, applied only on Apply.

The reviewer runs on a worker of this dialog's own (it can take minutes), never the GUI thread; Cancel
stops it (the review's `ReviewCancel` kills its process group). Its answer is checked where it enters
(`app.tidy.ask.run.ask`); a failure, a timeout or an answer that does not fit is said in the status line
and nothing changes. The preview lists each change (an update selected shows its old → new word diff, a
dismissal its text); Apply applies it on the worker as a tidy run (`apply_proposal`: under the review
lease, listed in Runs, undone there), then the window repaints. An Apply refused because a memory changed
since the preview leaves Apply off and offers Ask again (a new preview of the memories as they are).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QCloseEvent
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QProgressBar,
    QPushButton,
    QSplitter,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from app.core.models.evidence import flat
from app.core.settings import load_settings, settings_path
from app.present.plural import counted, noun
from app.review.errors import ReviewCancelled
from app.tidy.model import TidyItem, TidyReport
from ui.diff.slot import DiffSlot
from ui.runtime.controller import Controller, describe_error, refused_saying
from ui.runtime.tasks import TaskRunner
from ui.widgets.labels import plain_label
from ui.widgets.plain_tip import plain_tip

if TYPE_CHECKING:
    from app.review.apply import ApplyResult
    from app.review.runner import ReviewCancel
    from app.tidy.ask.run import ProposedChange, TidyProposal

CHANGE_ROLE = Qt.ItemDataRole.UserRole + 2
LINE_CHARS = 100  # of a memory's text in the list (its tooltip holds all of it)
NOT_CONFIGURED = (
    f"No reviewer command is set: set one in Preferences (reviewer_command in {settings_path()}): a "
    "command that reads the prompt on its standard input and prints a verdict."
)


def configured_command() -> str | None:
    """The reviewer command of the settings, None when none is set (or the settings cannot be read)."""
    try:
        return load_settings().reviewer_command or None
    except Exception:
        return None


class AskReviewerDialog(QDialog):
    answered = Signal()  # the preview is shown, or the ask failed or was cancelled
    applied = Signal(object)  # ApplyResult
    applyFailed = Signal(str)

    def __init__(
        self,
        controller: Controller,
        report: TidyReport,
        items: dict[int, TidyItem],
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle("Ask the reviewer: tidy")
        self.resize(900, 600)
        self.controller = controller
        self._report, self._items = report, items
        self._runner = TaskRunner(self)
        self._cancel: ReviewCancel | None = None
        self.proposal: TidyProposal | None = None
        self.status = plain_label("Asking the reviewer…")
        self.bar = QProgressBar()
        self.bar.setRange(0, 0)
        self.changes = QTreeWidget()
        self.changes.setHeaderLabels(["Change", "Memory"])
        self.changes.setColumnWidth(0, 260)
        self.diff = DiffSlot()
        split = QSplitter(Qt.Orientation.Vertical)
        split.addWidget(self.changes)
        split.addWidget(self.diff)
        buttons = QDialogButtonBox()
        self.apply_button = QPushButton("Apply")
        self.ask_again_button = QPushButton("Ask again")  # once a preview is out of date
        self.cancel_button = QPushButton("Cancel")
        self.close_button = buttons.addButton(QDialogButtonBox.StandardButton.Close)
        buttons.addButton(self.apply_button, QDialogButtonBox.ButtonRole.AcceptRole)
        buttons.addButton(self.ask_again_button, QDialogButtonBox.ButtonRole.ActionRole)
        buttons.addButton(self.cancel_button, QDialogButtonBox.ButtonRole.ActionRole)
        layout = QVBoxLayout(self)
        for widget in (self.status, self.bar, split, buttons):
            layout.addWidget(widget)
        self.apply_button.setEnabled(False)
        self.ask_again_button.hide()
        self.apply_button.clicked.connect(self.apply)
        self.ask_again_button.clicked.connect(self.ask_again)
        self.cancel_button.clicked.connect(self.cancel)
        self.close_button.clicked.connect(self.close)
        self.changes.currentItemChanged.connect(self._current_changed)

    def start(self) -> None:
        """Build the prompt and run the reviewer on the worker; the preview fills when it answers."""
        from app.review.runner import ReviewCancel  # the store's writers: loaded on first use

        command = configured_command()
        refusal = self.controller.write_refusal
        if command is None:
            self._ended(NOT_CONFIGURED)
            return
        if refusal is not None:
            self._ended(refused_saying(refusal, "Nothing can be applied."))
            return
        store, report, items = self.controller.store, self._report, self._items
        cancel = self._cancel = ReviewCancel()
        timeout = load_settings().reviewer_timeout_s

        def work() -> TidyProposal | None:
            from app.tidy.ask.run import ask, prepare

            prompt, scope = prepare(store, report, items)
            if not scope.groups:
                return None
            return ask(store, prompt, scope, command, timeout_s=timeout, cancel=cancel)

        self.status.setText(f"Asking the reviewer ({command}) about tidy's groups…")
        self._runner.submit(work, self._answered, self._failed)

    def ask_again(self) -> None:
        """The out-of-date preview dropped, the reviewer asked afresh about the memories as they are now."""
        self.ask_again_button.hide()
        self.proposal = None
        self.changes.clear()
        self.diff.show_message("")
        self.bar.show()
        self.cancel_button.setEnabled(True)
        self.start()

    def cancel(self) -> None:
        """Stop the reviewer; nothing is applied."""
        if self._cancel is not None and self._cancel.cancel():
            self.status.setText("Cancelling…")
        self.cancel_button.setEnabled(False)

    def _ended(self, text: str) -> None:
        self.status.setText(text)
        self.bar.hide()
        self.cancel_button.setEnabled(False)
        self._cancel = None
        self.answered.emit()

    def _failed(self, exc: BaseException) -> None:
        if isinstance(exc, ReviewCancelled):
            self._ended(str(exc))
            return
        self._ended(f"The reviewer's answer was not used; nothing was changed.\n{describe_error(exc)}")

    def _answered(self, proposal: TidyProposal | None) -> None:
        if proposal is None:
            self._ended("Nothing to ask: no likely duplicates and no pair that may contradict.")
            return
        self.proposal = proposal
        for change in proposal.changes:
            self._add(change)
        first = self.changes.topLevelItem(0)
        if first is not None:
            self.changes.setCurrentItem(first)
        count = len(proposal.changes)
        links = "; ".join(link.phrase() for link in proposal.links)
        said = f"The reviewer proposes {counted(count, 'change')}" + (f" ({links})" if links else "")
        if count:
            said += ". Nothing is changed until Apply; Runs can undo it afterwards."
        else:
            said = "The reviewer proposes no change; nothing was changed."
        if proposal.scope.left_out:
            left_out = proposal.scope.left_out
            were = noun(left_out, "was", "were")
            said += f"\n{counted(left_out, 'group')} {were} left out of the prompt for room."
        self.apply_button.setEnabled(count > 0)
        self._ended(said)

    def _add(self, change: ProposedChange) -> None:
        what = "Dismiss" if change.dismissal else "Rewrite"
        if change.dismissal and change.reason:
            what += f" ({flat(change.reason, LINE_CHARS)})"
        item = QTreeWidgetItem([what, f"#{change.memory_id}  {flat(change.old, LINE_CHARS)}"])
        item.setData(0, CHANGE_ROLE, change)
        item.setToolTip(1, plain_tip(change.old))
        self.changes.addTopLevelItem(item)

    def _current_changed(self, item: QTreeWidgetItem | None, _previous: object = None) -> None:
        change = item.data(0, CHANGE_ROLE) if item is not None else None
        if change is None:
            self.diff.show_message("")
        elif change.dismissal:
            self.diff.show_texts(change.old, change.old, f"#{change.memory_id} dismissed; its text:")
        else:
            self.diff.show_texts(change.old, change.new, f"#{change.memory_id} rewritten")

    def apply(self) -> None:
        """Apply the previewed answer on the worker, as a tidy run under the review lease."""
        proposal = self.proposal
        if proposal is None:
            return
        self.apply_button.setEnabled(False)
        self.status.setText("Applying under the review lease…")
        store = self.controller.store

        def work() -> ApplyResult:
            from app.tidy.ask.run import apply_proposal

            return apply_proposal(store, proposal)

        self._runner.submit(work, self._applied, self._apply_failed)

    def _applied(self, result: ApplyResult) -> None:
        self.proposal = None
        text = f"Applied as run {result.run_id}: {result.counts_line()}. Undo it from Runs."
        self.status.setText(text)
        self.controller.message.emit(text)
        self.controller.refresh()
        self.applied.emit(result)

    def _apply_failed(self, exc: BaseException) -> None:
        from app.tidy.ask.run import PreviewOutdatedError

        text = f"Not applied; nothing was changed: {describe_error(exc)}"
        self.status.setText(text)
        # A preview out of date would fail the same way again: only asking again can make a new one. Any
        # other refusal (a held lease, a busy file) may pass on a later try.
        outdated = isinstance(exc, PreviewOutdatedError)
        self.apply_button.setEnabled(not outdated)
        self.ask_again_button.setVisible(outdated)
        self.applyFailed.emit(text)

    def wait_for_done(self) -> None:
        self._runner.wait_for_done()

    def closeEvent(self, event: QCloseEvent) -> None:
        if self._cancel is not None:
            self._cancel.cancel()  # a reviewer still running is stopped; its answer is never applied
        super().closeEvent(event)
