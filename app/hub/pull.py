"""`hub pull` ("Copy to this machine"): another machine's memory from the hub into the local store.

The hub is read first (a hub that is down leaves the local store unopened); the copy is the store's own
write (`MemoryStore.copy_from_machine`): a manual promotion with provenance origin `sync` naming the
source machine. Nothing is written to the hub or to the other machine. The row read is checked
(`app.hub.incoming`) before the local store is opened: hidden characters are refused unless allowed. A
database that is not a hub set up by `hub setup` is a message naming it (exit 3), as everywhere.
"""

from __future__ import annotations

from contextlib import AbstractContextManager, closing
from typing import Any

import psycopg

from app.commands.presence import CopyFromMachine
from app.commands.runner import execute
from app.core.errors import NotFoundError
from app.core.hub_layout import MEMORIES
from app.core.models import Memory
from app.hub.connect import HubError, connect_hub, hub_location
from app.hub.incoming import check_memory
from app.hub.schema.tables import require_schema
from app.hub.words import machine_name
from app.store.connect.server import unreachable_message
from app.store.store import MemoryStore
from app.store.write.synced import MachineMemory

_ROW = (
    f"SELECT content, source_candidate_ids, source_candidate_provenance FROM {MEMORIES}"
    " WHERE machine = %s AND memory_id = %s"
)


def machine_memory(url: str, machine: str, memory_id: int) -> MachineMemory:
    """The memory `memory_id` of `machine` as this role sees it in the hub; `NotFoundError` if none."""
    location = hub_location(url)
    with closing(connect_hub(url)) as hub:
        try:
            require_schema(hub, location)
            row = hub.execute(_ROW, (machine, memory_id)).fetchone()
        except psycopg.Error as exc:
            raise HubError(unreachable_message(location, exc)) from exc
    if row is None:
        raise NotFoundError(f"the hub holds no memory #{memory_id} of machine '{machine_name(machine)}'")
    return MachineMemory(machine, memory_id, str(row[0]), row[1], row[2])


def pull(
    store_opener: Any,
    url: str,
    machine: str,
    memory_id: int,
    origin: str = "cli",
    *,
    allow_hidden: bool = False,
) -> Memory:
    """Copy memory `memory_id` of `machine` into the store `store_opener()` opens for writing, as a
    command of the log (`app.commands`: `undo` deletes the copy); `origin` is where it was asked;
    `allow_hidden`: content with hidden characters too (`InvalidInputError` otherwise)."""
    memory = machine_memory(url, machine, memory_id)
    check_memory(memory, allow_hidden=allow_hidden)
    opened: AbstractContextManager[MemoryStore] = store_opener()
    with opened as store:
        return execute(store, CopyFromMachine(memory), origin)
