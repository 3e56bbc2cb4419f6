"""Reading the hub's project memories back (`hub list --kind project`): every value checked where it enters.

A hub row was written by another role, perhaps a hostile one (anyone who publishes may write any value
into its own rows), so each row meets the rules an import's project memory meets
(`app.transfer.project_format.read_project_memory`, with the hub's own additions of
`app.hub.incoming.HubProblems`: no line or paragraph separator), its machine's name the rules of a typed
`--machine`, and what the publishing reader noted (`oddities`) the rules of storable text. A project path
that was not UTF-8 where it was published (its bytes in `project_path_hex`) is shown as what it is, the
path with U+FFFD and its bytes, when those are the hex of a path's bytes. A row that
fails is listed as refused, with why, never hidden and never shown as if it were sound: its texts are
shown only escaped and cut (`app.present.card.shown_word`).
"""

from __future__ import annotations

import re
from contextlib import closing
from dataclasses import dataclass
from typing import Any

import psycopg

from app.core.hub_layout import PROJECT_MEMORIES
from app.core.project_values import MAX_PROJECT_PATH_CHARS
from app.core.settings import machine_name_problem
from app.hub.connect import HubError, connect_hub, hub_location
from app.hub.incoming import HubProblems
from app.hub.project_publish import PROJECT_COLUMNS
from app.hub.schema.tables import require_schema
from app.present.card import shown_word
from app.store.connect.server import unreachable_message
from app.transfer.fields import ExportError
from app.transfer.project_format import ExportedProjectMemory, read_project_memory

HIDDEN_HINT = "(hidden characters: shown escaped, never taken as they are)"
SHOWN_CHARS = 200  # a refused row's texts, in a message: a hostile row may hold megabytes

_HEX = re.compile(r"(?:[0-9a-f]{2})+")
_MAX_HEX = MAX_PROJECT_PATH_CHARS * 4 * 2  # a UTF-8 character is at most 4 bytes; 2 digits a byte
_SELECT = f"SELECT machine, {', '.join(PROJECT_COLUMNS)} FROM {PROJECT_MEMORIES}"
_ORDER = " ORDER BY machine, project_path, memory_id"


@dataclass(frozen=True, slots=True)
class HubProjectMemory:
    """One row of the hub's project memories as this role reads it: the memory when every value passed,
    else why it is refused (its machine, id and texts then only to be shown escaped)."""

    machine: str
    memory_id: int
    project_path: str
    content: str
    status: str
    memory: ExportedProjectMemory | None
    oddities: str | None
    refused: str | None
    path_bytes: str | None = None  # a project path that was not UTF-8: its bytes, in hex

    @property
    def project_shown(self) -> str:
        """The project's identity on one line, hidden characters visible; a path that was not UTF-8
        said so, with its bytes."""
        shown = shown_word(self.project_path, SHOWN_CHARS)
        if self.path_bytes is None:
            return shown
        return f"{shown} (not UTF-8: bytes {shown_word(self.path_bytes, SHOWN_CHARS)})"

    def to_json(self) -> dict[str, Any]:
        head: dict[str, Any] = {"machine": self.machine, "memory_id": self.memory_id}
        if self.memory is None or self.refused is not None:
            shown = {
                "project_path": self.project_shown,
                "content": shown_word(self.content, SHOWN_CHARS),
                "status": shown_word(self.status, SHOWN_CHARS),
            }
            return {**head, **shown, "refused": self.refused}
        memory = self.memory
        fields = {name: getattr(memory, name) for name in ExportedProjectMemory.__dataclass_fields__}
        fields.pop("problem")
        fields["notes"] = list(memory.notes)
        fields["merged_from"] = None if memory.merged_from is None else list(memory.merged_from)
        return {**head, **fields, "oddities": self.oddities, "refused": None, "path_bytes": self.path_bytes}


def _hex_problem(raw: str) -> str | None:
    """A path's bytes as the publish writes them: pairs of lowercase hex digits, of a bounded path."""
    if len(raw) > _MAX_HEX or not _HEX.fullmatch(raw):
        return f"is not the hex of a path's bytes (at most {MAX_PROJECT_PATH_CHARS * 4:,} bytes)"
    return None


def _refusal(problems: HubProblems) -> str | None:
    return "; ".join(f"{item.where} {item.what}" for item in problems.items) or None


def checked_row(raw: tuple[Any, ...]) -> HubProjectMemory:
    """A hub row (`machine`, then `PROJECT_COLUMNS`) read and checked."""
    machine, *values = raw
    data = dict(zip(PROJECT_COLUMNS, values, strict=True))
    memory_id = int(data["memory_id"])
    data["id"] = data.pop("memory_id")
    oddities, path_bytes = data.pop("oddities"), data.pop("project_path_hex")
    own = HubProblems(allow_hidden=False)
    own.text("its machine's name", str(machine), machine_name_problem)
    if path_bytes is not None:  # a path not UTF-8 is shown as what it is; no hex but a path's is taken
        own.add("its project_path_hex", _hex_problem(str(path_bytes)))
    if oddities is not None:
        own.text("its oddities", str(oddities))
    path = f"#{memory_id}"
    memory: ExportedProjectMemory | None
    try:
        memory = read_project_memory(
            data, path, False, checks=HubProblems, hint=HIDDEN_HINT, consequence="it is refused"
        )
        refused = "; ".join(why for why in (_refusal(own), memory.problem) if why) or None
    except ExportError as exc:
        memory, refused = None, "; ".join(why for why in (_refusal(own), str(exc)) if why)
    return HubProjectMemory(
        machine=str(machine),
        memory_id=memory_id,
        project_path=str(data["project_path"]),
        content=str(data["content"]),
        status=str(data["status"]),
        memory=memory,
        oddities=None if oddities is None else str(oddities),
        refused=refused,
        path_bytes=None if path_bytes is None else str(path_bytes),
    )


def hub_project_memories(
    url: str, *, machine: str | None = None, project: str | None = None
) -> list[HubProjectMemory]:
    """The project memories this role published to the hub at `url` (of `machine`, of the project whose
    identity is `project`, where given), each checked, by machine, project and id."""
    location = hub_location(url)
    where, params = [], []
    for column, value in (("machine", machine), ("project_path", project)):
        if value is not None:
            where.append(f"{column} = %s")
            params.append(value)
    query = _SELECT + (f" WHERE {' AND '.join(where)}" if where else "") + _ORDER
    with closing(connect_hub(url)) as hub:
        try:
            require_schema(hub, location)
            rows = hub.execute(query, params).fetchall()
        except psycopg.Error as exc:
            raise HubError(unreachable_message(location, exc)) from exc
    return [checked_row(tuple(row)) for row in rows]
