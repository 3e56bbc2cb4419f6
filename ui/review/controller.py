"""The review queue's side of the controller: manual triage of candidates and the automated review run.

Triage goes through the commands `Promote`, `Merge` and `Discard` (`app.commands`: the store's writers
the review shares, refused while the review holds its lease; Undo takes a promotion or a merge back) on
the controller's serial runner. A review
run (the reviewer command can take minutes) has its own worker so reads keep flowing meanwhile; the
store's transactions keep the two apart.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Signal

from app.commands.text import Merge
from app.core.models import Memory
from app.core.settings import load_settings
from app.review.errors import ReviewCancelled
from ui.runtime.controller import Controller, describe_error, refused_saying
from ui.runtime.tasks import TaskRunner

if TYPE_CHECKING:
    from app.review.apply import ApplyResult
    from app.review.runner import ReviewCancel


def last_run_line(result: ApplyResult) -> str:
    changed = ", ".join(f"#{i}" for i in result.changed_memory_ids) or "none"
    return f"Last review ({result.run_id}): {result.counts_line()}; changed: {changed}"


class ReviewController(QObject):
    reviewStarted = Signal(str)  # the command
    reviewFinished = Signal(object)  # ApplyResult
    reviewFailed = Signal(str)
    reviewCancelled = Signal(str)  # what to tell the person
    lastRunChanged = Signal(str)  # `last_run`, the review queue's line about the last run

    def __init__(self, controller: Controller) -> None:
        super().__init__(controller)
        self.controller = controller
        self._review_runner = TaskRunner(self)
        self.running = False
        self._cancel: ReviewCancel | None = None
        self.last_run = ""  # what the last run did (or is doing): kept here for a queue opened later
        self.reviewStarted.connect(lambda command: self._note(f"Running the reviewer: {command}"))
        self.reviewFinished.connect(lambda result: self._note(last_run_line(result)))
        self.reviewCancelled.connect(self._note)
        self.reviewFailed.connect(lambda message: self._note(f"The review did not run: {message}"))

    def _note(self, line: str) -> None:
        self.last_run = line
        self.lastRunChanged.emit(line)

    def wait_for_done(self) -> None:
        self._review_runner.wait_for_done()

    def load_candidates(self) -> None:
        self.controller.load_candidates()

    def promote(
        self,
        candidate_ids: Sequence[int],
        content: str | None,
        on_done: Callable[[Memory], None] | None = None,
    ) -> None:
        from app.commands.presence import Promote  # SQLAlchemy: loaded once the first cards were painted

        ids = list(candidate_ids)

        def done(memory: Memory) -> None:
            self.controller.changed(memory, f"Promoted {len(ids)} candidate(s) into #{memory.id}")
            self.controller.load_candidates()
            if on_done:
                on_done(memory)

        self.controller.undo_history.execute(Promote(ids, content), done)

    def merge(self, memory_id: int, candidate_ids: Sequence[int], content: str | None = None) -> None:
        """Fold candidates into memory `memory_id` (None content: its text plus theirs, one per line)."""
        ids = list(candidate_ids)

        def done(after: Memory) -> None:
            # The text can go back; the candidates stay consumed and their ids stay (ids only accumulate).
            self.controller.changed(after, f"Merged {len(ids)} candidate(s) into #{after.id}")
            self.controller.load_candidates()

        self.controller.undo_history.execute(Merge(memory_id, ids, content), done)

    def discard(self, candidate_ids: Sequence[int]) -> None:
        ids = list(candidate_ids)

        def done(count: int) -> None:
            self.controller.message.emit(f"Discarded {count} candidate(s)")
            self.controller.load_candidates()

        from app.commands.other import Discard

        self.controller.undo_history.execute(Discard(ids), done)

    def configured_command(self) -> str | None:
        try:
            return load_settings().reviewer_command
        except Exception:
            return None

    def run_review(self, command: str | None = None) -> None:
        """Run the configured reviewer (or `command`) and apply its verdict; one run at a time."""
        if self.running:
            return
        self.controller.check_file()
        refusal = self.controller.write_refusal  # read-only, or the file is gone from under the window
        if refusal is not None:
            self.reviewFailed.emit(refused_saying(refusal, "The review cannot write."))
            return
        store = self.controller.store
        from app.review.runner import ReviewCancel, resolve_command, run_review  # the store's writers

        try:
            settings = load_settings()
            resolved = resolve_command(command, settings)
        except Exception as exc:
            self.reviewFailed.emit(describe_error(exc))
            return
        self.running = True
        cancel = self._cancel = ReviewCancel()
        self.reviewStarted.emit(resolved)
        timeout = settings.reviewer_timeout_s
        self._review_runner.submit(
            lambda: run_review(store, resolved, timeout_s=timeout, cancel=cancel),
            self._finished,
            self._failed,
        )

    def cancel_review(self) -> bool:
        """Stop the running review; False if there is none or its verdict is already being applied."""
        if not self.running or self._cancel is None:
            return False
        if self._cancel.cancel():
            return True
        self.controller.message.emit("The review is already applying its verdict; it will finish.")
        return False

    def _finished(self, result: ApplyResult) -> None:
        self.running = False
        self._cancel = None
        self.reviewFinished.emit(result)
        self.controller.message.emit(f"Review {result.run_id}: {result.counts_line()}")
        self.controller.refresh()
        self.controller.load_candidates()

    def _failed(self, exc: BaseException) -> None:
        self.running = False
        self._cancel = None
        if isinstance(exc, ReviewCancelled):
            self.reviewCancelled.emit(str(exc))
            self.controller.message.emit(str(exc))
            return
        self.reviewFailed.emit(describe_error(exc))
        self.controller.refresh()
