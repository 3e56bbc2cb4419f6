"""The words behind a card's `from candidates: …` tooltip, from the evidence archive.

A tooltip cannot wait for the database, so the words are read off the GUI thread the first time a card's
candidates are hovered (`fetch`, set by the window) and kept; the next hover shows them. What is kept
belongs to one store: another database empties it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from app.core.models import Memory
from app.core.models.evidence import Evidence, evidence_words, memory_candidate_ids

SHOWN_IDS = 12  # candidates listed with their words in one tooltip
WORDS_CHARS = 100
EvidenceFetcher = Callable[[list[int], Callable[[Mapping[int, Evidence]], None]], None]


class EvidenceTips:
    def __init__(self) -> None:
        self.fetch: EvidenceFetcher | None = None
        self.store_key: Callable[[], object] = lambda: None  # which store the kept words came from
        self._key: object = None
        self._known: dict[int, Evidence | None] = {}  # None: never archived
        self._asked: set[int] = set()

    def tip(self, memory: Memory, base: str) -> str:
        """`base`, then each candidate's words when known (a first hover asks for them)."""
        if self.fetch is None:
            return base
        if self.store_key() is not self._key:
            self._key, self._known, self._asked = self.store_key(), {}, set()
        ids = memory_candidate_ids(memory)[:SHOWN_IDS]
        missing = [item for item in ids if item not in self._known and item not in self._asked]
        if missing:
            self._asked.update(missing)
            key = self._key
            self.fetch(missing, lambda found: self._arrived(key, missing, found))
        lines = [
            f"#{item} {evidence_words(self._known[item], WORDS_CHARS)}" for item in ids if item in self._known
        ]
        if not lines:
            return f"{base}\n(the candidates' words are being read; hover again)" if missing else base
        more = len(memory_candidate_ids(memory)) - len(ids)
        extra = [f"… {more} more in the history panel's provenance"] if more > 0 else []
        return "\n".join([base, "", *lines, *extra])

    def _arrived(self, key: object, asked: list[int], found: Mapping[int, Evidence]) -> None:
        if key is not self._key:
            return
        for item in asked:
            self._known[item] = found.get(item)
            self._asked.discard(item)
