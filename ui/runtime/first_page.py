"""The first screen's read, started as soon as the launch knows its database: before Qt and the window
are imported and built, so the database's own work (SQLite runs without Python's lock) overlaps with
theirs.

No Qt here (`ui.cli_hooks` starts it before Qt is imported). `FirstPageRead` runs `load_first_page` on
an open store for the window's starting filter; `first_screen_read` reads the same first screen with
the standard library's `sqlite3` before the store (and SQLAlchemy) is opened at all
(`app.store.first_screen`), or None where only the store can say. The controller's first task
takes a `FirstPageRead`'s result (or its error) with `result()`, which waits for the thread, so no two
threads ever use the store at once.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Generic, TypeVar

from app.store.first_screen import read_first_screen
from ui.cards.listing import FIRST_PAGE, FIRST_ROWS, Listing, ViewFilter, load_first_page

if TYPE_CHECKING:
    from app.store import MemoryStore

T = TypeVar("T")


class ThreadRead(Generic[T]):
    """`read()` run in a plain thread at once; `result()` waits for it (its error raised there)."""

    def __init__(self, read: Callable[[], T], name: str) -> None:
        self._read = read
        self._value: T | None = None
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        try:
            self._value = self._read()
        except BaseException as exc:  # handed to whoever takes the result, on its thread
            self._error = exc

    def result(self) -> T:
        """The value, once read (waits for the thread); its error raised here."""
        self._thread.join()
        if self._error is not None:
            raise self._error
        return self._value  # type: ignore[return-value]  # set when no error was raised


class FirstPageRead(ThreadRead[Listing]):
    def __init__(self, store: MemoryStore, flt: ViewFilter | None = None) -> None:
        self.store = store
        self.filter = flt or ViewFilter()
        super().__init__(lambda: load_first_page(store, self.filter, FIRST_PAGE, FIRST_ROWS), "first page")


def first_screen_read(path: Path, now: int) -> ThreadRead[Listing | None]:
    """The window's starting listing's first page read from the file at `path` without the store (the
    listing `FirstPageRead` would give once the store is open), or None where the store must read it."""

    def read() -> Listing | None:
        screen = read_first_screen(path, now, FIRST_PAGE, FIRST_ROWS)
        if screen is None:
            return None
        return Listing(ViewFilter(), screen.ids, screen.rows, None, screen.total)

    return ThreadRead(read, "first screen")
