"""Tidy's finder over every active memory of the generated file, and its floor.

The generated contents are slices of one Zipf text, so they overlap as copied notes do, but name no
tools and hold no cues. A fresh copy gets `PLANTED` pairs of real-world memories besides (a preference
and its reworded, misspelt or extended twin, each about a tool of its own) and `CONTRADICTIONS` pairs
that clash ("Uses X" / "Never use X"), written into the host's table as another process would. Ours =
`find_groups` over the store's active memories (read once before, untimed); the floor = every text
case-folded and split into words, the least any finder must do. The target is absolute (5 s at 100,000
memories): the row's ratio is the median over 5 s. The note says how many planted pairs were found.
"""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path

from app.store import MemoryStore
from app.tidy.finder import find_groups
from app.tidy.model import TidyItem, TidyReport
from app.tidy.scoped import ScopedReport, find_in_scopes
from app.tidy.source import active_items, project_scopes
from tests.bench.generate import BenchDb
from tests.bench.timing import Result, fresh_copy, result, side_by_side
from tests.support import host80

TARGET_S = 5.0
PLANTED = 1_000
CONTRADICTIONS = 200
TWINS = (
    ("Prefers {tool} for {job}", "Uses {tool} for {job}, never anything else"),
    ("Runs {tool} before every commit for {job}", "Runs {tool} before each commit for {job}"),
    (
        "Keeps the {tool} configuration for {job} in the repository root",
        "Keeps {tool} configuration for {job} in the repo root",
    ),
    ("Wants {tool} examples for {job} in every answer", "Wants {tool} examples for {job} in evrey answer"),
)
CLASH = ("Uses {tool} for {job}", "Never use {tool} for {job}")
PROJECTS = 50
CATEGORIES = ("ARCHITECTURE", "CONSTRAINT", "CONVENTION", "GOTCHA")
JOBS = ("linting", "deployments", "benchmarks", "release notes", "database migrations", "API docs")


def _tool(number: int) -> str:
    return f"tool{number:05d}x"  # a name of its own: the Zipf corpus never forms it


def _plant(path: Path, memories: int, seed: int) -> list[tuple[int, int, str]]:
    """Rewrite pairs of active memories as twins or clashes; returns (first id, second id, kind)."""
    rng = random.Random(seed)
    conn = sqlite3.connect(path)
    active = [row[0] for row in conn.execute("SELECT id FROM user_memories WHERE status = 'active'")]
    chosen = rng.sample(active, 2 * (PLANTED + CONTRADICTIONS))
    planted = []
    with conn:
        for number in range(PLANTED + CONTRADICTIONS):
            first, second = chosen[2 * number], chosen[2 * number + 1]
            kind = "twin" if number < PLANTED else "clash"
            one, other = TWINS[number % len(TWINS)] if kind == "twin" else CLASH
            words = {"tool": _tool(number), "job": rng.choice(JOBS)}
            conn.execute("UPDATE user_memories SET content = ? WHERE id = ?", (one.format(**words), first))
            conn.execute("UPDATE user_memories SET content = ? WHERE id = ?", (other.format(**words), second))
            planted.append((first, second, kind))
    conn.close()
    return planted


def _found(report: TidyReport, planted: list[tuple[int, int, str]]) -> tuple[int, int]:
    group_of = {member: number for number, group in enumerate(report.groups) for member in group.members}
    listed = {frozenset((pair.a, pair.b)) for pair in report.contradictions}
    twins = sum(
        1 for a, b, kind in planted if kind == "twin" and a in group_of and group_of[a] == group_of.get(b)
    )
    clashes = sum(1 for a, b, kind in planted if kind == "clash" and frozenset((a, b)) in listed)
    return twins, clashes


def tidy(db: BenchDb, work: Path, rounds: int) -> Result:
    path = fresh_copy(db.path, work)
    planted = _plant(path, db.memories, db.seed)
    store = MemoryStore.open(path)
    items: list[TidyItem] = active_items(store)  # the first look records the planted rewrites
    store.close()
    reports: list[TidyReport] = []

    def ours() -> object:
        return lambda: reports.append(find_groups(items))

    def floor() -> object:
        return lambda: [item.text.casefold().split() for item in items]

    times = side_by_side(rounds, ours, floor)  # type: ignore[arg-type]
    twins, clashes = _found(reports[-1], planted)
    row = result(f"tidy, groups over {len(items):,} active memories", times, 1.0)
    row.note = (
        f"{len(reports[-1].groups):,} groups, {reports[-1].compared:,} pairs compared; planted twins found "
        f"{twins}/{PLANTED}, planted clashes listed {clashes}/{CONTRADICTIONS}; target {TARGET_S:.0f} s "
        f"absolute (ratio = median / target)"
    )
    row.ratio_override = row.ours / TARGET_S
    return row


def _project_file(source: Path, path: Path, memories: int) -> Path:
    """A host file of schema v80 holding the generated contents as `memories` project memories, dealt
    round-robin over `PROJECTS` projects and `CATEGORIES` categories."""
    host80.build_host80(path)
    read = sqlite3.connect(f"file:{source}?mode=ro", uri=True)
    texts = [
        row[0] for row in read.execute("SELECT content FROM user_memories ORDER BY id LIMIT ?", (memories,))
    ]
    read.close()
    conn = host80.connect(path)
    with conn:
        conn.executemany(
            "INSERT INTO memories (project_path, category, content, normalized_hash, scope, status, "
            "first_seen_at, created_at, updated_at, last_seen_at) "
            "VALUES (?,?,?,?,'project','active',?,?,?,?)",
            (
                (
                    f"dir:/src/project{n % PROJECTS:02d}",
                    CATEGORIES[n // PROJECTS % len(CATEGORIES)],
                    text,
                    f"{n:032x}",
                    host80.T0,
                    host80.T0,
                    host80.T0,
                    host80.T0,
                )
                for n, text in enumerate(texts)
            ),
        )
    conn.close()
    return path


def tidy_projects(db: BenchDb, work: Path, rounds: int) -> Result:
    """The finder over every project memory, project by project and category by category."""
    path = _project_file(Path(db.path), work / "projects.db", db.memories)
    store = MemoryStore.open(path)
    scopes = project_scopes(store)  # read once before, untimed
    store.close()
    reports: list[list[ScopedReport]] = []

    def ours() -> object:
        return lambda: reports.append(find_in_scopes(scopes))

    def floor() -> object:
        return lambda: [item.text.casefold().split() for scope in scopes for item in scope.items]

    times = side_by_side(rounds, ours, floor)  # type: ignore[arg-type]
    memories = sum(len(scope.items) for scope in scopes)
    row = result(f"tidy, project memories over {PROJECTS} projects ({memories:,})", times, 1.0)
    last = reports[-1]
    row.note = (
        f"{len(scopes)} scopes (project x category), {sum(len(s.report.groups) for s in last):,} groups, "
        f"{sum(s.report.compared for s in last):,} pairs compared; target {TARGET_S:.0f} s absolute"
    )
    row.ratio_override = row.ours / TARGET_S
    return row
