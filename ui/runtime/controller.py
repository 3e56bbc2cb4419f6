"""The window's controller: owns the MemoryStore, runs every read and write off the GUI thread, emits results.

All store calls go through one serial TaskRunner, so transactions run in the order they were asked
for and no two touch the store at once; a read a person waits for (a history, a revision) is queued
ahead of listings and counts. A write updates its one row and the counts; it lists again only when it
may move rows in or out of the current filter, and without observing (what it wrote is known).
Results come back as signals on the GUI thread; errors a person can cause (`StoreError`, a failing
database) become `error(str)` messages, never tracebacks.

The file under the window's feet: when the database's path no longer names the file the store opened
(deleted, or another file renamed over it), `fileProblemChanged` says so and every write is refused
before it starts: a write would land in a file without a name and be lost.
"""

from __future__ import annotations

import sys
import traceback
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Future
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from PySide6.QtCore import QObject, QTimer, Signal

from app.commands.status import Dismiss, Reactivate, SetExpiry
from app.commands.text import Edit, RestoreRevision
from app.core.errors import ConflictError, ExpiryRequiredError, StoreError, is_sqlalchemy_error
from app.core.models import KEEP, Candidate, Memory, Revision
from app.core.paths import DatabaseChoice
from ui.cards.listing import (
    FIRST_PAGE,
    FIRST_ROWS,
    Listing,
    ViewFilter,
    load_first_page,
    load_listing,
    without_search,
)
from ui.past import listing as past
from ui.past.listing import PastListing
from ui.runtime.idle_indexing import IdleIndexing
from ui.runtime.tasks import TaskRunner
from ui.runtime.undo_stack import UndoHistory, one_result

if TYPE_CHECKING:
    from app.store import MemoryStore
    from app.store.evidence.model import Evidence

T = TypeVar("T")
NOW = 10  # the runner's priority of a read a person waits for
# A search's complete listing (every hit, counted) waits for the typing to pause this long after its first
# page was shown: read while keys still come, it would hold the one store thread when the next key's first
# page needs it (timed from the first page's arrival, since the keys typed during that read ask after it).
SEARCH_COMPLETE_MS = 250


def describe_error(exc: BaseException) -> str:
    """A message fit for the person; unexpected exceptions also go to stderr with their traceback."""
    if isinstance(exc, StoreError):
        return exc.message
    if is_sqlalchemy_error(exc):
        original = getattr(exc, "orig", None)
        return f"The database failed: {original or exc}"
    traceback.print_exception(exc, file=sys.stderr)
    return f"Unexpected error: {exc}"


