"""The first screen's read, started as soon as the store is open: before Qt and the window are imported
and built, so the database's own work (SQLite runs without Python's lock) overlaps with theirs.

No Qt here (`ui.cli_hooks` starts it before Qt is imported). `FirstPageRead` runs `load_first_page` for
the window's starting filter in a plain thread; the controller's first task takes its result (or its
error) with `result()`, which waits for the thread, so no two threads ever use the store at once.
"""

from __future__ import annotations

import threading

from app.store import MemoryStore
from ui.cards.listing import FIRST_PAGE, FIRST_ROWS, Listing, ViewFilter, load_first_page


class FirstPageRead:
    def __init__(self, store: MemoryStore, flt: ViewFilter | None = None) -> None:
        self.store = store
        self.filter = flt or ViewFilter()
        self._listing: Listing | None = None
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._read, name="first page", daemon=True)
        self._thread.start()

    def _read(self) -> None:
        try:
            self._listing = load_first_page(self.store, self.filter, FIRST_PAGE, FIRST_ROWS)
        except BaseException as exc:  # handed to whoever takes the result, on its thread
            self._error = exc

    def result(self) -> Listing:
        """The first page, once read (waits for the thread); its error raised here."""
        self._thread.join()
        if self._error is not None:
            raise self._error
        assert self._listing is not None
        return self._listing
