"""Blame: which revision put each sentence (or line) of a memory's text there in its current form.

The memory's revisions are walked oldest to newest; each text they leave is cut into units (sentences,
or lines for a text of several lines: `units`) and compared with the text before it (`app.diff.match`,
unit by unit, ignoring the white space around a unit), so a unit keeps the revision that last introduced
or changed it; a line dates from the newest of its sentences. Text the dashboard had before its first
record of the memory is attributed to "as first seen", never guessed.

The evidence of a revision is its candidate ids with what the archive keeps of them (`evidence_words`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from sqlalchemy import Connection

from app.core.models import Revision, RevisionKind
from app.core.models.blame import Blame, BlameLine, Origin
from app.core.models.evidence import Evidence
from app.core.models.memory import MERGED_FROM
from app.diff.match import opcodes
from app.store.read.reads import fetch_candidates

# Where a unit ends: after a sentence's punctuation and the blanks that follow it where more text follows
# on its line, or after a line feed (a text's end ends its last unit).
_UNIT_END = re.compile(r"[.!?…][^\S\n]+(?=\S)|\n")
FIRST_SEEN = "first_seen"  # the `source` of text the dashboard found there when it first saw the memory


def evidence_words(
    conn: Connection, ids: Sequence[int], archived: Mapping[int, Evidence]
) -> dict[int, Evidence]:
    """The evidence of candidates `ids`, by id: from the evidence archive (`archived`, which keeps it after
    the host consumes or prunes a candidate), else from the host's pool while the candidate is still there
    (a store whose archive table does not exist yet: never archived, `archived_at` None)."""
    words = {item: found for item in ids if (found := archived.get(item)) is not None}
    missing = [item for item in ids if item not in words]
    for candidate in fetch_candidates(conn, missing) if missing else ():
        words[candidate.id] = Evidence.of(candidate, None)
    return words


def sentences(text: str) -> list[str]:
    """`text` cut into sentences within lines; joined they give `text` back exactly."""
    found: list[str] = []
    start = 0
    for end in _UNIT_END.finditer(text):
        found.append(text[start : end.end()])
        start = end.end()
    if start < len(text):
        found.append(text[start:])
    return found


def lines(text: str) -> list[str]:
    """`text` cut after each line feed; joined they give `text` back exactly."""
    found = [line + "\n" for line in text.split("\n")]
    found[-1] = found[-1][:-1]
    return found if found[-1] else found[:-1]


def by_lines(text: str) -> bool:
    """Whether a text is blamed line by line (more than one line) rather than sentence by sentence."""
    return "\n" in text.rstrip("\n")


def units(text: str) -> list[str]:
    return lines(text) if by_lines(text) else sentences(text)


@dataclass(frozen=True, slots=True)
class Tracked:
    """A text's units, their keys (white space around them left out) and origins, side by side."""

    units: list[str]
    keys: list[str]
    origins: list[Origin]

    @classmethod
    def of(cls, units: list[str], origins: list[Origin]) -> Tracked:
        return cls(units, [unit.strip() for unit in units], origins)

    def pairs(self) -> list[tuple[str, Origin]]:
        return list(zip(self.units, self.origins, strict=True))


def _match(current: Tracked, new: list[str], origin: Origin) -> Tracked:
    """`new` units, each keeping its origin in `current` where it is unchanged, else `origin`."""
    matched = Tracked.of(new, [])
    origins = matched.origins
    for tag, i1, i2, j1, j2 in opcodes(current.keys, matched.keys):
        origins.extend(current.origins[i1:i2] if tag == "equal" else [origin] * (j2 - j1))
    return matched


def _walk(current: Tracked, was_by_lines: bool, text: str, origin: Origin) -> Tracked:
    """`current` (units of the text before) carried over to `text`. Line by line while both texts have
    several lines (a 64 KiB text cuts into lines at C speed); otherwise by sentence, a line's sentences
    inheriting its origin, and back into lines dated by their newest sentence where `text` has several."""
    if was_by_lines and by_lines(text):
        return _match(current, lines(text), origin)
    split = [(part, was) for unit, was in current.pairs() for part in sentences(unit)]
    matched = _match(
        Tracked.of([part for part, _ in split], [was for _, was in split]), sentences(text), origin
    )
    return _joined_lines(matched) if by_lines(text) else matched


