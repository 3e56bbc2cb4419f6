"""The hub's memories grouped into cards: one card per memory across machines. Pure: no database here.

The rule. Two machines' memories are one card when
- their content is the same text (byte for byte), or
- one is a copy of the other: "Copy to this machine" (`hub pull`) names its source in the copy's
  provenance entries (`synced_from`, `synced_memory_id`) and in its `create` revision's detail
  (`copied_from`, `copied_memory_id`); the hub keeps both, so the link survives a later edit on either
  machine, and a copy of a copy joins the same card.
Cards are the connected groups of those links (union-find), so "same content" and "same origin" chain.
A card whose copies hold more than one text "differs": its versions are diffed in the window.

Cards are listed most recently updated first (the newest copy's `updated_at`), ties by their first
machine and id; texts are read a page of cards at a time, in that order (`app.hub.browse`).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from app.core.models import MemoryStatus
from app.core.text_input import tolerant_json_loads

Key = tuple[str, int]  # (machine, that machine's memory id)
ACTIVE = str(MemoryStatus.ACTIVE)
DISMISSED = str(MemoryStatus.DISMISSED)
DISMISS_REQUESTED = "dismiss requested"


@dataclass(frozen=True, slots=True)
class MachineCopy:
    """One machine's memory as the hub holds it; `content` is None until its card's page is read."""

    machine: str
    memory_id: int
    status: str
    updated_at: int
    digest: str  # of the content: equal digests, the same text
    dismiss_pending: bool = False
    content: str | None = None

    @property
    def key(self) -> Key:
        return (self.machine, self.memory_id)

    @property
    def shown_status(self) -> str:
        """The status as a card shows it: a dismissal queued from the hub and not applied yet says so."""
        if self.dismiss_pending and self.status != DISMISSED:
            return f"{self.status}, {DISMISS_REQUESTED}"
        return self.status

    def to_json(self) -> dict[str, Any]:
        return {
            "machine": self.machine,
            "memory_id": self.memory_id,
            "status": self.status,
            "dismiss_requested": self.dismiss_pending and self.status != DISMISSED,
            "updated_at": self.updated_at,
            "content": self.content,
        }


@dataclass(frozen=True, slots=True)
class Version:
    """One text of a card and the copies that hold it."""

    content: str
    copies: tuple[MachineCopy, ...]

    @property
    def machines(self) -> str:
        return ", ".join(f"{c.machine} #{c.memory_id}" for c in self.copies)


@dataclass(frozen=True, slots=True)
class HubCard:
    """One memory across machines: its copies (by machine, then id) and the machines without one."""

    copies: tuple[MachineCopy, ...]
    missing: tuple[str, ...] = ()

    @property
    def key(self) -> Key:
        """The card's own name: its first copy's key (stable while the hub's rows are)."""
        return self.copies[0].key

    @property
    def newest(self) -> MachineCopy:
        return max(self.copies, key=lambda c: (c.updated_at, c.machine, c.memory_id))

    @property
    def updated_at(self) -> int:
        return self.newest.updated_at

    @property
    def differs(self) -> bool:
        return len({c.digest for c in self.copies}) > 1

    @property
    def machines(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(c.machine for c in self.copies))

    @property
    def loaded(self) -> bool:
        return all(c.content is not None for c in self.copies)

    @property
    def text(self) -> str:
        """The newest copy's text ("" before its page is read)."""
        return self.newest.content or ""

    def versions(self) -> list[Version]:
        """Each distinct text once, the newest first, with the copies holding it."""
        groups: dict[str, list[MachineCopy]] = {}
        for copy in sorted(self.copies, key=lambda c: -c.updated_at):
            groups.setdefault(copy.digest, []).append(copy)
        return [Version(copies[0].content or "", tuple(copies)) for copies in groups.values()]

    def to_json(self) -> dict[str, Any]:
        """`hub list --json`'s card: named by its first copy; its copies (each machine and its status
        there), the hub's machines without one, how many texts."""
        machine, memory_id = self.key
        return {
            "machine": machine,
            "memory_id": memory_id,
            "updated_at": self.updated_at,
            "text": self.text,
            "differs": self.differs,
            "texts": len(self.versions()),
            "copies": [copy.to_json() for copy in self.copies],
            "missing": list(self.missing),
        }

    def dismissable(self) -> list[MachineCopy]:
        """One copy per text still shown somewhere: what "Dismiss on every machine" names to the hub
        (each request covers every copy with that copy's text)."""
        return [
            next(c for c in v.copies if c.status != DISMISSED and not c.dismiss_pending)
            for v in self.versions()
            if any(c.status != DISMISSED and not c.dismiss_pending for c in v.copies)
        ]


@dataclass(frozen=True, slots=True)
class CardCounts:
    cards: int
    copies: int
    differing: int
    on_every_machine: int
    machines: tuple[str, ...] = field(default=())


def link_of_provenance(text: str | None) -> Key | None:
    """The source a copy's provenance names (`synced_from`, `synced_memory_id`), if any."""
    entries = tolerant_json_loads(text) if text else None
    for entry in entries if isinstance(entries, list) else ():
        if isinstance(entry, dict):
            key = _key(entry.get("synced_from"), entry.get("synced_memory_id"))
            if key is not None:
                return key
    return None


def link_of_detail(text: str | None) -> Key | None:
    """The source a `create` revision's detail names (`copied_from`, `copied_memory_id`), if any."""
    try:
        detail = json.loads(text) if text else None
    except ValueError:
        return None
    if not isinstance(detail, dict):
        return None
    return _key(detail.get("copied_from"), detail.get("copied_memory_id"))


def _key(machine: object, memory_id: object) -> Key | None:
    if isinstance(machine, str) and isinstance(memory_id, int) and not isinstance(memory_id, bool):
        return (machine, memory_id)
    return None


class _Groups:
    """Union-find over group numbers (one per distinct text to begin with)."""

    def __init__(self, count: int) -> None:
        self.parent = list(range(count))

    def find(self, group: int) -> int:
        root = group
        while self.parent[root] != root:
            root = self.parent[root]
        while self.parent[group] != root:  # path compression
            self.parent[group], group = root, self.parent[group]
        return root

    def join(self, a: int, b: int) -> None:
        ra, rb = self.find(a), self.find(b)
        if ra != rb:
            self.parent[max(ra, rb)] = min(ra, rb)


def group_cards(
    copies: Sequence[MachineCopy], links: Iterable[tuple[Key, Key]], machines: Sequence[str]
) -> list[HubCard]:
    """The cards of `copies`, given copy links (copy → source), in listing order; `machines` are the
    hub's machines (a card names those without a copy)."""
    # Copies of one text start as one group; a link joins two groups (links are few: copies made by
    # Copy to this machine), so the union-find runs over texts, not over every copy.
    group_of_digest: dict[str, int] = {}
    group_of_key: dict[Key, int] = {}
    for copy in copies:
        group_of_key[(copy.machine, copy.memory_id)] = group_of_digest.setdefault(
            copy.digest, len(group_of_digest)
        )
    groups = _Groups(len(group_of_digest))
    for copy_key, source in links:
        if copy_key in group_of_key and source in group_of_key:
            groups.join(group_of_key[copy_key], group_of_key[source])
    members: dict[int, list[MachineCopy]] = {}
    for copy in copies:
        members.setdefault(groups.find(group_of_digest[copy.digest]), []).append(copy)
    ordered = []
    for found in members.values():
        found.sort(key=lambda c: (c.machine, c.memory_id))
        have = {c.machine for c in found}
        card = HubCard(tuple(found), tuple(m for m in machines if m not in have))
        newest = max(c.updated_at for c in found)
        ordered.append((-newest, found[0].machine, found[0].memory_id, card))
    ordered.sort(key=lambda entry: entry[:3])
    return [entry[3] for entry in ordered]


def with_texts(card: HubCard, texts: dict[Key, str]) -> HubCard:
    """The card with its copies' contents from `texts` (copies not in it keep theirs)."""
    copies = tuple(replace(c, content=texts.get(c.key, c.content)) for c in card.copies)
    return replace(card, copies=copies)


def card_counts(cards: Sequence[HubCard], machines: Sequence[str]) -> CardCounts:
    return CardCounts(
        cards=len(cards),
        copies=sum(len(card.copies) for card in cards),
        differing=sum(card.differs for card in cards),
        on_every_machine=sum(not card.missing for card in cards),
        machines=tuple(machines),
    )
