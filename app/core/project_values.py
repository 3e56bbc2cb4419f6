"""The values a project memory (the host's `memories` row) may be given from outside: the words the host
writes in each of its enumerated columns, the rules for a category and a project path, and the range of
its counts.

The host's reader (storage-memory.ts, `isMemoryRow`) drops every row whose status, scope, source type or
verification status is not one of its own words: a row written with another would exist and never be
injected. A typed edit (`app.store.project.writes`) and an import (`app.transfer.project_format`) check
against these, once, where the value enters; a typed category is screened for hidden characters as the
import screens one (the import lets them in with `--allow-hidden`; a typed name never holds them).
"""

from __future__ import annotations

import re

from app.core.incoming_checks import quoted
from app.core.screening import hidden_problem
from app.core.text_input import INT64_MAX, INT64_MIN, text_problem, tolerant_json_loads

STATUSES = ("active", "permanent", "archived")
SCOPES = ("project", "ecosystem", "universe")
SOURCE_TYPES = ("historian", "agent", "dreamer", "user")
VERIFICATION_STATUSES = ("unverified", "verified", "stale", "flagged")
IMPORTANCE_RANGE = (1, 100)  # the host rounds and clamps into this (normalizeImportance)
MAX_CATEGORY_CHARS = 200
MAX_PROJECT_PATH_CHARS = 4096
MAX_SESSION_ID_CHARS = 200  # the host's are `ses_` and a few dozen characters
# The host adds 1 to `seen_count` and `retrieval_count` each time; past 2**53 - 1 (the exact integers of
# its JavaScript) the sum is no longer exact, and SQLite turns an INTEGER at 2**63 - 1 plus 1 into a REAL.
# The host's own counts never come near: a larger one is no count it made.
MAX_COUNT = 2**53 - 1


# What ends a line (or jumps across one) but is no hidden character: allowed in a content, never in a name.
_LINE_BREAK = re.compile("[\t\n\r\u2028\u2029]")


def _named_text_problem(text: str, limit: int) -> str | None:
    problem = text_problem(text)
    if problem is None and not text.strip():
        problem = "is empty"
    # A name is one line: the host renders a category as a heading of what it injects, and a line break
    # there would start a line of the file's choosing in the agent's context.
    found = _LINE_BREAK.search(text) if problem is None else None
    if found is not None:
        problem = f"holds a line break or a tab (U+{ord(found.group()):04X}) at character {found.start() + 1}"
    if problem is None and len(text) > limit:
        problem = f"is {len(text):,} characters; the limit is {limit:,}"
    return problem


def category_problem(category: str) -> str | None:
    """What makes `category` unfit for a project memory (storable, not blank, one line, short), or None."""
    return _named_text_problem(category, MAX_CATEGORY_CHARS)


def typed_category_problem(category: str) -> str | None:
    """A category a person gives (an edit's, the window's): `category_problem`, and no hidden character
    (screened as an import screens it). The host renders a category as a heading of what it injects:
    a bidi override or a zero-width character there hides what the agent is told from the person."""
    return category_problem(category) or hidden_problem(category)


def project_path_problem(path: str) -> str | None:
    """What makes `path` unfit as a project identity (storable, not blank, one line, bounded), or None."""
    return _named_text_problem(path, MAX_PROJECT_PATH_CHARS)


def session_id_problem(session_id: str) -> str | None:
    """What makes `session_id` unfit as a memory's source session (storable, one line, short), or None."""
    return _named_text_problem(session_id, MAX_SESSION_ID_CHARS)


def count_problem(count: int | None) -> str | None:
    """What makes `count` unfit as a memory's seen or retrieval count (below 0, past `MAX_COUNT`)."""
    if count is None or 0 <= count <= MAX_COUNT:
        return None
    return (
        f"is {count}, below 0"
        if count < 0
        else f"is {count}, above {MAX_COUNT} (the host's largest exact count)"
    )


def word_problem(value: str | None, words: tuple[str, ...], *, optional: bool = False) -> str | None:
    """`value` is not one of the host's `words` (None allowed when `optional`): why, or None."""
    if value is None and optional:
        return None
    if value in words:
        return None
    shown = "null" if value is None else quoted(value)
    return f"is {shown}, not one the host writes ({', '.join(words)})"


def merged_from_ids(raw: str | bytes) -> tuple[tuple[int, ...], int] | None:
    """The host's `merged_from` (a JSON list of ids, as text): its ids in order and how many items were no
    id (a bool, a number past 64 bits, a string...); None when it is no JSON list at all."""
    data = tolerant_json_loads(raw)
    if not isinstance(data, list):
        return None
    ids = tuple(item for item in data if type(item) is int and INT64_MIN <= item <= INT64_MAX)
    return ids, len(data) - len(ids)
