"""What a copy, an import or a restore writes into the host's row: checked with one set of rules.

`hub pull` (a hub row), `import` (an export file) and the trash's restore (a row a delete revision kept,
which an import may have brought) all write the host's columns from values another hand chose. Each
collects what is wrong in `Problems`, naming where: text storable (`app.core.text_input`) and, unless
allowed, without hidden characters (`app.core.screening`, as a verdict's content); ids positive 64-bit
integers; every value of a provenance entry the host can read a 64-bit integer, a finite number or
storable text, in JSON with unique keys and a verdict's nesting bound. `host_row_problems` is the whole
row as the host keeps it (its status one the host means, its times epoch milliseconds the readers show).
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from app.core.clock import TIME_MAX, TIME_MIN
from app.core.models import MemoryStatus
from app.core.provenance import host_can_read_entry
from app.core.screening import hidden_problem
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

# The statuses the host means: a row with any other is one the host never injects and the app shows as odd.
HOST_STATUSES = (MemoryStatus.ACTIVE, MemoryStatus.DISMISSED)
TIMES = "epoch milliseconds from 1970 to the end of year 3000"
_PLAIN_NAME = re.compile(r"[A-Za-z0-9_]{1,40}")


@dataclass(frozen=True, slots=True)
class Problem:
    where: str
    what: str
    hidden: bool  # hidden characters: what `--allow-hidden` lets in


def quoted(text: str, limit: int = 40) -> str:
    """A text from outside in a message: quoted, cut, every character past ASCII and every control as an
    escape (a bidi override or a terminal's ESC cannot reach the person's screen)."""
    return json.dumps(text[:limit]) + ("…" if len(text) > limit else "")


def _field_name(key: str) -> str:
    """A JSON key in a message: as it is when it is a plain name, else quoted."""
    return key if _PLAIN_NAME.fullmatch(key) else quoted(key)


class Problems:
    """The problems found, in order, each naming where."""

    def __init__(self, allow_hidden: bool) -> None:
        self.allow_hidden = allow_hidden
        self.items: list[Problem] = []

    @property
    def only_hidden(self) -> bool:
        """Whether `--allow-hidden` would let everything found in."""
        return bool(self.items) and all(item.hidden for item in self.items)

    def add(self, where: str, problem: str | None, *, hidden: bool = False) -> None:
        if problem is not None:
            self.items.append(Problem(where, problem, hidden))

    def text(self, where: str, value: str, rule: Callable[[str], str | None] = text_problem) -> None:
        """`value` storable by `rule`, and without hidden characters unless they are allowed."""
        problem = rule(value)
        if problem is not None:
            self.add(where, problem)
        elif not self.allow_hidden:
            self.add(where, hidden_problem(value), hidden=True)

    def whole_id(self, where: str, value: int) -> None:
        """A positive 64-bit integer, as a verdict's ids are."""
        if value <= 0:
            self.add(where, f"{value} is not an id (ids are positive integers)")
        else:
            self.add(where, int64_problem(value))

    def time(self, where: str, value: object) -> None:
        """Epoch milliseconds every reader can show."""
        if type(value) is not int:
            self.add(where, "is not a whole number")
        elif not TIME_MIN <= value <= TIME_MAX:
            self.add(where, f"is {value}, not {TIMES}")

    def value(self, where: str, value: object) -> None:
        """Any JSON value written: integers within 64 bits, finite numbers, storable text."""
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
                self.value(f"{where}.{_field_name(key)}", item)

    def provenance_entries(self, where: str, entries: object) -> None:
        """Every value of the entries the host can read (the others are no entry of its: left out)."""
        for index, entry in enumerate(entries if isinstance(entries, list) else ()):
            if host_can_read_entry(entry):
                self.whole_id(f"{where}[{index}].candidate_id", entry["candidate_id"])
                rest = {key: item for key, item in entry.items() if key != "candidate_id"}
                self.value(f"{where}[{index}]", rest)

    def provenance_json(self, where: str, raw: str | None, *, whole: bool = False) -> None:
        """A provenance column's JSON: unique keys, bounded nesting, then its entries; with `whole`, every
        value of it (what is written as it is), else those of the entries the host can read. Text that is
        no JSON is no problem unless `whole`: the host reads it as "unknown"."""
        if raw is None:
            return
        if not json_depth_ok(raw):
            self.add(where, f"is nested more than {MAX_JSON_DEPTH} levels deep")
            return
        try:
            data = strict_json_loads(raw)
        except DuplicateKeyError as exc:
            self.add(where, str(exc))
            return
        except ValueError:
            if whole:
                self.add(where, "is not JSON")
            return
        if whole:
            self.value(where, data)
        else:
            self.provenance_entries(where, data)

    def candidate_ids_json(self, where: str, raw: str | None, *, whole: bool = False) -> None:
        """A candidate-id column's JSON: every integer of the array an id; with `whole`, nothing but ids."""
        data = tolerant_json_loads(raw) if raw is not None else None
        if whole and not isinstance(data, list):
            self.add(where, "is not a JSON array of ids")
            return
        for index, item in enumerate(data if isinstance(data, list) else ()):
            if isinstance(item, int) and not isinstance(item, bool):
                self.whole_id(f"{where}[{index}]", item)
            elif whole:
                self.add(f"{where}[{index}]", "is not an id")


_ROW_TIMES = ("promoted_at", "created_at", "updated_at")


def host_row_problems(row: Mapping[str, object]) -> list[Problem]:
    """What keeps `row` (the host's columns but the id, as a delete revision keeps them) from being written
    back as it is: content by the content rules, a status the host means, times, ids and provenance JSON
    the host parses. Hidden characters are no problem here: the host held the row so."""
    problems = Problems(allow_hidden=True)
    content, status = row.get("content"), row.get("status")
    if isinstance(content, str):
        problems.text("content", content, content_problem)
    else:
        problems.add("content", "is not text")
    if status not in HOST_STATUSES:
        shown = quoted(status) if isinstance(status, str) else "not text"
        problems.add("status", f"is {shown}, not {' or '.join(HOST_STATUSES)}")
    for key in _ROW_TIMES:
        problems.time(key, row.get(key))
    ids, provenance = row.get("source_candidate_ids"), row.get("source_candidate_provenance")
    if isinstance(ids, str):
        problems.candidate_ids_json("source_candidate_ids", ids, whole=True)
    else:
        problems.add("source_candidate_ids", "is not text")
    if provenance is None or isinstance(provenance, str):
        problems.provenance_json("source_candidate_provenance", provenance, whole=True)
    else:
        problems.add("source_candidate_provenance", "is not text")
    return problems.items