class Controller(QObject):
    memoriesLoaded = Signal(object)  # Listing
    rowsLoaded = Signal(object)  # list[Memory]
    rowsFailed = Signal()
    memoryChanged = Signal(object)  # Memory
    # Ids travel as Python objects: a host id can be any 64-bit integer, a Signal(int) is 32 bits.
    memoryRemoved = Signal(object)  # memory id
    historyLoaded = Signal(object, object)  # memory id, list[Revision] newest first
    revisionLoaded = Signal(object)  # Revision, with its texts
    blameLoaded = Signal(object, object)  # memory id, Blame
    asOfLoaded = Signal(object)  # PastListing: the first screen of the past, then the whole past
    pastHistoryLoaded = Signal(object, object, object)  # memory id, instant, list[Revision] up to it
    candidatesLoaded = Signal(object)  # list[Candidate]
    candidatesFailed = Signal(str)  # why the pending candidates could not be read (also `error`)
    countsChanged = Signal(object)  # Counts
    error = Signal(str)
    message = Signal(str)
    undoChanged = Signal(str)  # the undo action's label, "" when nothing can be undone
    storeChanged = Signal(object)  # MemoryStore: another database was opened
    fileProblemChanged = Signal(object)  # str | None: what happened to the database's file, or None

    def __init__(self, store: MemoryStore, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.store = store
        self.runner = TaskRunner(self)
        self.filter = ViewFilter()
        self.candidates: list[Candidate] | None = None  # the pending candidates last read
        self.candidatesLoaded.connect(self._candidates_read)
        self.wanted_ids: Callable[[], Sequence[int]] = list
        self._listing_token = 0
        self._refreshing = False
        self._refresh_again = False
        self._observed = False  # a complete listing of this store has looked for outside rewrites
        self.undo_history = UndoHistory(self, self)  # Undo and Redo over the command log
        self.undo_history.changed.connect(lambda: self.undoChanged.emit(self.undo_label))
        self.file_problem: str | None = None  # the database's file was deleted or replaced
        self.idle_indexing = IdleIndexing(self.runner, lambda: self.store, self.report, self)
        self._complete_later: Callable[[], None] | None = None  # a search's complete listing, waiting
        self._order: dict[ViewFilter, list[int]] = {}  # the last complete listing without a search
        self._complete_timer = QTimer(self)
        self._complete_timer.setSingleShot(True)
        self._complete_timer.timeout.connect(self._complete_now)
        self._as_of_token = 0  # the view of the past asked for last
        self._past_histories: dict[tuple[int, int], list[Revision]] = {}  # read with a first screen
        self._whole_past: Callable[[], None] | None = None  # the whole past's read, until asked for

    @property
    def read_only(self) -> bool:
        """Nothing can be written: the store is read-only, or its file is gone from under it."""
        return self.write_refusal is not None

    @property
    def write_refusal(self) -> str | None:
        """Why nothing can be written now (shown as it is), or None."""
        if self.store.read_only:
            return f"Read-only: {self.store.read_only_reason}"
        return self.file_problem

    def check_file(self) -> bool:
        """Whether the database's path still names the file the store opened (one `stat`, on this
        thread: a queued read must not delay it); `fileProblemChanged` when that changed."""
        problem = self.store.file_problem()
        if problem != self.file_problem:
            self.file_problem = problem
            self.fileProblemChanged.emit(problem)
        return problem is None

    @property
    def undo_label(self) -> str:
        return self.undo_history.undo_label

    def _run(
        self,
        work: Callable[[], T],
        done: Callable[[T], None],
        on_error: Callable[[BaseException], None] | None = None,
        *,
        priority: int = 0,
    ) -> None:
        self.runner.submit(work, done, on_error or self.report, priority=priority)

    def report(self, exc: BaseException) -> None:
        self.error.emit(describe_error(exc))

    # -- which database ---------------------------------------------------------------------------------

    def open_database(self, target: str | Path | DatabaseChoice, *, read_only: bool = False) -> None:
        """Open another database off the GUI thread; on success it replaces the current store."""
        from app.store import MemoryStore  # SQLAlchemy: loaded once the first cards were painted

        self._run(lambda: MemoryStore.open(target, read_only=read_only), self._switch)

    def _switch(self, store: MemoryStore) -> None:
        old, self.store = self.store, store
        self._listing_token += 1
        self._order = {}
        self.undo_history.forget()
        self.file_problem = None
        self.storeChanged.emit(store)
        self._run(old.close, lambda _result: None)
        self.refresh(force=True)
        self.load_candidates()

    # -- reads -----------------------------------------------------------------------------------------

    def start(self, first_page: Future[Listing] | None = None) -> None:
        """What the window's first frame shows, read ahead of the complete listing: the first page
        (`first_page`, when its read was started before the window was built), the counts and the undo
        log. The selected card's history is asked for by the window."""
        self.refresh(quick_first=True, first_page=first_page)
        self.load_counts(priority=NOW - 1)
        self.undo_history.load_once(priority=NOW - 1)
        self.load_candidates()  # after the complete listing: the review queue's, not the first frame's

    def set_filter(self, flt: ViewFilter) -> None:
        """A search shows its first screen of hits first (`load_first_page`), then the counted listing."""
        self.filter = flt
        self._listing_token += 1
        self.refresh(force=True, quick_first=bool(flt.search.strip()))

    def refresh(
        self,
        *,
        force: bool = False,
        quick_first: bool = False,
        observe: bool = True,
        first_page: Future[Listing] | None = None,
    ) -> None:
        """Reload the listing (observing outside rewrites); coalesced while one is running.

        `quick_first` first shows the listing's first page, before observing (the first observation of a
        large database records a baseline for every memory) and before every id is read; the complete,
        observed listing follows and extends it. A listing superseded before it starts (another filter,
        another database) is not read at all; a search's complete listing is asked for once the typing
        pauses (`SEARCH_COMPLETE_MS`). `first_page`: the first page of this filter of this store, its read
        already started (on start, while the window was being built).
        """
        if self._refreshing and not force:
            self._refresh_again = True
            return
        self._refreshing = True
        token, flt, wanted = self._listing_token, self.filter, list(self.wanted_ids())

        def current() -> bool:  # read in the worker: a superseded listing is skipped, not read
            return token == self._listing_token

        store = self.store

        order = self._order.get(without_search(flt)) if flt.search.strip() else None

        def quick() -> Listing | None:
            if first_page is not None:
                started = first_page.result()  # waited for first: the store is used by one thread
                if current() and started.filter == flt:
                    return started
            return load_first_page(store, flt, FIRST_PAGE, FIRST_ROWS, order, current) if current() else None

        def complete() -> None:
            self._run(
                lambda: load_listing(store, flt, wanted, FIRST_PAGE, observe=observe) if current() else None,
                lambda listing: self._listing_done(token, listing, store),
                self._listing_failed,
            )

        self._complete_timer.stop()
        self._complete_later = None
        if quick_first or first_page is not None:

            def quick_failed(exc: BaseException) -> None:
                self._listing_failed(exc)
                self._quick_done(token, None)  # the complete listing still follows

            self._run(quick, lambda listing: self._quick_done(token, listing), quick_failed)
        if quick_first and flt.search.strip():
            self._complete_later = complete  # the pause is timed from the first page shown (`_quick_done`)
        else:
            complete()

    def _complete_now(self) -> None:
        complete, self._complete_later = self._complete_later, None
        if complete is not None:
            complete()

    def _quick_done(self, token: int, listing: Listing | None) -> None:
        if token != self._listing_token:
            return
        if listing is not None:
            self._show(listing)
        if self._complete_later is not None:  # keys held while this page was read have asked by now
            self._complete_timer.start(SEARCH_COMPLETE_MS)

    def _listing_done(self, token: int, listing: Listing | None, store: MemoryStore) -> None:
        self._refreshing = False
        self._observed = self._observed or (listing is not None and store is self.store)
        if listing is not None and not listing.filter.search and store is self.store:
            self._order = {listing.filter: listing.ids}  # what a search's first screen walks
        if listing is not None and token == self._listing_token:
            self._show(listing)
        self.idle_indexing.poke()  # a listing observes, and every write refreshes: index what waits
        self.undo_history.load_once()  # after the first cards, not before them
        if self._refresh_again:
            self._refresh_again = False
            self.refresh()

    def _show(self, listing: Listing) -> None:
        self.memoriesLoaded.emit(listing)
        if listing.counts is not None:
            self.countsChanged.emit(listing.counts)

    def _listing_failed(self, exc: BaseException) -> None:
        self._refreshing = False
        self._refresh_again = False
        self.report(exc)

    def fetch_rows(self, ids: Sequence[int]) -> None:
        wanted = list(ids)

        def failed(exc: BaseException) -> None:
            self.rowsFailed.emit()
            self.report(exc)

        self._run(lambda: self.store.get_many(wanted), self.rowsLoaded.emit, failed)

    def load_history(self, memory_id: int) -> None:
        """Revisions newest first, without their texts except the newest one's (the diff shown first);
        the others' texts come with `load_revision` when one is selected. Before this store's first
        complete listing has looked for outside rewrites (at 100,000 memories a first look compares every
        row: half a second), the history is read as last recorded: the window's first frame waits for it."""
        observe = self._observed

        def work() -> list[Revision]:
            found = self.store.history(memory_id, observe=observe, texts=False, newest_whole=True)
            return list(reversed(found))

        self._run(work, lambda revisions: self.historyLoaded.emit(memory_id, revisions), priority=NOW)

    def load_revision(self, revision_id: int) -> None:
        self._run(lambda: self.store.revision(revision_id), self.revisionLoaded.emit, priority=NOW)

    def load_blame(self, memory_id: int) -> None:
        self._run(
            lambda: self.store.blame(memory_id),
            lambda found: self.blameLoaded.emit(memory_id, found),
            priority=NOW,
        )

    def load_as_of(self, asked: int, prefer: int | None = None) -> None:
        """The memories as they were at `asked` (a future instant is now): the first screen first, with
        the history of the memory it selects (`prefer`, the card selected now, if it existed then), then
        every memory (`ui.past.listing`), once the window asks for it (`read_whole_past`: when the first
        screen is painted, so that the long read does not compete with that paint). A later request, or
        leaving the past (`leave_as_of`), drops what is not read yet."""
        self._as_of_token += 1
        token, store = self._as_of_token, self.store

        def current() -> bool:  # read in the worker: a superseded listing is skipped, not read
            return token == self._as_of_token

        def first() -> PastListing | None:
            return past.first_page(store, asked, FIRST_ROWS, prefer) if current() else None

        def shown(listing: PastListing | None) -> None:
            if listing is None or not current():
                return
            if listing.first_history is not None:
                memory_id, history = listing.first_history
                self._past_histories[(memory_id, listing.at)] = history
            self.asOfLoaded.emit(listing)

        self._past_histories.clear()
        self._run(first, shown, priority=NOW)
        self._whole_past = lambda: self._run(
            lambda: past.whole_past(store, asked) if current() else None, shown
        )

    def read_whole_past(self) -> None:
        """Read every memory of the past asked for last (once; see `load_as_of`)."""
        read, self._whole_past = self._whole_past, None
        if read is not None:
            read()

    def leave_as_of(self) -> None:
        """The past is no longer looked at: what of it is still to be read is not read."""
        self._as_of_token += 1
        self._past_histories.clear()
        self._whole_past = None

    def load_history_as_of(self, memory_id: int, at: int) -> None:
        """A memory's revisions at or before `at`, newest first (`pastHistoryLoaded`); the first screen's
        first memory's was read with it."""
        kept = self._past_histories.get((memory_id, at))
        if kept is not None:
            self.pastHistoryLoaded.emit(memory_id, at, kept)
            return
        store = self.store
        self._run(
            lambda: past.history_until(store, memory_id, at),
            lambda found: self.pastHistoryLoaded.emit(memory_id, at, found),
            priority=NOW,
        )

    def load_counts(self, *, priority: int = 0) -> None:
        self._run(self.store.counts, self.countsChanged.emit, priority=priority)

    def load_candidates(self, *, priority: int = 0) -> None:
        self._run(
            self.store.candidates, self.candidatesLoaded.emit, self._candidates_failed, priority=priority
        )

    def _candidates_failed(self, exc: BaseException) -> None:
        self.report(exc)
        self.candidatesFailed.emit(describe_error(exc))

    def _candidates_read(self, candidates: Sequence[Candidate]) -> None:
        self.candidates = list(candidates)

    def load_evidence(self, ids: Sequence[int], done: Callable[[Mapping[int, Evidence]], None]) -> None:
        """The evidence archive's words of candidates (`MemoryStore.evidence`), read off the GUI thread."""
        wanted = list(ids)
        self._run(lambda: self.store.evidence(wanted), done, priority=NOW)

    def refresh_if_changed_elsewhere(self) -> None:
        """The file changed: reload only if another process committed (our own writes, which refresh
        themselves, and the idle indexing's steps also touch the file). A file that was deleted or
        replaced is said so (`check_file`); what the store opened is still shown."""
        self.check_file()
        store, shown = self.store, list(self.wanted_ids())

        def work() -> list[Memory] | None:
            if not store.changed_elsewhere():
                return None
            store.observe()  # the rewrite's revision is recorded before its card and history are read
            return store.get_many(shown)

        def done(rows: list[Memory] | None) -> None:
            if rows is not None:  # the cards on screen first, then the whole listing and the candidates
                self.rowsLoaded.emit(rows)
                self.refresh()
                self.load_candidates()
                self.undo_history.reload()  # a change made with the CLI is on the stack too

        self._run(work, done)

    # -- writes ----------------------------------------------------------------------------------------

    def write(
        self,
        work: Callable[[MemoryStore], T],
        done: Callable[[T], None],
        on_error: Callable[[BaseException], None] | None = None,
        *,
        relist: bool = True,
    ) -> bool:
        """Run a write; then the counts, and a listing (not observed) when `relist`: the write may move
        rows in or out of the filter. Its own row comes with its result (`changed`), not with a listing."""
        self.check_file()  # the watcher may not have told yet: never a write into an unlinked file
        refusal = self.write_refusal
        if refusal is not None:
            self.error.emit(f"{refusal}. Nothing was changed.")
            return False

        def finish(result: T) -> None:
            done(result)  # first: the history read it starts is queued before the listing
            if relist:
                self.refresh(observe=False)
            else:
                self.load_counts()

        self._run(lambda: work(self.store), finish, on_error)
        return True

    def changed(self, memory: Memory, message: str) -> None:
        self.memoryChanged.emit(memory)
        self.message.emit(message)

    def edit(
        self,
        before: Memory,
        content: str,
        *,
        on_conflict: Callable[[ConflictError], None] | None = None,
        on_saved: Callable[[Memory], None] | None = None,
    ) -> None:
        """Save `content` over `before`; refused (`on_conflict`) if the memory moved since it was read."""

        def done(after: Memory) -> None:
            self.changed(after, f"Saved #{after.id}")
            if on_saved:
                on_saved(after)

        def failed(exc: BaseException) -> None:
            if isinstance(exc, ConflictError) and on_conflict is not None:
                on_conflict(exc)
            else:
                self.report(exc)

        self.undo_history.execute(
            Edit(before.id, content, expected=before), done, failed, relist=self._content_moves_rows()
        )

    def _content_moves_rows(self) -> bool:
        """Whether a change of content may move a row in the current listing, or in or out of it."""
        flt = self.filter
        return bool(flt.search) or flt.sort != "promoted" or flt.status not in ("active", "dismissed", "all")

    def dismiss(self, before: Memory) -> None:
        self.undo_history.execute(
            Dismiss(before.id), one_result(Memory, lambda m: self.changed(m, f"Dismissed #{m.id}"))
        )

    def reactivate(
        self,
        before: Memory,
        new_expiry: int | object | None = KEEP,
        *,
        on_expiry_required: Callable[[ExpiryRequiredError], None] | None = None,
    ) -> None:
        """`new_expiry`: KEEP the current one, None for never, or a future instant (epoch ms)."""
        expiry = new_expiry

        def failed(exc: BaseException) -> None:
            if isinstance(exc, ExpiryRequiredError) and on_expiry_required is not None:
                on_expiry_required(exc)
            else:
                self.report(exc)

        self.undo_history.execute(
            Reactivate(before.id, expiry),
            one_result(Memory, lambda m: self.changed(m, f"Reactivated #{m.id}")),
            failed,
        )

    def set_expiry(self, before: Memory, expires_at: int | None) -> None:
        def done(m: Memory) -> None:
            text = "Cleared the expiry of" if expires_at is None else "Set the expiry of"
            self.changed(m, f"{text} #{m.id}")

        self.undo_history.execute(SetExpiry(before.id, expires_at), one_result(Memory, done))

    def delete(self, before: Memory) -> None:
        def done(_revision: Revision) -> None:
            self.memoryRemoved.emit(before.id)
            self.message.emit(f"Deleted #{before.id} (Ctrl+Z brings it back)")

        from app.commands.presence import Delete  # SQLAlchemy: loaded once the first cards were painted

        self.undo_history.execute(Delete(before.id), one_result(Revision, done))

    def restore(self, before: Memory, revision_id: int) -> None:
        self.undo_history.execute(
            RestoreRevision(before.id, revision_id),
            lambda m: self.changed(m, f"Restored #{m.id} from revision {revision_id}"),
            relist=self._content_moves_rows(),
        )

    def undo(self) -> None:
        self.undo_history.undo()

    def redo(self) -> None:
        self.undo_history.redo()

    def sweep(self) -> None:
        """Dismiss what has expired (the window runs this on a timer for writable stores); the window
        lists again only when something was dismissed: a minute's timer never reloads the listing."""
        if self.read_only:
            return

        def done(ids: list[int]) -> None:
            if ids:
                self.message.emit("Expired and dismissed: " + ", ".join(f"#{i}" for i in ids))
                self.refresh(observe=False)

        self._run(self.store.sweep, done)
