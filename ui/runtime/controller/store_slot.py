"""The controller's store (`StoreSlot`): open, or given to open later (a launch's `StoreLater`, opened on
first use after the first frame), its refusal when that open fails, and its replacement by another
database. Two locks: `_opening` is held through an open (which may wait out the host's busy timeout),
`_swap` only while which store this is changes or a refusal is kept, so a database opened on the GUI thread
never waits for an open and a refusal of the store it replaced is never taken for its own. Qt-free."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TYPE_CHECKING

from app.core.errors import StoreError
from ui.runtime.first_screen import StoreLater

if TYPE_CHECKING:
    from app.store import MemoryStore


class StoreSlot:
    def __init__(self, store: MemoryStore | StoreLater) -> None:
        self._store: MemoryStore | None = None
        self.later: StoreLater | None = None  # the launch's store, until it opens or another takes its place
        self.refused: StoreError | None = None  # why the launch's store refused, opened after the first frame
        self._kept: list[StoreError] = []  # every such refusal: said once, never again by a late read
        self._opening = threading.Lock()
        self._swap = threading.Lock()
        if isinstance(store, StoreLater):
            self.later = store
        else:
            self._store = store

    def get(self, refused_now: Callable[[StoreError], None]) -> MemoryStore:
        """The open store; the launch's opens here on first use, on whichever thread asks first. Refused,
        the refusal is kept, handed to `refused_now` once the lock is let go (a slot it reaches may ask
        again), and raised again without another open until the person asks (`Controller.reopen`)."""
        store = self._store
        if store is not None:
            return store
        refused: StoreError | None = None
        with self._opening:
            with self._swap:  # one look at which store this is: a switch lands before it or after it
                later, store, kept = self.later, self._store, self.refused
            if store is None and later is not None:
                if kept is not None:
                    raise kept.with_traceback(None)  # not one more frame per read kept
                try:
                    opened = later.open()
                except StoreError as exc:
                    refused = exc if self.keep(later, exc) else None
                else:
                    with self._swap:
                        if self.later is later:  # else another database took its place meanwhile (its
                            self._store = opened  # opener closes this one when the window ends)
            store = self._store
        if refused is not None:
            refused_now(refused)
            raise refused
        assert store is not None
        return store

    def keep(self, later: StoreLater, refusal: StoreError) -> bool:
        """Keep `refusal` as the launch's store's (and among those never reported again), unless another
        database took the place of `later` meanwhile: its refusal is then past."""
        with self._swap:
            if self.later is not later:
                return False
            self.refused = refusal
            self._kept.append(refusal)
            return True

    def was_kept(self, error: BaseException) -> bool:
        """Whether `error` is a refusal once kept (said once, as a file problem, never as an error again)."""
        return any(error is kept for kept in self._kept)

    def replace(self, store: MemoryStore) -> MemoryStore | None:
        """Put `store` in the place of the current one, which is returned if it was open: a launch's store
        that never opened (refused, or its file gone after the first frame's read) is not opened to go."""
        with self._swap:
            old = self._store
            self._store, self.later, self.refused = store, None, None
        return old

    def open_now(self) -> None:
        """Open the launch's store now, on this thread (before the window shows): its refusal is raised
        for the launch to ask about, never kept."""
        with self._opening:
            if self._store is None and self.later is not None:
                opened = self.later.open()
                with self._swap:
                    self._store = opened

    @property
    def open_store(self) -> MemoryStore | None:
        return self._store

    @property
    def pending(self) -> StoreLater | None:
        """The launch's store while it is not open yet (its facts and clock stand in for it), else None."""
        return self.later if self._store is None else None

    @property
    def identity(self) -> object:
        """Which store this is, without opening it (the same before and after the launch's opens)."""
        return self.later if self.later is not None else self._store
