"""The reviewer's verdict: strict parsing, then the checks that need the database.

The verdict JSON is the host's: `promote` [{content, candidate_ids}], `update_existing`
[{memory_id, content, candidate_ids}], `dismiss_existing` [{memory_id, reason}] and
`consume_candidate_ids` [ids]. `parse_verdict` checks everything the JSON alone can tell (shapes, ids,
duplicates, content); `check_against_database` takes the sets of existing memory ids and pending candidate
ids. Both collect every problem, each naming its entry (`update_existing[2].candidate_ids[1]: ...`),
and raise one `VerdictError`.

As lenient as the host's own review where leniency loses nothing, strict where a mistake would lose or
corrupt data. Lenient, each noted in `Verdict.notes` (the run's output and record list them): an unknown key
inside an entry (a `reason` on an update) is ignored; an update without `candidate_ids` applies with no
new evidence; a candidate an action uses but `consume_candidate_ids` leaves out is consumed anyway (the host
does); `fit_to_database` skips unknown memories and candidates no longer in the pool (an update skipped
keeps its candidates in the pool). Strict, rejected whole: an unknown top-level key (a misspelt
`update_existing` ignored would consume its candidates without the rewrite), a verdict that contradicts
itself (a memory updated and dismissed, a candidate used twice), duplicate keys (JSON keeps the last, which
would drop the other value silently), nesting beyond what a verdict needs, ids outside 64 bits and text
that could not be stored and shown again (lone surrogates, non-characters: `app.core.text_input`, the one
rule for text entering the store). Every check is linear in the verdict's size.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from app.core.screening import hidden_problem
from app.core.text_input import (
    DuplicateKeyError,
    content_problem,
    int64_problem,
    strict_json_loads,
    text_problem,
)
from app.review.errors import VerdictError

TOP_KEYS = ("promote", "update_existing", "dismiss_existing", "consume_candidate_ids")


@dataclass(frozen=True, slots=True)
class Promotion:
    content: str
    candidate_ids: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Update:
    memory_id: int
    content: str
    candidate_ids: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Dismissal:
    memory_id: int
    reason: str | None


@dataclass(frozen=True, slots=True)
class Verdict:
    promote: tuple[Promotion, ...] = ()
    update_existing: tuple[Update, ...] = ()
    dismiss_existing: tuple[Dismissal, ...] = ()
    consume_candidate_ids: tuple[int, ...] = ()
    notes: tuple[str, ...] = ()  # what leniency ignored, added or skipped, one line each

    def memory_ids(self) -> list[int]:
        """Every memory the verdict names (updated or dismissed)."""
        return [u.memory_id for u in self.update_existing] + [d.memory_id for d in self.dismiss_existing]

    def candidate_ids(self) -> list[int]:
        """Every candidate the verdict names, actions first, without repeats."""
        named = [i for p in self.promote for i in p.candidate_ids]
        named += [i for u in self.update_existing for i in u.candidate_ids]
        return list(dict.fromkeys([*named, *self.consume_candidate_ids]))

    def to_json(self) -> dict[str, Any]:
        return {
            "promote": [{"content": p.content, "candidate_ids": list(p.candidate_ids)} for p in self.promote],
            "update_existing": [
                {"memory_id": u.memory_id, "content": u.content, "candidate_ids": list(u.candidate_ids)}
                for u in self.update_existing
            ],
            "dismiss_existing": [
                {"memory_id": d.memory_id, "reason": d.reason} for d in self.dismiss_existing
            ],
            "consume_candidate_ids": list(self.consume_candidate_ids),
        }


@dataclass
class _Problems:
    """Collects every problem so one rejection lists them all (and, in `notes`, what leniency let pass)."""

    items: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def add(self, where: str, message: str) -> None:
        self.items.append(_printable(f"{where}: {message}"))

    def note(self, where: str, message: str) -> None:
        self.notes.append(_printable(f"{where}: {message}"))

    def raise_if_any(self) -> None:
        if self.items:
            raise VerdictError(self.items)


def _printable(line: str) -> str:
    """A key or value quoted in a message may hold a lone surrogate: keep the message printable."""
    return line.encode("utf-8", "backslashreplace").decode("utf-8")


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _describe(value: object) -> str:
    text = json.dumps(value, ensure_ascii=True) if _jsonable(value) else repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _jsonable(value: object) -> bool:
    try:
        json.dumps(value)
    except (TypeError, ValueError):
        return False
    return True


def _positive_id(value: object, where: str, problems: _Problems) -> int | None:
    if not _is_int(value):
        problems.add(where, f"{_describe(value)} is not an id (ids are positive integers)")
        return None
    assert isinstance(value, int)
    if value <= 0:
        problems.add(where, f"{value} is not an id (ids are positive integers)")
        return None
    out_of_range = int64_problem(value)
    if out_of_range is not None:
        problems.add(where, f"{out_of_range}; not an id")
        return None
    return value


def _id_list(value: object, where: str, problems: _Problems) -> tuple[int, ...]:
    if not isinstance(value, list):
        problems.add(where, f"must be a list of ids, not {_describe(value)}")
        return ()
    ids: dict[int, None] = {}  # ordered, with a constant-time membership test (100,000 ids stay linear)
    for index, item in enumerate(value):
        parsed = _positive_id(item, f"{where}[{index}]", problems)
        if parsed is None:
            continue
        if parsed in ids:
            problems.add(f"{where}[{index}]", f"#{parsed} is listed twice")
            continue
        ids[parsed] = None
    return tuple(ids)


def _check_content(value: object, where: str, problems: _Problems, *, allow_hidden: bool) -> str:
    if not isinstance(value, str):
        problems.add(where, f"must be a string, not {_describe(value)}")
        return ""
    problem = content_problem(value)
    if problem is not None:
        problems.add(where, problem)
        return value
    hidden = None if allow_hidden else hidden_problem(value)
    if hidden is not None:
        problems.add(where, hidden)
    return value


def _entry(
    value: object, where: str, required: Sequence[str], optional: Sequence[str], problems: _Problems
) -> Mapping[str, Any] | None:
    if not isinstance(value, dict):
        problems.add(where, f"must be an object, not {_describe(value)}")
        return None
    for key in required:
        if key not in value:
            problems.add(where, f"lacks {key!r}")
    for key in value:
        if key not in required and key not in optional:
            problems.note(f"{where}.{key}", "is not a verdict field; ignored")
    if any(key not in value for key in required):
        return None
    return value


def _entries(data: Mapping[str, Any], key: str, problems: _Problems) -> Iterator[tuple[str, object]]:
    value = data.get(key, [])
    if not isinstance(value, list):
        problems.add(key, f"must be a list, not {_describe(value)}")
        return
    for index, item in enumerate(value):
        yield f"{key}[{index}]", item


def _promotions(data: Mapping[str, Any], problems: _Problems, allow_hidden: bool) -> list[Promotion]:
    found = []
    for where, raw in _entries(data, "promote", problems):
        entry = _entry(raw, where, ("content", "candidate_ids"), (), problems)
        if entry is None:
            continue
        content = _check_content(entry["content"], f"{where}.content", problems, allow_hidden=allow_hidden)
        ids = _id_list(entry["candidate_ids"], f"{where}.candidate_ids", problems)
        if isinstance(entry["candidate_ids"], list) and not entry["candidate_ids"]:
            problems.add(f"{where}.candidate_ids", "is empty; a promotion needs its candidates")
        found.append(Promotion(content, ids))
    return found


def _updates(data: Mapping[str, Any], problems: _Problems, allow_hidden: bool) -> list[Update]:
    found = []
    for where, raw in _entries(data, "update_existing", problems):
        entry = _entry(raw, where, ("memory_id", "content"), ("candidate_ids",), problems)
        if entry is None:
            continue
        memory_id = _positive_id(entry["memory_id"], f"{where}.memory_id", problems)
        content = _check_content(entry["content"], f"{where}.content", problems, allow_hidden=allow_hidden)
        if "candidate_ids" in entry:
            ids = _id_list(entry["candidate_ids"], f"{where}.candidate_ids", problems)
        else:
            ids = ()
            problems.note(where, "names no candidate_ids; applied with no new evidence")
        if memory_id is not None:
            found.append(Update(memory_id, content, ids))
    return found


def _dismissals(data: Mapping[str, Any], problems: _Problems) -> list[Dismissal]:
    found = []
    for where, raw in _entries(data, "dismiss_existing", problems):
        entry = _entry(raw, where, ("memory_id",), ("reason",), problems)
        if entry is None:
            continue
        memory_id = _positive_id(entry["memory_id"], f"{where}.memory_id", problems)
        reason = entry.get("reason")
        if reason is not None and not isinstance(reason, str):
            problems.add(f"{where}.reason", f"must be a string, not {_describe(reason)}")
            reason = None
        elif reason is not None and (bad := text_problem(reason)) is not None:
            problems.add(f"{where}.reason", bad)
            reason = None
        if memory_id is not None:
            found.append(Dismissal(memory_id, (reason.strip() or None) if reason else None))
    return found


def _action_lists(verdict: Verdict) -> list[tuple[str, tuple[int, ...]]]:
    """`(where, candidate_ids)` of every promotion and update, in the verdict's order."""
    actions = [(f"promote[{i}]", p.candidate_ids) for i, p in enumerate(verdict.promote)]
    return actions + [
        (f"update_existing[{i}]", u.candidate_ids) for i, u in enumerate(verdict.update_existing)
    ]


