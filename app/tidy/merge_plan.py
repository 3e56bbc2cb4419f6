"""A merge's preview, before anything is written: which memory is kept, the first draft of the merged
text, the evidence of every member in promotion order, and what each member becomes.

The draft joins the members' distinct sentences: a sentence that an earlier member already says (the
same words once case, spacing, punctuation and plurals are set aside: `app.tidy.words`) is not said
twice. Which member each sentence of a text came from (`sentence_sources`) is what the kept memory's
revision keeps, so blame can say "merged from #7" of a sentence. Pure: the same for user and project
memories, no database here.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from app.core.errors import InvalidInputError
from app.store.past.blame import lines, sentences
from app.tidy.words import normal_form, words

_ENDS = (".", "!", "?", "…", ":", ";")
KEPT, ABSORBED = "kept", "absorbed"


@dataclass(frozen=True, slots=True)
class MergeMember:
    """One memory to merge, as the preview shows it: its text, its evidence, when it was promoted."""

    id: int
    text: str
    promoted_at: int
    candidate_ids: tuple[int, ...] = ()
    sources: tuple[str, ...] = ()  # where its evidence came from (sessions), for the preview


@dataclass(frozen=True, slots=True)
class MergePlan:
    """The preview: `members` in promotion order, the one `kept`, the draft text and its sentences'
    members, the evidence union (candidate ids, in promotion order, each once)."""

    kept: int
    members: tuple[MergeMember, ...]
    draft: str
    candidate_ids: tuple[int, ...]
    sources: tuple[str, ...]
    origins: tuple[tuple[str, int], ...] = field(default=())

    @property
    def absorbed(self) -> tuple[int, ...]:
        return tuple(member.id for member in self.members if member.id != self.kept)

    def becomes(self, member_id: int, *, project: bool = False) -> str:
        """What a member becomes, in words."""
        if member_id == self.kept:
            return "kept: gets the merged text and every member's evidence"
        if project:
            return f"archived, superseded by #{self.kept}"
        return f"dismissed, merged into #{self.kept}"

    def to_json(self, content: str, *, project: bool = False) -> dict[str, Any]:
        return {
            "kept": self.kept,
            "content": content,
            "draft": self.draft,
            "candidate_ids": list(self.candidate_ids),
            "sources": list(self.sources),
            "members": [
                {
                    "id": member.id,
                    "content": member.text,
                    "candidate_ids": list(member.candidate_ids),
                    "becomes": KEPT if member.id == self.kept else ABSORBED,
                    "what": self.becomes(member.id, project=project),
                }
                for member in self.members
            ],
        }


def _units(text: str) -> list[str]:
    """A member's sentences, each stripped; one per line for a text of several lines."""
    return [part.strip() for line in lines(text) for part in sentences(line) if part.strip()]


def sentence_key(sentence: str) -> tuple[str, ...]:
    """What two sentences share when they say the same: their words, normalised."""
    return tuple(words(normal_form(sentence)))


def draft_text(members: Sequence[MergeMember]) -> tuple[str, tuple[tuple[str, int], ...]]:
    """The members' distinct sentences joined, in promotion order, and the member each came from."""
    seen: set[tuple[str, ...]] = set()
    kept: list[tuple[str, int]] = []
    for member in members:
        for unit in _units(member.text):
            key = sentence_key(unit)
            if key in seen:
                continue
            seen.add(key)
            kept.append((unit, member.id))
    several_lines = any("\n" in member.text.strip() for member in members)
    joined: list[str] = []
    for index, (unit, _) in enumerate(kept):
        last = index == len(kept) - 1
        # A sentence that ends without punctuation gets a full stop, so it stays a sentence of its own.
        joined.append(unit if last or several_lines or unit.endswith(_ENDS) else unit + ".")
    return ("\n" if several_lines else " ").join(joined), tuple(kept)


def sentence_sources(text: str, members: Sequence[MergeMember], kept: int) -> list[tuple[str, int]]:
    """Each sentence of `text` (what the person applies) that another member than `kept` says, with that
    member: the first, in promotion order, that says it. The kept memory's own sentences and new ones
    are left out (blame dates them from the merge itself)."""
    said: dict[tuple[str, ...], int] = {}
    for one in members:
        for unit in _units(one.text):
            said.setdefault(sentence_key(unit), one.id)
    own = {sentence_key(unit) for one in members if one.id == kept for unit in _units(one.text)}
    found: list[tuple[str, int]] = []
    for unit in _units(text):
        key = sentence_key(unit)
        member = said.get(key)
        if member is not None and member != kept and key not in own:
            found.append((unit, member))
    return found


def plan_merge(members: Sequence[MergeMember], into: int | None = None) -> MergePlan:
    """The preview of merging `members` (two or more, any order) into `into` (default: the oldest)."""
    ordered = tuple(sorted(dict((m.id, m) for m in members).values(), key=lambda m: (m.promoted_at, m.id)))
    if len(ordered) < 2:
        raise InvalidInputError("a merge needs at least two different memories; nothing was changed")
    ids = [member.id for member in ordered]
    kept = ids[0] if into is None else into
    if kept not in ids:
        raise InvalidInputError(f"the memory to keep, #{kept}, is not one of those merged ({_ids(ids)})")
    draft, origins = draft_text(ordered)
    candidates = tuple(dict.fromkeys(i for member in ordered for i in member.candidate_ids))
    sources = tuple(dict.fromkeys(s for member in ordered for s in member.sources))
    return MergePlan(kept, ordered, draft, candidates, sources, origins)


def _ids(ids: Sequence[int]) -> str:
    return ", ".join(f"#{item}" for item in ids)
