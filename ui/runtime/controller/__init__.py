"""The window's controller (`Controller`): owns the MemoryStore, runs every read and write off the GUI
thread, emits results. Made of roles, one module each: the common part and the listing (`base`), the
writes (`writes`), the past (`past`); here the choice of database and the reads of one memory, its
evidence and outside changes.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject

from app.core.errors import StoreError
from app.core.models import Memory, Revision
from app.core.models.links import grouped_phrases
from app.core.paths import DatabaseChoice
from ui.runtime.controller.base import NOW, SEARCH_COMPLETE_MS
from ui.runtime.controller.messages import describe_error, refused_saying
from ui.runtime.controller.past import ControllerPast
from ui.runtime.controller.writes import ControllerWrites
from ui.runtime.undo_stack import UndoHistory

if TYPE_CHECKING:
    from app.core.models.evidence import Evidence
    from app.store import MemoryStore
    from ui.runtime.first_screen import StoreLater

__all__ = ["NOW", "SEARCH_COMPLETE_MS", "Controller", "describe_error", "refused_saying"]


class Controller(ControllerWrites, ControllerPast):
    def __init__(self, store: MemoryStore | StoreLater, parent: QObject | None = None) -> None:
        super().__init__(store, parent)
        self.undo_history = UndoHistory(self, self)
        self.undo_history.changed.connect(lambda: self.undoChanged.emit(self.undo_label))
        self.storeRefused.connect(self._store_refused)  # on this thread, whichever thread opened it
        self._reopening = False  # the launch's refused store being opened again (`reopen`)

    # -- which database ---------------------------------------------------------------------------------

    def open_database(self, target: str | Path | DatabaseChoice, *, read_only: bool = False) -> None:
        """Open another database off the GUI thread; on success it replaces the current store."""
        from app.store import MemoryStore

        self._run(lambda: MemoryStore.open(target, read_only=read_only), self._switch)

    def _store_refused(self, refusal: StoreError) -> None:
        """The launch's store refused as it opened: what is shown stays, and nothing can be changed."""
        if refusal is self.refused:  # else opened since, or refused anew
            self.file_problem = refusal.message
            self.fileProblemChanged.emit(refusal.message)

    def reopen(self) -> None:
        """Open the database anew (a file problem's Reopen): a launch's store refused as it opened, with its
        own options, once more (refused again, it says so again); else the file now at its path."""
        later = self.slot.later
        if self.refused is None or later is None:
            open_store = self.slot.open_store  # a file gone from under it: as it was asked for
            asked = open_store is not None and open_store.asked_read_only
            self.open_database(self.facts.location, read_only=asked)
            return
        if self._reopening:
            return  # one open at a time: its answer comes
        self._reopening = True

        def opened(store: MemoryStore) -> None:
            self._reopening = False
            if self.slot.later is later:
                self._switch(store)
            else:  # another database took its place meanwhile: it stays
                self._run(store.close, lambda _result: None)

        def refused_again(exc: BaseException) -> None:
            self._reopening = False
            if not isinstance(exc, StoreError):
                if self.slot.later is later:  # else another database took its place: this open is past
                    self.report(exc)
                return
            if self.slot.keep(later, exc):  # else another database took its place: its refusal is past
                self.storeRefused.emit(exc)

        self._run(later.open, opened, refused_again)

    def _switch(self, store: MemoryStore) -> None:
        old = self.replace_store(store)
        self.first_screen = self.first_words = None  # read of the store before
        self._listing_token += 1
        self._order = {}
        self.undo_history.forget()
        self.file_problem = None
        self.storeChanged.emit(store)
        if old is not None:
            self._run(old.close, lambda _result: None)
        self.refresh(force=True)
        self.load_candidates()

    def load_history(self, memory_id: int) -> None:
        """Revisions newest first, without their texts except the newest one's (the diff shown first);
        the others' texts come with `load_revision` when one is selected. Read as last recorded: the
        listing looks for outside rewrites (`load_listing`), so the window's first frame does not wait."""
        from ui.runtime.first_screen import first_part

        first, self.first_screen = self.first_screen, None  # the launch's first card: read once, already

        def work() -> tuple[list[Revision], list[str]]:
            known = first_part(first, lambda screen: screen.history_of(memory_id))
            if known is None:
                from ui.runtime.first_page import newest_first  # with the store's modules

                known = newest_first(self.store, memory_id), self.store.links([memory_id]).get(memory_id, [])
            return known[0], grouped_phrases(memory_id, known[1])

        def done(found: tuple[list[Revision], list[str]]) -> None:
            self.historyLoaded.emit(memory_id, found[0])
            self.linksLoaded.emit(memory_id, found[1])

        self._run(work, done, priority=NOW)

    def load_card_links(self, ids: Sequence[int]) -> None:
        """The links of cards as short phrases (`cardLinksLoaded`), with those of the memories at their
        other ends (a link just made or undone changes both cards); a failed read is said like any."""
        wanted = list(ids)

        def work() -> tuple[list[int], dict[int, list[str]]]:
            found = self.store.links(wanted)
            others = list(dict.fromkeys(link.other_end(i) for i, links in found.items() for link in links))
            others = [i for i in others if i not in found and i not in wanted]
            if others:
                found.update(self.store.links(others))
            phrases = {memory_id: grouped_phrases(memory_id, links) for memory_id, links in found.items()}
            return [*wanted, *others], phrases

        self._run(work, lambda answer: self.cardLinksLoaded.emit(*answer))

    def load_revision(self, revision_id: int) -> None:
        self._run(lambda: self.store.revision(revision_id), self.revisionLoaded.emit, priority=NOW)

    def load_blame(self, memory_id: int) -> None:
        self._run(
            lambda: self.store.blame(memory_id),
            lambda found: self.blameLoaded.emit(memory_id, found),
            priority=NOW,
        )

    def load_evidence(self, ids: Sequence[int], done: Callable[[Mapping[int, Evidence]], None]) -> None:
        """The evidence archive's words of candidates (`MemoryStore.evidence`), read off the GUI thread."""
        from ui.runtime.first_screen import first_part

        wanted = list(ids)
        first, self.first_words = self.first_words, None  # the launch's first card: read once, already

        def work() -> Mapping[int, Evidence]:
            known = first_part(first, lambda screen: screen.evidence_of(wanted))
            return self.store.evidence(wanted) if known is None else known

        self._run(work, done, priority=NOW)

    def refresh_if_changed_elsewhere(self) -> None:
        """The file changed: reload only if another process committed (our own writes, which refresh
        themselves, and the idle indexing's steps also touch the file). A file that was deleted or
        replaced is said so (`check_file`); what the store opened is still shown."""
        self.check_file()
        if not self.store_open:
            return  # a launch's store, not open yet (its complete listing observes as it opens) or refused
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
