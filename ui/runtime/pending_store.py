"""The store a window starts with while its real `MemoryStore` is still being opened.

A launch paints its first cards before SQLAlchemy is imported (`app.store.first_screen`), so the
window is built before the store exists. `PendingStore` stands in for it: it answers what the window
asks while it is built (the database's location, the clock, "read-only: opening"), so every write is
refused and the actions that write are disabled. The controller holds every task until the store has
opened (`Controller.open_pending`, the runner held); then `real` is set (in the worker, before any held
task runs) and anything else asked of this object is asked of the real store; a method taken before
that is the real store's when it is called, so a task that took it before the store opened reads the
right database.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from app.core.clock import Clock

if TYPE_CHECKING:
    from app.store import MemoryStore

OPENING = "the database is being opened"


class PendingStore:
    def __init__(self, location: str, clock: Clock) -> None:
        self._location = location
        self.clock = clock
        self.real: MemoryStore | None = None
        self.warnings: list[str] = []

    @property
    def location(self) -> str:
        return self._location if self.real is None else self.real.location

    @property
    def read_only(self) -> bool:
        return self.real is None or self.real.read_only

    @property
    def read_only_reason(self) -> str | None:
        return OPENING if self.real is None else self.real.read_only_reason

    def now(self) -> int:
        return self.clock.now_ms()

    def file_problem(self) -> str | None:
        return None if self.real is None else self.real.file_problem()

    def close(self) -> None:
        """Nothing of its own to close: the real store is closed by whoever opened it."""

    def __getattr__(self, name: str) -> Any:
        """The real store's attribute; before it opened, its method called late (a task submitted now
        runs after the store opened: the runner is held until then)."""
        real = self.__dict__.get("real")
        if real is not None:
            return getattr(real, name)

        def later(*args: Any, **kwargs: Any) -> Any:
            opened = self.__dict__.get("real")
            if opened is None:
                raise RuntimeError(f"the store is not open yet ({name} was called)")
            return getattr(opened, name)(*args, **kwargs)

        return later
