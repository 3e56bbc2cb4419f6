"""The measurements without a screen: search, diff of a 64 KiB revision, apply a verdict, observe rewrites.

Each alternates our call and its floor round by round on the same file; measurements that write get a
fresh copy of the generated file every round.
"""

from __future__ import annotations

import difflib
import json
import random
import sqlite3
import statistics
import time
from collections.abc import Callable
from pathlib import Path

from app.core.models import RevisionKind
from app.diff.stream import DiffStream
from app.diff.text_diff import side_by_side as diff_rows
from app.diff.text_diff import word_diff
from app.review import apply_verdict, parse_verdict
from app.store import MemoryFilter, MemoryStore
from app.store.read.reads import REVISION_COLUMNS
from tests.bench.generate import BenchDb
from tests.bench.timing import Result, fresh_copy, median_ratio, result, side_by_side
from tests.bench.verdict_case import build_verdict, raw_apply

REWRITES = 1_000
# (lines, characters per line) of the 700×900 inline diff panel `measure_gui.diff_panel` shows, as its
# `DiffView._screen()` reports them offscreen with the default font.
PANEL_SCREEN = (63, 116)


def search(db: BenchDb, work: Path, rounds: int, term: str, label: str) -> Result:
    path = fresh_copy(db.path, work)
    store = MemoryStore.open(path)
    store.observe()  # first look: the store's baseline, as when the window opened
    raw = sqlite3.connect(path)
    found: dict[str, int] = {}

    def listing() -> None:  # as the window's complete listing reads it: a look first, then the ids
        store.observe()
        found["ours"] = len(store.list_ids(MemoryFilter(status="all", search=term)))

    def ours() -> Callable[[], object]:
        return listing

    def floor() -> Callable[[], object]:
        sql = "SELECT id FROM user_memories WHERE content LIKE ?"
        return lambda: found.__setitem__("floor", len(raw.execute(sql, (f"%{term}%",)).fetchall()))

    times = side_by_side(rounds, ours, floor)
    store.close()
    raw.close()
    assert found["ours"] == found["floor"], found
    note = f"'{term}': {found['ours']:,} hits; ours = the listing call (observe + search + sort)"
    return result(f"search ({label})", times, 1.0, note)


def diff(db: BenchDb, work: Path, rounds: int) -> list[Result]:
    """Select the 50-revision memory and compute what its diff panel shows first, as the window does.

    The panel (`ui.diff.view`) computes about a screen of rows first and shows them; the word level of
    the rest follows in a second batch. Ours = the history outline + the newest revision whole + that
    first screen, for the 700×900 inline panel of `measure_gui.diff_panel`. The whole diff (every
    line's word level) is reported on a row of its own.
    """
    path = fresh_copy(db.path, work)
    store = MemoryStore.open(path)
    store.observe()
    revisions = store.history(db.diff_memory_id)
    newest = next(r for r in reversed(revisions) if r.kind == RevisionKind.CONTENT)
    old, new = newest.previous_content or "", newest.new_content or ""

    def select(whole: bool) -> Callable[[], Callable[[], object]]:
        def run() -> object:  # as the window does: the revisions listed without texts, the newest read whole
            latest = store.history(db.diff_memory_id, texts=False, newest_whole=True)[-1]
            assert latest.kind == RevisionKind.CONTENT and latest.texts_loaded
            stream = DiffStream(latest.previous_content or "", latest.new_content or "", side_by_side=False)
            return stream.rest() if whole else stream.take_screen(*PANEL_SCREEN)

        return lambda: run

    def floor() -> Callable[[], object]:
        return lambda: difflib.SequenceMatcher(None, old.splitlines(), new.splitlines()).get_opcodes()

    raw = sqlite3.connect(path)
    outline_columns = ", ".join(c for c in REVISION_COLUMNS if not c.endswith("_content"))

    def read_then_difflib() -> object:
        # The same reads in raw sqlite3 (the outline without texts, then the newest content revision
        # whole), then the floor's difflib: what the row does, at the interpreter's speed limit.
        outline = raw.execute(
            f"SELECT {outline_columns} FROM mdash_revisions WHERE memory_id = ? ORDER BY changed_at, id",
            (db.diff_memory_id,),
        ).fetchall()
        newest_id = next(row[0] for row in reversed(outline) if row[3] == RevisionKind.CONTENT)
        texts = raw.execute(
            "SELECT previous_content, new_content FROM mdash_revisions WHERE id = ?", (newest_id,)
        ).fetchone()
        return difflib.SequenceMatcher(None, texts[0].splitlines(), texts[1].splitlines()).get_opcodes()

    first = side_by_side(rounds, select(whole=False), floor)
    whole = side_by_side(rounds, select(whole=True), floor)
    same_work = side_by_side(rounds, select(whole=False), lambda: read_then_difflib)
    alone = side_by_side(
        rounds, lambda: lambda: DiffStream(old, new, False).take_screen(*PANEL_SCREEN), floor
    )
    rows = side_by_side(rounds, lambda: lambda: diff_rows(old, new), floor)
    raw.close()
    store.close()
    shown = DiffStream(old, new, side_by_side=False).take_screen(*PANEL_SCREEN)
    old_lines = old.splitlines()
    first_change = next(
        op[1]
        for op in difflib.SequenceMatcher(None, old_lines, new.splitlines()).get_opcodes()
        if op[0] != "equal"
    )
    whole_rows = statistics.median(rows[0]) * 1e3
    note = (
        f"{len(revisions)} revisions, {len(old.encode()):,} -> {len(new.encode()):,} bytes, first change on"
        f" line {first_change + 1} of {len(old_lines)}; ours = history (no texts, the newest revision whole)"
        f" + the first screen of rows ({len(shown)} rows of {PANEL_SCREEN[0]} lines × {PANEL_SCREEN[1]}"
        f" characters, inline); side-by-side rows of the whole diff alone: {whole_rows:.1f} ms. Against raw"
        f" sqlite3 doing the same reads + the floor's difflib ({statistics.median(same_work[1]) * 1e3:.2f}"
        f" ms): {median_ratio(same_work):.2f}×; the first screen alone against difflib, texts in memory:"
        f" {median_ratio(alone):.2f}×"
    )
    return [
        result("select a 50-revision memory + diff", first, 1.5, note),
        result("  same, every line's word level", whole, None, "the second batch's work included"),
    ]