def _cross_checks(verdict: Verdict, problems: _Problems) -> Verdict:
    """Rules across entries: one action per candidate and per memory. A used candidate that
    `consume_candidate_ids` leaves out is added to it (the host consumes it too), and noted."""
    used: dict[int, str] = {}
    consumed = dict.fromkeys(verdict.consume_candidate_ids)
    for where, ids in _action_lists(verdict):
        for index, cid in enumerate(ids):
            spot = f"{where}.candidate_ids[{index}]"
            if cid in used:
                problems.add(spot, f"candidate #{cid} is already used by {used[cid]}")
            else:
                used[cid] = where
            if cid not in consumed:
                consumed[cid] = None
                problems.note(
                    spot, f"candidate #{cid} is missing from consume_candidate_ids; consumed anyway"
                )
    _one_action_per_memory(verdict, problems)
    return replace(verdict, consume_candidate_ids=tuple(consumed))


def _one_action_per_memory(verdict: Verdict, problems: _Problems) -> None:
    updated: dict[int, str] = {}
    for index, update in enumerate(verdict.update_existing):
        where = f"update_existing[{index}].memory_id"
        if update.memory_id in updated:
            problems.add(
                where, f"memory #{update.memory_id} is already updated by {updated[update.memory_id]}"
            )
        updated.setdefault(update.memory_id, f"update_existing[{index}]")
    dismissed: set[int] = set()
    for index, dismissal in enumerate(verdict.dismiss_existing):
        where = f"dismiss_existing[{index}].memory_id"
        if dismissal.memory_id in updated:
            problems.add(
                where,
                f"memory #{dismissal.memory_id} is both dismissed and updated "
                f"({updated[dismissal.memory_id]})",
            )
        elif dismissal.memory_id in dismissed:
            problems.add(where, f"memory #{dismissal.memory_id} is dismissed twice")
        dismissed.add(dismissal.memory_id)


