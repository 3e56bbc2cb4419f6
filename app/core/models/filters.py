"""The listing's filter (`MemoryFilter`) and its vocabulary, without SQLAlchemy (the window's modules
import it). The selectors that turn a filter into SQL are in `app.store.read.query`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from app.core.errors import InvalidInputError
from app.core.text_input import text_problem
from app.core.trust import source_problem

StatusFilter = Literal[
    "all",
    "active",
    "dismissed",
    "expired",
    "expiring",
    "expiring_or_expired",
    "rewritten",
    "other",
    "deleted",
]
SortKey = Literal["promoted", "updated", "id"]
STATUS_FILTERS: tuple[StatusFilter, ...] = (
    "all",
    "active",
    "dismissed",
    "expired",
    "expiring",
    "expiring_or_expired",  # either of the two: every memory with an expiry
    "rewritten",
    "other",
    "deleted",  # the trash: memories no longer in the host's table (`app.store.read.trash`)
)
TrustFilter = Literal["", "trusted", "semi", "untrusted", "screened"]
TRUST_FILTERS: tuple[TrustFilter, ...] = ("trusted", "semi", "untrusted", "screened")
SORT_KEYS: tuple[SortKey, ...] = ("promoted", "updated", "id")
# Each word becomes a LIKE pattern ANDed with the others: SQLite refuses a pattern over 50,000 bytes and
# an expression more than 1,000 deep, which it reports only as a failing database. Far above any search
# a person types, far below either limit.
MAX_SEARCH_CHARS = 1_000
MAX_SEARCH_WORDS = 100


@dataclass(frozen=True, slots=True)
class MemoryFilter:
    """Which memories a listing shows. `source` is a source (`session:ses_abc`, `user:dashboard`) or a
    whole scheme (`session:`) among the memory's sources; `since`/`until` bound `promoted_at` (from,
    inclusive, to, exclusive: epoch ms); `trust` keeps memories of that trust (`screened`: untrusted for
    hidden characters in their content), judged under the person's marks by the store."""

    status: StatusFilter = "all"
    search: str = ""
    sort: SortKey = "promoted"
    descending: bool = False
    source: str = ""
    since: int | None = None
    until: int | None = None
    trust: TrustFilter = ""

    def __post_init__(self) -> None:
        # Before the search index counts the matches of every word (a query each).
        check_search(self.search)
        problem = source_problem(self.source) if self.source else None
        if problem is not None:
            raise InvalidInputError(f"the source {problem}")


def search_problem(text: str) -> str | None:
    """What makes a search text unusable (too long, too many words, not storable text), or None."""
    if len(text) > MAX_SEARCH_CHARS:
        return f"the search text is {len(text):,} characters long; the limit is {MAX_SEARCH_CHARS:,}"
    words = len(text.split())
    if words > MAX_SEARCH_WORDS:
        return f"the search text has {words:,} words; the limit is {MAX_SEARCH_WORDS}"
    bad = text_problem(text)
    return None if bad is None else f"the search text {bad}"


def check_search(text: str) -> None:
    """InvalidInputError (exit 1, a message in the window) for a search `search_problem` refuses."""
    problem = search_problem(text)
    if problem is not None:
        raise InvalidInputError(problem)
