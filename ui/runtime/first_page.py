"""The first screen's read, started as soon as the launch has its store: before Qt and the window are
imported and built, so the database's own work (SQLite runs without Python's lock: ordering the rows
of a large listing) overlaps with theirs.

No Qt here (`ui.cli_hooks` starts it before Qt is imported). The controller's first task takes the
result (or its error) with `Future.result()`, which waits for the read, so no two threads ever use
the store at once.
"""

from __future__ import annotations

from concurrent.futures import Future, ThreadPoolExecutor
from typing import TYPE_CHECKING

from ui.cards.listing import FIRST_PAGE, FIRST_ROWS, Listing, ViewFilter, load_first_page

if TYPE_CHECKING:
    from app.store import MemoryStore


def start_first_page(store: MemoryStore, flt: ViewFilter | None = None) -> Future[Listing]:
    """`load_first_page` of the window's starting filter (`flt`), read in a thread of its own."""
    reader = ThreadPoolExecutor(1, thread_name_prefix="first page")
    try:
        return reader.submit(load_first_page, store, flt or ViewFilter(), FIRST_PAGE, FIRST_ROWS)
    finally:
        reader.shutdown(wait=False)  # the thread ends with the read