def _bounded_int(digits: str) -> int | float:
    """A JSON integer; one too long for 64 bits stays a float (reported as not an id), so Python's
    4,300-digit limit on int() never turns a hostile number into a traceback."""
    return int(digits) if len(digits) <= 20 else float(digits)


def load_json(text: str | bytes) -> object:
    """The verdict's JSON document; a syntax error is a VerdictError naming line and column."""
    try:
        return strict_json_loads(text, parse_int=_bounded_int)
    except json.JSONDecodeError as exc:
        raise VerdictError([f"not valid JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}"]) from exc
    except UnicodeDecodeError as exc:
        raise VerdictError([f"not UTF-8 text: {exc.reason}"]) from exc
    except DuplicateKeyError as exc:
        raise VerdictError([f"{exc}; which one was meant cannot be told"]) from exc
    except (ValueError, RecursionError) as exc:
        raise VerdictError([f"not a verdict: {exc}"]) from exc


def parse_verdict(data: object, *, allow_hidden: bool = False) -> Verdict:
    """A Verdict from JSON text or an already-decoded document; every problem found is reported at once."""
    document = load_json(data) if isinstance(data, str | bytes) else data
    problems = _Problems()
    if not isinstance(document, dict):
        raise VerdictError([f"verdict: must be a JSON object, not {_describe(document)}"])
    for key in document:
        if key not in TOP_KEYS:
            problems.add(str(key), f"is not a verdict field (expected {', '.join(TOP_KEYS)})")
    verdict = Verdict(
        promote=tuple(_promotions(document, problems, allow_hidden)),
        update_existing=tuple(_updates(document, problems, allow_hidden)),
        dismiss_existing=tuple(_dismissals(document, problems)),
        consume_candidate_ids=_id_list(
            document.get("consume_candidate_ids", []), "consume_candidate_ids", problems
        ),
    )
    verdict = _cross_checks(verdict, problems)
    problems.raise_if_any()
    return replace(verdict, notes=tuple(problems.notes))
