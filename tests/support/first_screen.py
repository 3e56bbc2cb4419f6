"""The launch's first screen, for tests that build the window in their own process: read at once through
an open store, as the launch's child process reads it (`ui.runtime.first_screen.read_aside`)."""

from __future__ import annotations

from concurrent.futures import Future

from app.store import MemoryStore
from ui.runtime.first_page import read_first_screen
from ui.runtime.first_screen import FirstScreen


def first_screen_of(store: MemoryStore) -> Future[FirstScreen]:
    """The first screen of `store`, read now, as the launch hands it to the window."""
    future: Future[FirstScreen] = Future()
    future.set_result(read_first_screen(store))
    return future
