"""Commands on the status and expiry of one memory or many: dismiss, reactivate, set or clear the expiry.

One id answers as the store's writer does (the memory); many answer with the ids that changed. Each keeps
every changed memory's status and expiry before and after (not its text, which they do not change); an
undo puts them back in one write (`MemoryStore.put_back`), refused if one changed since. An expiry put
back that has passed leaves the memory dismissed, as the sweep leaves any expired memory.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, ClassVar

from app.commands.base import MemoryChange
from app.commands.state import changes_between, states
from app.core.models import KEEP, Memory

if TYPE_CHECKING:
    from app.store import MemoryStore

Result = Memory | list[int]


class _StatusChange(MemoryChange[Result]):
    text: ClassVar[bool] = False

    def __init__(self, memory_ids: int | Sequence[int]) -> None:
        super().__init__()
        self.asked = memory_ids
        self.ids = [memory_ids] if isinstance(memory_ids, int) else list(dict.fromkeys(memory_ids))

    def _around(self, store: MemoryStore, write: Callable[[], Result]) -> Result:
        before = states(store, self.ids, text=False)
        result = write()
        self.changes = changes_between(self.ids, before, states(store, self.ids, text=False))
        return result


class Dismiss(_StatusChange):
    kind: ClassVar[str] = "dismiss"
    verb = "dismissed"

    def __init__(
        self, memory_ids: int | Sequence[int], reason: str | None = None, *, retire: str = ""
    ) -> None:
        super().__init__(memory_ids)
        self.reason, self.retire = reason, retire

    def do(self, store: MemoryStore) -> Result:
        return self._around(store, lambda: store.dismiss(self.asked, self.reason))

    def label(self) -> str:
        return f"dismiss of {self.what()}" + (f" (retire {self.retire})" if self.retire else "")


class Reactivate(_StatusChange):
    kind: ClassVar[str] = "reactivate"
    verb = "reactivated"

    def __init__(self, memory_ids: int | Sequence[int], new_expiry: int | object | None = KEEP) -> None:
        super().__init__(memory_ids)
        self.new_expiry = new_expiry

    def do(self, store: MemoryStore) -> Result:
        return self._around(store, lambda: store.reactivate(self.asked, self.new_expiry))

    def label(self) -> str:
        return f"reactivate of {self.what()}"


class SetExpiry(_StatusChange):
    kind: ClassVar[str] = "expiry"
    verb = "given its expiry"

    def __init__(self, memory_ids: int | Sequence[int], expires_at: int | None) -> None:
        super().__init__(memory_ids)
        self.expires_at = expires_at

    def do(self, store: MemoryStore) -> Result:
        return self._around(store, lambda: store.set_expiry(self.asked, self.expires_at))

    def label(self) -> str:
        return f"expiry change of {self.what()}"
