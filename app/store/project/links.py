"""The links between project memories, both ways: supersession (`superseded_by_memory_id`, followed to
the end of its chain) and merges (`merged_from`, a JSON list of the ids a memory was made from).

The host checks neither: a chain may loop, point at a row that is gone, and `merged_from` may hold
anything. Each is shown as what it is (`Chain.problem`, `Merged.problem`), never followed forever.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from sqlalchemy import Connection, select

from app.core.project_values import merged_from_ids
from app.store.project.model import ProjectMemory
from app.store.project.reads import fetch_memories
from app.store.project.tables import memories
from app.store.read.host_cells import describe

m = memories.c
MAX_CHAIN = 1_000  # steps followed before a chain is called too long (the host has no limit either)
MAX_SOURCES = 1_000  # sources gathered for a merge, at most


@dataclass(frozen=True, slots=True)
class Merged:
    """What `merged_from` says: the ids, or why it says none (`problem`, the raw value shown)."""

    ids: tuple[int, ...] = ()
    problem: str | None = None


NOT_MERGED = Merged()


def parse_merged_from(raw: str | bytes | None) -> Merged:
    """`merged_from` as the host writes it (a JSON list of ids) or, for anything else, what it holds."""
    if raw is None:
        return NOT_MERGED
    found = merged_from_ids(raw)
    if found is None:
        return Merged((), f"merged_from is not a JSON list of ids: {describe(raw)}")
    ids, left_out = found
    if left_out:
        return Merged(
            ids, f"merged_from has {left_out:,} item(s) that are not ids (left out): {describe(raw)}"
        )
    return Merged(ids)


@dataclass(frozen=True, slots=True)
class Chain:
    """Where `superseded_by_memory_id` leads from a memory: the ids after it in order (`steps`), the
    last one reached (`end`, the memory itself when nothing supersedes it) and what stopped the walk."""

    steps: tuple[int, ...]
    end: int
    problem: str | None = None  # a loop, a target no row has, or a chain too long to follow


def follow_chain(start: int, successor: Callable[[int], int | None], exists: Callable[[int], bool]) -> Chain:
    """The chain from `start`: `successor` gives a memory's superseded_by (None: the end), `exists`
    whether a row has that id."""
    steps: list[int] = []
    visited = {start}
    current = start
    while True:
        following = successor(current)
        if following is None:
            return Chain(tuple(steps), current)
        if following in visited:
            return Chain(tuple(steps), current, f"the chain loops back to #{following}")
        if not exists(following):
            return Chain(
                tuple(steps), current, f"#{current} is superseded by #{following}, which does not exist"
            )
        if len(steps) >= MAX_CHAIN:
            return Chain(tuple(steps), current, f"the chain is longer than {MAX_CHAIN:,} steps: not followed")
        steps.append(following)
        visited.add(following)
        current = following


def chain_of(conn: Connection, memory: ProjectMemory) -> Chain:
    """`follow_chain` over the database, one row per step."""
    known = {memory.id: memory.superseded_by}

    def load(memory_id: int) -> bool:
        if memory_id not in known:
            row = conn.execute(select(m.id, m.superseded_by_memory_id).where(m.id == memory_id)).first()
            if row is None:
                return False
            target = row[1]
            known[memory_id] = target if type(target) is int else None
        return True

    return follow_chain(memory.id, lambda memory_id: known[memory_id], load)


def superseding(conn: Connection, memory_id: int) -> tuple[int, ...]:
    """The memories that name `memory_id` as what supersedes them ("supersedes #M" on the newer one)."""
    rows = conn.execute(select(m.id).where(m.superseded_by_memory_id == memory_id).order_by(m.id))
    return tuple(row[0] for row in rows)


def merged_into(conn: Connection, memory_id: int) -> tuple[int, ...]:
    """The memories whose `merged_from` lists `memory_id`. A LIKE narrows the rows on every dialect; the
    JSON is then read as `parse_merged_from` reads it, so `[12]` never matches #1."""
    needle = f"%{memory_id}%"
    rows = conn.execute(
        select(m.id, m.merged_from)
        .where(m.merged_from.is_not(None), m.merged_from.like(needle))
        .order_by(m.id)
    )
    return tuple(
        row[0]
        for row in rows
        if isinstance(row[1], str) and memory_id in parse_merged_from(row[1]).ids and row[0] != memory_id
    )


@dataclass(frozen=True, slots=True)
class Source:
    """One memory a merge was made from, directly or through an earlier merge, and its session."""

    memory_id: int
    source_session_id: str | None
    missing: bool = False  # `merged_from` names it, but no row has that id any more


def merge_sources(conn: Connection, memory: ProjectMemory) -> tuple[Source, ...]:
    """Everything a merged memory was made from, each with its `source_session_id`: the ids in its
    `merged_from`, and theirs in turn, breadth first, each once (a merge of merges lists every source),
    at most `MAX_SOURCES` of them (the host bounds no `merged_from`: one may name any number of ids)."""
    found: list[Source] = []
    visited = {memory.id}
    frontier = list(parse_merged_from(memory.merged_from).ids)
    while frontier and len(found) < MAX_SOURCES:
        wanted = [i for i in dict.fromkeys(frontier) if i not in visited][: MAX_SOURCES - len(found)]
        rows = fetch_memories(conn, wanted)
        following: dict[int, None] = {}
        for source_id in wanted:
            visited.add(source_id)
            source = rows.get(source_id)
            if source is None:
                found.append(Source(source_id, None, missing=True))
                continue
            found.append(Source(source_id, source.source_session_id))
            for i in parse_merged_from(source.merged_from).ids:
                if len(following) >= MAX_SOURCES:
                    break  # more than the next round can take
                if i not in visited:
                    following[i] = None
        frontier = list(following)
    return tuple(found)


@dataclass(frozen=True, slots=True)
class Links:
    """A memory's links both ways, as a card or `show` presents them."""

    chain: Chain  # "superseded by #N", followed to the end
    supersedes: tuple[int, ...]  # "supersedes #M"
    merged: Merged  # "merged from #a, #b"
    merged_into: tuple[int, ...]  # "merged into #N"
    sources: tuple[Source, ...]  # every source a merge was made from, with its session


def links_of(conn: Connection, memory: ProjectMemory) -> Links:
    merged = parse_merged_from(memory.merged_from)
    return Links(
        chain=chain_of(conn, memory),
        supersedes=superseding(conn, memory.id),
        merged=merged,
        merged_into=merged_into(conn, memory.id),
        sources=merge_sources(conn, memory) if merged.ids else (),
    )