def _joined_lines(tracked: Tracked) -> Tracked:
    units: list[str] = []
    origins: list[Origin] = []
    parts: list[str] = []
    newest: Origin | None = None
    for unit, origin in tracked.pairs():
        parts.append(unit)
        newest = origin if newest is None or _newer(origin, newest) else newest
        if unit.endswith("\n"):
            units.append("".join(parts))
            origins.append(newest)
            parts, newest = [], None
    if parts and newest is not None:
        units.append("".join(parts))
        origins.append(newest)
    return Tracked.of(units, origins)


def _newer(origin: Origin, than: Origin) -> bool:
    if origin.revision_id is None:
        return False
    if than.revision_id is None:
        return True
    return (origin.at or 0, abs(origin.revision_id)) > (than.at or 0, abs(than.revision_id))


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
    tracked = Tracked([], [], [])
    text: str | None = None
    for revision in revisions:
        after = _text_after(revision)
        if after is None or after == text:
            continue
        if text is None:
            # The first record: a creation, or a change to a text found there (the baseline).
            found = units(revision.previous_content or "") if revision.kind != RevisionKind.CREATE else []
            tracked = Tracked.of(found, [baseline] * len(found))
        if tracked.units:
            tracked = _walk(tracked, by_lines(text or ""), after, _origin(revision))
        else:  # nothing before it (a creation): every unit is this revision's
            found = units(after)
            tracked = Tracked.of(found, [_origin(revision)] * len(found))
        text = after
    if text is None:
        found = units(current or "")
        return Tracked.of(found, [baseline] * len(found)).pairs()
    if current is not None and current != text:
        # A change no revision records yet (a store told not to look): it dates from no known revision.
        tracked = _walk(tracked, by_lines(text), current, baseline)
    return tracked.pairs()


def build_blame(
    memory_id: int,
    revisions: Sequence[Revision],
    current: str | None,
    first_seen_at: int | None,
    evidence: Mapping[int, Evidence],
) -> Blame:
    merges = {rev.id: found for rev in revisions if (found := _merge_sources(rev)) is not None}
    lines_ = tuple(
        BlameLine(unit, _merged(unit, origin, merges))
        for unit, origin in blame_units(revisions, current, first_seen_at)
    )
    return Blame(memory_id, lines_, evidence)


def cited_ids(revisions: Sequence[Revision]) -> list[int]:
    return list(dict.fromkeys(item for revision in revisions for item in revision.candidate_ids))


MergeSources = dict[str, tuple[int, tuple[int, ...]]]


def _merge_sources(revision: Revision) -> MergeSources | None:
    """A merge's revision: each sentence it brought from another member, with that member and its
    candidates. Read leniently (the detail is ours, but the file is shared): what is odd is left out."""
    detail = revision.detail.get(MERGED_FROM)
    if not isinstance(detail, dict) or not isinstance(detail.get("sentences"), list):
        return None
    evidence = detail.get("candidates")
    evidence = evidence if isinstance(evidence, dict) else {}
    found: MergeSources = {}
    for item in detail["sentences"]:
        if isinstance(item, list) and len(item) == 2 and isinstance(item[0], str) and type(item[1]) is int:
            ids = evidence.get(str(item[1]))
            cited = tuple(i for i in ids if type(i) is int) if isinstance(ids, list) else ()
            found.setdefault(item[0].strip(), (item[1], cited))
    return found


def _merged(unit: str, origin: Origin, merges: Mapping[int, MergeSources]) -> Origin:
    """`origin`, naming the member a merge brought `unit` from (and that member's evidence)."""
    sources = merges.get(origin.revision_id) if origin.revision_id is not None else None
    found = sources.get(unit.strip()) if sources else None
    if found is None:
        return origin
    return replace(origin, merged_from=found[0], candidate_ids=found[1] or origin.candidate_ids)
