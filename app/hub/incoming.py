"""What a hub row brings into this machine (`hub pull`, Copy to this machine), checked where it enters.

A hub row was written by another role, perhaps a hostile one: it is input like a verdict or a typed edit
and meets the same rules before the local database is opened. The content is a memory's
(`app.core.text_input.content_problem`); hidden, bidi, tag or control characters are refused unless the
person allows them, with the review's own rule (`app.core.screening.hidden_problem`, `--allow-hidden`).
What the copy writes into the host's columns stays within what the host can hold: candidate ids are
positive 64-bit integers, and every value of a provenance entry the copy keeps is a 64-bit integer, a
finite number or storable text (hidden characters refused as in the content), in JSON with unique keys
and a verdict's nesting bound. What the copy leaves out anyway (items that are not ids, entries the host
cannot read) is no problem. The machine's name and the memory's id, which the copy records, are checked
as a typed `--machine` and a typed id are.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from app.core.errors import InvalidInputError
from app.core.provenance import host_can_read_entry
from app.core.screening import hidden_problem
from app.core.settings import machine_name_problem
from app.core.text_input import (
    MAX_JSON_DEPTH,
    DuplicateKeyError,
    content_problem,
    int64_problem,
    json_depth_ok,
    strict_json_loads,
    text_problem,
    tolerant_json_loads,
)
from app.present.card import shown_word
from app.store.write.synced import MachineMemory

SHOWN_PROBLEMS = 10  # a hostile row may hold thousands; the first ones say enough
LINE_CHARS = 200
ALLOW_HIDDEN = "`hub pull --allow-hidden` copies it anyway"


class _Checks:
    """The problems found, each naming where; whether any of them is hidden characters."""

    def __init__(self, allow_hidden: bool) -> None:
        self.allow_hidden = allow_hidden
        self.items: list[str] = []
        self.hidden = False

    def add(self, where: str, problem: str | None) -> None:
        if problem is not None:
            line = f"{where}: {problem}"  # a number past 64 bits may have thousands of digits
            self.items.append(line if len(line) <= LINE_CHARS else line[: LINE_CHARS - 1] + "…")

    def text(self, where: str, value: str, rule: Callable[[str], str | None] = text_problem) -> None:
        """`value` storable by `rule`, and without hidden characters unless they are allowed."""
        problem = rule(value)
        if problem is None and not self.allow_hidden:
            problem = hidden_problem(value)
            self.hidden = self.hidden or problem is not None
        self.add(where, problem)

    def whole_id(self, where: str, value: int) -> None:
        """A positive 64-bit integer, as a verdict's ids are."""
        if value <= 0:
            self.add(where, f"{value} is not an id (ids are positive integers)")
        else:
            self.add(where, int64_problem(value))

    def value(self, where: str, value: object) -> None:
        """Any JSON value the copy writes: integers within 64 bits, finite numbers, storable text."""
        if isinstance(value, bool) or value is None:
            return
        if isinstance(value, int):
            self.add(where, int64_problem(value))
        elif isinstance(value, float) and not math.isfinite(value):
            self.add(where, f"{value} is not a number JSON can hold")
        elif isinstance(value, str):
            self.text(where, value)
        elif isinstance(value, list):
            for index, item in enumerate(value):
                self.value(f"{where}[{index}]", item)
        elif isinstance(value, dict):
            for key, item in value.items():
                self.text(f"{where} (a key)", key)
                self.value(f"{where}.{shown_word(key)}", item)

    def message(self, memory: MachineMemory) -> str:
        more = len(self.items) - SHOWN_PROBLEMS
        lines = self.items[:SHOWN_PROBLEMS] + ([f"and {more:,} more"] if more > 0 else [])
        head = f"the hub's copy of {shown_word(memory.machine)} #{memory.memory_id} is refused"
        tail = f" ({ALLOW_HIDDEN})" if self.hidden else ""
        return "\n  - ".join([f"{head}; nothing was copied{tail}", *lines])


def _candidate_ids(checks: _Checks, raw: str | None) -> None:
    """The ids the copy keeps (every integer of the array; other items are left out)."""
    data = tolerant_json_loads(raw) if raw is not None else None
    for index, item in enumerate(data if isinstance(data, list) else ()):
        if isinstance(item, int) and not isinstance(item, bool):
            checks.whole_id(f"source_candidate_ids[{index}]", item)


def _provenance(checks: _Checks, raw: str | None) -> None:
    """Every value of the entries the copy keeps (those the host can read)."""
    if raw is None:
        return
    if not json_depth_ok(raw):
        checks.add("source_candidate_provenance", f"is nested more than {MAX_JSON_DEPTH} levels deep")
        return
    try:
        data = strict_json_loads(raw)
    except DuplicateKeyError as exc:
        checks.add("source_candidate_provenance", str(exc))
        return
    except ValueError:  # not JSON: the copy's provenance is unknown (NULL), nothing of it is written
        return
    for index, entry in enumerate(data if isinstance(data, list) else ()):
        if host_can_read_entry(entry):
            where = f"source_candidate_provenance[{index}]"
            checks.whole_id(f"{where}.candidate_id", entry["candidate_id"])
            checks.value(where, {key: item for key, item in entry.items() if key != "candidate_id"})


def check_memory(memory: MachineMemory, *, allow_hidden: bool = False) -> None:
    """Everything of `memory` a copy writes here, checked; InvalidInputError listing what is refused."""
    checks = _Checks(allow_hidden)
    checks.text("the machine's name", memory.machine, machine_name_problem)
    checks.whole_id("the memory's id", memory.memory_id)
    checks.text("the content", memory.content, content_problem)
    _candidate_ids(checks, memory.candidate_ids)
    _provenance(checks, memory.provenance)
    if checks.items:
        raise InvalidInputError(checks.message(memory))
