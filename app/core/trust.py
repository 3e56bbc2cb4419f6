"""Sources and trust (seed 001): a memory's ordered sources, and trust graded by its weakest source.

Sources are `scheme:value` strings: `session:<id>` per candidate session, `user:dashboard` once a person
edited the memory, `unknown:` when any of its candidate ids has no provenance. Trust by scheme: `user:`
trusted; `session:` and `unknown:` semi; `tool:`, `web:`, `external:` (and any scheme we do not know)
untrusted. A person's marks override that: a mark on a source (`session:ses_abc`) outranks a mark on its
scheme (`session:`), which outranks the default. A memory takes the trust of its weakest source, so mixing
one trusted input into a poisoned item buys it nothing, and a memory of unknown provenance is never
trusted; content with hidden, bidi or control characters is untrusted whatever its sources ("screened").
"""

from __future__ import annotations

import unicodedata
from collections.abc import Collection, Iterable, Mapping, Sequence
from types import MappingProxyType

from app.core.provenance import ProvenanceEntry
from app.core.screening import hidden_characters
from app.core.text_input import text_problem

TRUSTED = "trusted"
SEMI = "semi"
UNTRUSTED = "untrusted"
_RANK = {UNTRUSTED: 0, SEMI: 1, TRUSTED: 2}
_SCHEME_TRUST = {
    "user": TRUSTED,
    "session": SEMI,
    "unknown": SEMI,
    "tool": UNTRUSTED,
    "web": UNTRUSTED,
    "external": UNTRUSTED,
}
# A memory's sources (what it came from), not a revision's source (`app.core.models.RevisionSource`).
MEMORY_SOURCE_UNKNOWN = "unknown:"  # a candidate id without provenance
MEMORY_SOURCE_USER_EDIT = "user:dashboard"  # a person edited it in the dashboard (or wrote it)
TRUST_LEVELS = (TRUSTED, SEMI, UNTRUSTED)
MARKS = (TRUSTED, UNTRUSTED)  # what a person may mark a source; "default" removes the mark
DEFAULT_MARK = "default"
TrustMarks = Mapping[str, str]  # a source or a whole scheme (`session:`) -> TRUSTED or UNTRUSTED
NO_MARKS: TrustMarks = MappingProxyType({})
SCREENED_SHOWN = 3  # hidden characters named in a screened memory's reason
# A source a person names (a filter, a trust mark): far longer than any session id, and short enough that
# the LIKE pattern a filter makes of it stays far inside SQLite's limit of 50,000 bytes (as a search's
# text does: `app.core.models.filters.MAX_SEARCH_CHARS`, the same number).
MAX_SOURCE_CHARS = 1_000


def scheme_of(source: str) -> str:
    """`session:` for `session:ses_abc` (and for `session:` itself)."""
    return source.partition(":")[0].lower() + ":"


def is_scheme(source: str) -> bool:
    """A whole scheme (`session:`), not one source of it."""
    return source.endswith(":") and source.count(":") == 1


def source_trust(source: str, marks: TrustMarks = NO_MARKS) -> str:
    """A mark on the source, else one on its scheme, else the scheme's default."""
    marked = marks.get(source) or marks.get(scheme_of(source))
    if marked is not None:
        return marked
    return _SCHEME_TRUST.get(scheme_of(source)[:-1], UNTRUSTED)


def memory_trust(sources: Iterable[str], marks: TrustMarks = NO_MARKS) -> str:
    """The weakest source's trust; a memory with no sources at all counts as unknown (semi)."""
    levels = [source_trust(source, marks) for source in sources] or [SEMI]
    return min(levels, key=_RANK.__getitem__)


def _why(source: str, trust: str, marks: TrustMarks) -> str:
    if source in marks:
        return f"{source} is marked {trust}"
    if scheme_of(source) in marks:
        return f"{source}: every {scheme_of(source)} source is marked {trust}"
    return f"{source} is {trust} by default"


def grade(
    sources: Sequence[str], marks: TrustMarks, content: str, screened: bool
) -> tuple[str, tuple[str, ...]]:
    """A memory's trust and why: its weakest sources under `marks`, and "screened" (untrusted whatever
    its sources) when its content holds hidden, bidi or control characters (`screened`: already known)."""
    trust = memory_trust(sources, marks)
    reasons = [_why(s, trust, marks) for s in sources if source_trust(s, marks) == trust]
    if screened:
        found = hidden_characters(content)
        named = ", ".join(f"{c.label} ({c.kind})" for c in found[:SCREENED_SHOWN])
        more = f" +{len(found) - SCREENED_SHOWN} more" if len(found) > SCREENED_SHOWN else ""
        reasons.insert(0, f"screened: the content holds hidden characters: {named}{more}")
        trust = UNTRUSTED
    return trust, tuple(reasons)


def derive_sources(
    candidate_ids: Sequence[int],
    provenance: Sequence[ProvenanceEntry] | None,
    own_sources: Sequence[str] = (),
) -> tuple[str, ...]:
    """Provenance sessions in order, `unknown:` if any id lacks an entry, then the dashboard's own sources."""
    if provenance is None:
        return sources_of(candidate_ids, None, own_sources)
    sessions = tuple(dict.fromkeys(entry.session_id for entry in provenance))
    return sources_of(candidate_ids, (sessions, {entry.candidate_id for entry in provenance}), own_sources)


def sources_of(
    candidate_ids: Sequence[int],
    sessions: tuple[Sequence[str], Collection[int]] | None,
    own_sources: Sequence[str] = (),
) -> tuple[str, ...]:
    """`derive_sources` from what it needs of the provenance: its session ids in order and the candidate
    ids it describes (None: provenance unknown; see `app.core.provenance.provenance_sessions`)."""
    ordered = [f"session:{session}" for session in sessions[0]] if sessions is not None else []
    known = sessions[1] if sessions is not None else ()
    if sessions is None or any(item not in known for item in candidate_ids) or not (ordered or own_sources):
        ordered.append(MEMORY_SOURCE_UNKNOWN)
    for source in own_sources:
        if source not in ordered:
            ordered.append(source)
    return tuple(ordered)


def source_problem(source: str) -> str | None:
    """Why a source a person names cannot be used, or None: too long, or text unfit to store."""
    if len(source) > MAX_SOURCE_CHARS:
        return f"is {len(source):,} characters long; the limit is {MAX_SOURCE_CHARS:,}"
    return text_problem(source)


def kept_source_problem(source: str) -> str | None:
    """Why a source cannot be kept (a trust mark, a memory's own source), or None: `source_problem`, or a
    control character, line breaks and tabs included (a line break would split the marks' listing, an
    ESC rewrite the terminal). Other hidden characters are made visible wherever a source is shown."""
    problem = source_problem(source)
    if problem is not None:
        return problem
    control = next((i for i, char in enumerate(source) if unicodedata.category(char) == "Cc"), None)
    if control is None:
        return None
    return f"holds a control character (U+{ord(source[control]):04X}) at character {control + 1}"


def parse_source(text: str) -> str:
    """A source as a person names it: `session:ses_abc`, a whole scheme (`session:`), `user:dashboard`,
    or a bare session id (`ses_abc`, read as `session:ses_abc`). The scheme is case-insensitive.
    ValueError for an empty one."""
    name = text.strip()
    if not name or name == ":":
        raise ValueError("name a source: session:ID, a scheme such as session:, or a session id")
    if ":" not in name:
        return f"session:{name}"
    scheme, _, value = name.partition(":")
    return f"{scheme.lower()}:{value}"
