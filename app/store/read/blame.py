"""Blame: which revision put each sentence (or line) of a memory's text there in its current form.

The memory's revisions are walked oldest to newest; each text they leave is cut into units (sentences
within lines, `units`) and compared with the text before it (difflib, unit by unit, ignoring the
whitespace around a unit), so a unit keeps the revision that last introduced or changed it. Text the
dashboard had before its first record of the memory is attributed to "as first seen", never guessed.
A multi-line text is shown by line: a line dates from the newest of its sentences.

The evidence of a revision is its candidate ids with their words (`evidence_words`).
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from sqlalchemy import Connection

from app.core.clock import format_instant
from app.core.models import Revision, RevisionKind, RevisionSource
from app.store.read.reads import fetch_candidates

# A unit ends after sentence punctuation followed by white space, or with its line.
_SENTENCE_END = re.compile(r"(?<=[.!?…])\s+")
FIRST_SEEN = "first_seen"  # the `source` of text the dashboard found there when it first saw the memory


@dataclass(frozen=True, slots=True)
class Origin:
    """What introduced a unit: a revision, or (revision_id None) the text as first seen."""

    revision_id: int | None
    source: str  # a `RevisionSource` value, or FIRST_SEEN
    kind: str | None
    at: int | None  # the revision's instant; for FIRST_SEEN when the dashboard first saw it (None: unknown)
    run_id: str | None = None
    candidate_ids: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class BlameLine:
    text: str
    origin: Origin


@dataclass(frozen=True, slots=True)
class EvidenceWords:
    """What a candidate said, as far as the dashboard can still tell."""

    candidate_id: int
    content: str
    session_id: str


@dataclass(frozen=True, slots=True)
class Blame:
    memory_id: int
    lines: tuple[BlameLine, ...]
    evidence: Mapping[int, EvidenceWords]  # by candidate id; an id missing here has no words known

    def to_json(self) -> list[dict[str, object]]:
        return [
            {
                "text": line.text,
                "revision_id": line.origin.revision_id,
                "source": line.origin.source,
                "kind": line.origin.kind,
                "at": line.origin.at,
                "run_id": line.origin.run_id,
                "who": origin_label(line.origin),
                "candidate_ids": list(line.origin.candidate_ids),
                "evidence": [self.evidence_json(item) for item in line.origin.candidate_ids],
            }
            for line in self.lines
        ]

    def evidence_json(self, candidate_id: int) -> dict[str, object]:
        found = self.evidence.get(candidate_id)
        if found is None:
            return {"candidate_id": candidate_id, "content": None, "session_id": None}
        return {"candidate_id": candidate_id, "content": found.content, "session_id": found.session_id}


def evidence_words(conn: Connection, ids: Iterable[int]) -> dict[int, EvidenceWords]:
    """The words of candidates `ids`, by id. For now from the host's pool, which loses a candidate once it
    is consumed or pruned; this is the one place to read them from an archive of candidates instead."""
    return {
        candidate.id: EvidenceWords(candidate.id, candidate.content, candidate.session_id)
        for candidate in fetch_candidates(conn, ids)
    }


def units(text: str) -> list[str]:
    """`text` cut into sentences within lines; joined they give `text` back exactly."""
    found: list[str] = []
    for line in text.splitlines(keepends=True):
        start = 0
        for match in _SENTENCE_END.finditer(line):
            if match.end() < len(line):  # the white space ending a line stays with its last sentence
                found.append(line[start : match.end()])
                start = match.end()
        found.append(line[start:])
    return found


def _walk(current: list[tuple[str, Origin]], text: str, origin: Origin) -> list[tuple[str, Origin]]:
    """The units of `text`, each keeping its origin in `current` where it is unchanged, else `origin`."""
    new = units(text)
    old_keys = [unit.strip() for unit, _ in current]
    matcher = difflib.SequenceMatcher(None, old_keys, [unit.strip() for unit in new], autojunk=False)
    result: list[tuple[str, Origin]] = []
    for tag, i1, _i2, j1, j2 in matcher.get_opcodes():
        for offset, unit in enumerate(new[j1:j2]):
            result.append((unit, current[i1 + offset][1] if tag == "equal" else origin))
    return result


def _origin(revision: Revision) -> Origin:
    return Origin(
        revision.id,
        revision.source,
        revision.kind,
        revision.changed_at,
        revision.run_id,
        revision.candidate_ids,
    )


def _text_after(revision: Revision) -> str | None:
    if revision.kind == RevisionKind.DELETE:
        return None
    return revision.new_content if revision.new_content is not None else revision.previous_content


def blame_units(
    revisions: Sequence[Revision], current: str | None, first_seen_at: int | None
) -> list[tuple[str, Origin]]:
    """Each unit of the memory's text with its origin. `revisions` oldest first, with their texts;
    `current` the text the memory holds now (None: deleted, its last recorded text is blamed)."""
    baseline = Origin(None, FIRST_SEEN, None, first_seen_at)
    tracked: list[tuple[str, Origin]] = []
    started = False
    for revision in revisions:
        text = _text_after(revision)
        if text is None:
            continue
        if not started and revision.kind != RevisionKind.CREATE:
            # The dashboard's first record changed a text it had found there: that text is the baseline.
            before = revision.previous_content if revision.previous_content is not None else text
            tracked = [(unit, baseline) for unit in units(before)]
        started = True
        tracked = _walk(tracked, text, _origin(revision))
    if not started:
        tracked = [(unit, baseline) for unit in units(current or "")]
    elif current is not None and current != "".join(unit for unit, _ in tracked):
        # A change no revision records yet (a store told not to look): it dates from no known revision.
        tracked = _walk(tracked, current, baseline)
    return tracked


def by_line(tracked: Sequence[tuple[str, Origin]]) -> list[BlameLine]:
    """Sentences for a one-line text; lines for a multi-line one, each dated by its newest sentence."""
    text = "".join(unit for unit, _ in tracked)
    if "\n" not in text.rstrip("\n"):
        return [BlameLine(unit, origin) for unit, origin in tracked]
    lines: list[BlameLine] = []
    parts: list[str] = []
    newest: Origin | None = None
    for unit, origin in tracked:
        parts.append(unit)
        if newest is None or _newer(origin, newest):
            newest = origin
        if unit.endswith(("\n", "\r")):
            lines.append(BlameLine("".join(parts), newest))
            parts, newest = [], None
    if parts and newest is not None:
        lines.append(BlameLine("".join(parts), newest))
    return lines


def _newer(origin: Origin, than: Origin) -> bool:
    if origin.revision_id is None:
        return False
    if than.revision_id is None:
        return True
    return (origin.at or 0, abs(origin.revision_id)) > (than.at or 0, abs(than.revision_id))


def build_blame(
    memory_id: int,
    revisions: Sequence[Revision],
    current: str | None,
    first_seen_at: int | None,
    evidence: Mapping[int, EvidenceWords],
) -> Blame:
    return Blame(memory_id, tuple(by_line(blame_units(revisions, current, first_seen_at))), evidence)


def cited_ids(revisions: Sequence[Revision]) -> list[int]:
    return list(dict.fromkeys(item for revision in revisions for item in revision.candidate_ids))


_WHO: dict[str, str] = {
    RevisionSource.DASHBOARD: "dashboard edit",
    RevisionSource.REVIEW: "review run",
    RevisionSource.OBSERVED: "host (observed)",
    RevisionSource.RESTORE: "restore",
    RevisionSource.EXPIRY: "expiry",
}


def origin_label(origin: Origin) -> str:
    """Who, in words: `dashboard edit`, `review run run-7`, `host (observed)`, `as first seen on …`."""
    if origin.revision_id is None:
        return "as first seen" + (f" on {format_instant(origin.at)}" if origin.at is not None else "")
    who = _WHO.get(origin.source, origin.source)
    if origin.kind == RevisionKind.CREATE and origin.source == RevisionSource.DASHBOARD:
        who = "dashboard promotion"
    return f"{who} {origin.run_id}" if origin.run_id else who
