"""Sources as selectors: which memories a session, a source or a whole scheme contributed to, and the
person's trust marks.

A memory's sources (`app.core.trust.derive_sources`) come from its provenance (`session:<id>` per entry)
and from the dashboard's own `mdash_memory_sources` (`user:dashboard`). The selector asks SQLite: a LIKE on
the provenance column first (cheap, and it leaves only the rows that name the session), then the JSON
entries themselves (`json_each`, only over text that is valid JSON: a host cell may hold anything).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from sqlalchemy import ColumnElement, Connection, and_, case, exists, false, func, inspect, or_, select

from app.core.models import Memory
from app.core.provenance import parse_candidate_ids, provenance_sessions
from app.core.screening import has_hidden_characters
from app.core.trust import (
    MEMORY_SOURCE_UNKNOWN,
    UNTRUSTED,
    TrustMarks,
    is_scheme,
    memory_trust,
    scheme_of,
    source_trust,
    sources_of,
)
from app.store.read.host_cells import text_value
from app.store.read.reads import chunks
from app.store.schema.tables import memory_sources, trust_marks, user_memories

m = user_memories.c


def _entries() -> ColumnElement[str]:
    """The provenance column where it is JSON text; an empty array for anything else."""
    column = m.source_candidate_provenance
    readable = and_(func.typeof(column) == "text", func.json_valid(column) == 1)
    return case((readable, column), else_="[]")


def _session_predicate(session_id: str | None) -> ColumnElement[bool]:
    """Provenance names the session (`None`: any session at all)."""
    entries = func.json_each(_entries()).table_valued("value")
    session = func.json_extract(entries.c.value, "$.session_id")
    if session_id is None:
        return exists(select(1).select_from(entries).where(session.is_not(None)))
    named = exists(select(1).select_from(entries).where(session == session_id))
    return and_(m.source_candidate_provenance.contains(session_id, autoescape=True), named)


def _own_predicate(source: str) -> ColumnElement[bool]:
    own = memory_sources.c
    matches = own.source.startswith(source, autoescape=True) if is_scheme(source) else own.source == source
    return exists().where(and_(own.memory_id == m.id, matches))


def source_predicate(source: str, own: bool) -> ColumnElement[bool]:
    """The memories `source` (`session:ses_abc`, a scheme `session:`, `user:dashboard`...) is one of the
    sources of."""
    clauses: list[ColumnElement[bool]] = [_own_predicate(source)] if own else []
    scheme = scheme_of(source)
    if scheme == "session:":
        clauses.append(_session_predicate(None if is_scheme(source) else source.partition(":")[2]))
    elif source == MEMORY_SOURCE_UNKNOWN:
        clauses.append(or_(m.source_candidate_provenance.is_(None), func.json_valid(_entries()) == 0))
    return or_(false(), *clauses)


def source_matches(memory_source: str, wanted: str) -> bool:
    """Whether one of a memory's sources is `wanted` (or, for a scheme, of it)."""
    return scheme_of(memory_source) == wanted if is_scheme(wanted) else memory_source == wanted


def split_contributions(memories: Iterable[Memory], source: str) -> tuple[list[Memory], list[Memory]]:
    """(memories whose only source is `source`, those where it is one of several)."""
    only: list[Memory] = []
    shared: list[Memory] = []
    for memory in memories:
        mine = [s for s in memory.sources if source_matches(s, source)]
        # No match here: the selector found the session in provenance the host cannot read (its sources
        # read as `unknown:`); it may have contributed, among others.
        (only if mine and len(mine) == len(memory.sources) else shared).append(memory)
    return only, shared


def has_marks_table(conn: Connection) -> bool:
    return inspect(conn).has_table(trust_marks.name)


def load_marks(conn: Connection) -> dict[str, str]:
    """The person's marks: source (or scheme) -> trust."""
    rows = conn.execute(select(trust_marks.c.source, trust_marks.c.trust).order_by(trust_marks.c.source))
    return {str(source): str(trust) for source, trust in rows}


# Content made only of printable ASCII, tabs and line breaks holds no hidden character: deleting those
# bytes from an ASCII text leaves nothing, and only other texts go to `has_hidden_characters` (SQLite's
# GLOB on a character class, or a regex search, is slower than reading the column).
_PLAIN_BYTES = bytes([0x09, 0x0A, 0x0D, *range(0x20, 0x7F)])


def _screened(content: object) -> bool:
    if isinstance(content, str):
        plain = content.isascii() and not content.encode("ascii").translate(None, _PLAIN_BYTES)
        return not plain and has_hidden_characters(content)
    return has_hidden_characters(text_value(content))


def _plain_provenance(marks: TrustMarks) -> Callable[[object], bool] | None:
    """Whether a provenance column's sessions all take the trust `session:` and `unknown:` share under
    `marks`, read without parsing it: NULL, or text with no JSON escape that names no session marked on
    its own (None: no column is, when the two do not share one trust)."""
    if source_trust("session:x", marks) != source_trust(MEMORY_SOURCE_UNKNOWN, marks):
        return None
    named = [
        source.partition(":")[2]
        for source in marks
        if scheme_of(source) == "session:" and not is_scheme(source)
    ]

    def plain(raw: object) -> bool:
        return raw is None or (isinstance(raw, str) and "\\" not in raw)

    def unmarked(raw: object) -> bool:
        if raw is None:
            return True
        return isinstance(raw, str) and "\\" not in raw and not any(session in raw for session in named)

    return unmarked if named else plain


def judged_trust(
    conn: Connection, ids: Sequence[int], marks: TrustMarks, own: bool
) -> dict[int, tuple[str, bool]]:
    """Each memory's trust under `marks` and whether it is screened (a listing filtered by trust judges
    every row: no `Memory` is built for them). One pass over content and provenance settles the plain
    rows without parsing JSON: content of printable ASCII is not screened, and a memory without sources
    of the dashboard's own whose provenance is plain (`_plain_provenance`) takes the trust every session
    and `unknown:` share. Only the rest have their sources read."""
    wanted = set(ids)
    own_sources: dict[int, list[str]] = {}
    if own:
        rows = conn.execute(
            select(memory_sources.c.memory_id, memory_sources.c.source).order_by(
                memory_sources.c.added_at, memory_sources.c.source
            )
        )
        for memory_id, source in rows:
            own_sources.setdefault(int(memory_id), []).append(str(source))
    shared = source_trust("session:x", marks)
    plain = _plain_provenance(marks)
    judged: dict[int, tuple[str, bool]] = {}
    slow: list[int] = []
    every = conn.execute(select(m.id, m.content, m.source_candidate_provenance))
    for part in every.partitions(1000):
        for memory_id, content, raw in part:
            if memory_id not in wanted:
                continue
            if _screened(content):
                judged[memory_id] = (UNTRUSTED, True)
            elif plain is None or memory_id in own_sources or not plain(raw):
                slow.append(memory_id)
            else:
                judged[memory_id] = (shared, False)
    columns = select(m.id, m.source_candidate_ids, m.source_candidate_provenance)
    for chunk in chunks(slow):
        for memory_id, raw_ids, raw_provenance in conn.execute(columns.where(m.id.in_(chunk))):
            sources = sources_of(
                parse_candidate_ids(raw_ids),
                provenance_sessions(raw_provenance),
                own_sources.get(memory_id, ()),
            )
            judged[memory_id] = (memory_trust(sources, marks), False)
    return judged
