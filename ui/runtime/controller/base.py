"""The window's controller, its common part: the store, the serial runner, the signals, and the listing.

All store calls go through one serial TaskRunner, so transactions run in the order they were asked
for and no two touch the store at once; a read a person waits for (a history, a revision) is queued
ahead of listings and counts. Results come back as signals on the GUI thread; errors a person can
cause (`StoreError`, a failing database) become `error(str)` messages, never tracebacks.

The listing: a first page first (`start`, `refresh(quick_first=True)`), then the complete, observed
listing; a superseded listing is not read. The other roles build on this class: the writes
(`ui.runtime.controller.writes`), the past (`ui.runtime.controller.past`), and the rest of the reads
with the choice of database (`ui.runtime.controller.Controller`, the class the window uses, in this
package's `__init__`).

A launch hands the controller a store to open later (`StoreLater`): what the window says of it until
then comes from the first screen's reads (`facts`, `now`), and it opens on first use, on the runner's
thread, once the first frame is painted (`ui.runtime.first_screen`). Refused as it opens (the pages of a
file never opened are checked then: damaged), it is a file problem as below, said once (`refused`), and
opened again only when the person asks (`Controller.reopen`).

The file under the window's feet: when the database's path no longer names the file the store opened
(deleted, or another file renamed over it), `fileProblemChanged` says so and every write is refused
before it starts: a write would land in a file without a name and be lost.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from concurrent.futures import Future
from typing import TYPE_CHECKING, TypeVar

from PySide6.QtCore import QObject, QTimer, Signal

from app.core.errors import StoreError
from app.core.models import Candidate, Counts, Revision
from ui.cards.listing import (
    FIRST_PAGE,
    FIRST_ROWS,
    Listing,
    ViewFilter,
    load_first_page,
    load_listing,
    without_search,
)
from ui.runtime.controller.messages import describe_error
from ui.runtime.controller.store_slot import StoreSlot
from ui.runtime.first_screen import StoreFacts, StoreLater, first_part
from ui.runtime.idle_indexing import IdleIndexing
from ui.runtime.tasks import TaskRunner

if TYPE_CHECKING:
    from app.store import MemoryStore
    from ui.runtime.first_screen import FirstScreen
    from ui.runtime.undo_stack import UndoHistory

T = TypeVar("T")
NOW = 10  # the runner's priority of a read a person waits for
# A search's complete listing (every hit, counted) waits for the typing to pause this long after its first
# page was shown: read while keys still come, it would hold the one store thread when the next key's first
# page needs it (timed from the first page's arrival, since the keys typed during that read ask after it).
SEARCH_COMPLETE_MS = 250


class ControllerBase(QObject):
    memoriesLoaded = Signal(object)  # Listing
    rowsLoaded = Signal(object)  # list[Memory]
    rowsFailed = Signal()
    memoryChanged = Signal(object)  # Memory
    projectMemoryChanged = Signal(object)  # ProjectMemory: written, undone or redone here
    # Ids travel as Python objects: a host id can be any 64-bit integer, a Signal(int) is 32 bits.
    memoryRemoved = Signal(object)  # memory id
    historyLoaded = Signal(object, object)  # memory id, list[Revision] newest first
    linksLoaded = Signal(object, object)  # memory id, list[str]: its links, "merged from #7, #9"
    cardLinksLoaded = Signal(object, object)  # ids answered, dict[int, list[str]]: those with links
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
    storeRefused = Signal(object)  # StoreError: the launch's store, opened after the first frame, refused

    undo_history: UndoHistory  # Undo and Redo over the command log (made by `Controller`)

    def __init__(self, store: MemoryStore | StoreLater, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.slot = StoreSlot(store)
        self.runner = TaskRunner(self)
        self.filter = ViewFilter()
        self.candidates: list[Candidate] | None = None  # the pending candidates last read
        self.candidatesLoaded.connect(self._candidates_read)
        self.wanted_ids: Callable[[], Sequence[int]] = list
        self._listing_token = 0
        self._refreshing = False
        self._refresh_again = False
        self.file_problem: str | None = None  # the database's file was deleted or replaced, or refused
        self.idle_indexing = IdleIndexing(self.runner, lambda: self.store, self.report, self)
        self._complete_later: Callable[[], None] | None = None  # a search's complete listing, waiting
        self._order: dict[ViewFilter, list[int]] = {}  # the last complete listing without a search
        self._complete_timer = QTimer(self)
        self._complete_timer.setSingleShot(True)
        self._complete_timer.timeout.connect(self._complete_now)
        self._as_of_token = 0  # the view of the past asked for last (`ControllerPast`)
        self._past_histories: dict[tuple[int, int], list[Revision]] = {}  # read with a first screen
        self._whole_past: Callable[[], None] | None = None  # the whole past's read, until asked for
        self.first_screen: Future[FirstScreen] | None = None  # read at launch, until its history is taken
        self.first_words: Future[FirstScreen] | None = None  # the same, until its card's words are taken

    @property
    def store(self) -> MemoryStore:
        """The open store; a store given to open later (`StoreLater`) opens here on first use, on whichever
        thread asks first (the runner's, after the launch's first frame). Refused, the refusal is kept and
        said once (`storeRefused`), and raised again without another open until the person asks
        (`Controller.reopen`)."""
        return self.slot.get(self.storeRefused.emit)

    @property
    def refused(self) -> StoreError | None:
        """Why the launch's store refused, opened after the first frame (None: it did not, or not yet)."""
        return self.slot.refused

    def replace_store(self, store: MemoryStore) -> MemoryStore | None:
        """Put `store` in the place of the current one, which is returned if it was open."""
        return self.slot.replace(store)

    @property
    def store_identity(self) -> object:
        """Which store this is, without opening it: the same before and after a launch's store opens, another
        once another database is open (what is kept of one store, as a tooltip's words, is not another's)."""
        return self.slot.identity

    @property
    def store_open(self) -> bool:
        """Whether the store is open (a launch opens it after its first frame)."""
        return self.slot.open_store is not None

    @property
    def facts_known(self) -> bool:
        """Whether `facts` can be answered without opening the store."""
        pending = self.slot.pending
        return pending is None or pending.facts is not None

    @property
    def facts(self) -> StoreFacts:
        """Where the store is and why nothing can be written there, without opening it once known."""
        pending = self.slot.pending
        if pending is not None and pending.facts is not None:
            return pending.facts
        return StoreFacts.of(self.store)

    def open_now(self) -> None:
        """Open the launch's store now, on this thread, before the window shows: its refusal is raised here
        for the launch to ask about (each call tries again), never kept as a refusal after the first frame."""
        self.slot.open_now()

    def now(self) -> int:
        """The store's clock, read without opening it."""
        pending = self.slot.pending
        if pending is not None:
            return pending.clock.now_ms()
        return self.store.now()

    @property
    def read_only(self) -> bool:
        """Nothing can be written: the store is read-only, or its file is gone from under it."""
        return self.write_refusal is not None

    @property
    def write_refusal(self) -> str | None:
        """Why nothing can be written now (shown as it is), or None."""
        reason = self.facts.read_only_reason
        if reason is not None:
            return f"Read-only: {reason}"
        refused = self.refused  # kept on the runner's thread before the window is told (`file_problem`)
        return self.file_problem or (refused.message if refused is not None else None)

    def check_file(self) -> bool:
        """Whether the database's path still names the file the store opened (one `stat`, on this
        thread: a queued read must not delay it); `fileProblemChanged` when that changed."""
        store = self.slot.open_store
        if store is None:
            return False  # not open yet (the launch's first frame): nothing to compare with
        problem = store.file_problem()
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
        if not self.slot.was_kept(exc):  # said once, as a file problem (a read queued
            self.error.emit(describe_error(exc))  # before a Reopen succeeded may still meet it)

    # -- reads -----------------------------------------------------------------------------------------

    def start(self, first: Future[FirstScreen] | None = None) -> None:
        """What the window's first frame shows, read ahead of the complete listing: the first page, the
        counts and the undo log; the selected card's history when the window asks (`load_history`).
        `first`: all of these, their reads started before the window was built (`ui.runtime.first_page`)."""
        self.first_screen = self.first_words = first
        self.refresh(quick_first=True, first_page=first, complete_later=True)

        def counts() -> Counts:
            known = first_part(first, lambda screen: screen.counts)
            return self.store.counts() if known is None else known

        self._run(counts, self.countsChanged.emit, priority=NOW - 1)
        self.undo_history.load_once(priority=NOW - 1, first=first)

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
        first_page: Future[FirstScreen] | None = None,
        complete_later: bool = False,
    ) -> None:
        """Reload the listing (observing outside rewrites); coalesced while one is running.

        `quick_first` first shows the listing's first page, before observing (the first observation of a
        large database records a baseline for every memory) and before every id is read; the complete,
        observed listing follows and extends it. A listing superseded before it starts (another filter,
        another database) is not read at all; a search's complete listing is asked for once the typing
        pauses (`SEARCH_COMPLETE_MS`). `first_page`: the first page of this filter of this store, its read
        already started (on start, while the window was being built). `complete_later`: the complete
        listing waits too, until `read_complete` (the window's first frame is shown; its card's history
        is read first) or the same pause.
        """
        if self._refreshing and not force:
            self._refresh_again = True
            return
        self._refreshing = True
        token, flt, wanted = self._listing_token, self.filter, list(self.wanted_ids())

        def current() -> bool:  # read in the worker: a superseded listing is skipped, not read
            return token == self._listing_token

        order = self._order.get(without_search(flt)) if flt.search.strip() else None

        def quick() -> Listing | None:
            started = first_part(first_page, lambda screen: screen.listing)  # waited for: the store is
            if started is not None and current() and started.filter == flt:  # used by one thread
                return started
            return (
                load_first_page(self.store, flt, FIRST_PAGE, FIRST_ROWS, order, current)
                if current()
                else None
            )

        def complete() -> None:
            def read() -> tuple[MemoryStore, Listing | None]:  # the store: opened here, after a launch
                store = self.store
                return store, load_listing(
                    store, flt, wanted, FIRST_PAGE, observe=observe
                ) if current() else None

            self._run(
                read, lambda answer: self._listing_done(token, answer[1], answer[0]), self._listing_failed
            )

        self._complete_timer.stop()
        self._complete_later = None
        if quick_first or first_page is not None:

            def quick_failed(exc: BaseException) -> None:
                self._listing_failed(exc)
                self._quick_done(token, None)  # the complete listing still follows

            self._run(quick, lambda listing: self._quick_done(token, listing), quick_failed)
        if quick_first and (flt.search.strip() or complete_later):
            self._complete_later = complete  # the pause is timed from the first page shown (`_quick_done`)
        else:
            complete()

    def read_complete(self) -> None:
        """Read the complete listing that waits (`refresh`'s `complete_later`) now, then the pending
        candidates (the review queue's: both look for outside changes first, which the first frame does
        not wait for)."""
        self._complete_timer.stop()
        self._complete_now()
        if self.candidates is None:
            self.load_candidates()

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

    def load_counts(self, *, priority: int = 0) -> None:
        self._run(lambda: self.store.counts(), self.countsChanged.emit, priority=priority)

    def load_candidates(self, *, priority: int = 0) -> None:
        self._run(
            lambda: self.store.candidates(),
            self.candidatesLoaded.emit,
            self._candidates_failed,
            priority=priority,
        )

    def _candidates_failed(self, exc: BaseException) -> None:
        self.report(exc)
        self.candidatesFailed.emit(describe_error(exc))

    def _candidates_read(self, candidates: Sequence[Candidate]) -> None:
        self.candidates = list(candidates)