def apply(db: BenchDb, work: Path, rounds: int) -> Result:
    verdict_json = json.dumps(build_verdict(db))
    counts: dict[str, str] = {}

    def ours() -> Callable[[], object]:
        store = MemoryStore.open(fresh_copy(db.path, work))

        def run() -> None:
            outcome = apply_verdict(store, parse_verdict(json.loads(verdict_json)), run_id="bench")
            counts["ours"] = outcome.counts_line()
            store.close()

        return run

    def floor() -> Callable[[], object]:
        return raw_apply(fresh_copy(db.path, work), json.loads(verdict_json), db.now)

    times = side_by_side(rounds, ours, floor)
    return result("apply a verdict (500/500/3,000)", times, 3.0, counts.get("ours", ""))


def _rewrite(path: Path, db: BenchDb, seed: int) -> None:
    """1,000 outside rewrites, as the host makes them (content and updated_at, plain SQL)."""
    rng = random.Random(seed)
    ids = rng.sample(range(1, db.memories + 1), REWRITES)
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("BEGIN IMMEDIATE")
    conn.executemany(
        "UPDATE user_memories SET content = content || ' (rewritten by the host)', updated_at = ?"
        " WHERE id = ?",
        [(db.now + n, memory_id) for n, memory_id in enumerate(ids)],
    )
    conn.execute("COMMIT")
    conn.close()


def observe(db: BenchDb, work: Path, rounds: int) -> Result:
    found: dict[str, int] = {}

    def ours() -> Callable[[], object]:
        path = fresh_copy(db.path, work)
        store = MemoryStore.open(path)
        store.observe()
        _rewrite(path, db, seed=len(found))

        def run() -> None:
            found["ours"] = len(store.observe())
            store.close()

        return run

    def floor() -> Callable[[], object]:
        path = fresh_copy(db.path, work)
        _rewrite(path, db, seed=1)

        def run() -> None:
            raw = sqlite3.connect(path)
            found["floor"] = len(raw.execute("SELECT * FROM user_memories").fetchall())
            raw.close()

        return run

    times = side_by_side(rounds, ours, floor)
    steps, seconds = _deferred_indexing(db, work)
    note = (
        f"{found.get('ours', 0):,} observed revisions; floor = SELECT * of all {found.get('floor', 0):,}"
        f" rows; indexing left to the idle window: {steps} steps,"
        f" {seconds * 1e3:.0f} ms in all"
    )
    return result("observe 1,000 outside rewrites", times, 2.0, note)


def _deferred_indexing(db: BenchDb, work: Path) -> tuple[int, float]:
    """Steps and seconds of the indexing an observation of 1,000 rewrites leaves for idle time."""
    path = fresh_copy(db.path, work)
    store = MemoryStore.open(path)
    store.observe()
    _rewrite(path, db, seed=99)
    store.observe()
    steps, started = 0, time.perf_counter()
    while store.index_pending_changes():
        steps += 1
    seconds = time.perf_counter() - started
    store.close()
    return steps + 1, seconds


def _same_call(call: Callable[[str, str], object], old: str, new: str) -> Callable[[], Callable[[], object]]:
    """A round's factory for `side_by_side`: each round runs `call(old, new)`."""

    def run() -> object:
        return call(old, new)

    return lambda: run


def _first_screen(old: str, new: str) -> object:
    return DiffStream(old, new, side_by_side=False).take_screen(*PANEL_SCREEN)


def diff_cases(db: BenchDb, work: Path, rounds: int) -> list[Result]:
    """`bench_diff`'s cases (64 KiB texts: realistic edits and worst cases) in the same table.

    What the diff panel computes before its first paint (`DiffStream.take_screen` for the panel of
    `diff`) against line-level difflib on each, and in the note the whole word-level diff's ratio. The
    target (1.5) applies to the realistic cases; the worst cases are reported to show that nothing
    blows up.
    """
    from tests.bench import bench_diff

    rows = []
    for name, old, new in bench_diff.cases(random.Random(bench_diff.SEED)):
        baseline = _same_call(bench_diff.baseline, old, new)
        first = side_by_side(rounds, _same_call(_first_screen, old, new), baseline)
        whole = side_by_side(rounds, _same_call(word_diff, old, new), baseline)
        whole_ratio = median_ratio(whole)
        target = 1.5 if name.startswith("realistic") else None
        rows.append(result(f"diff {name}", first, target, f"whole word diff: {whole_ratio:.2f}×"))
    return rows
