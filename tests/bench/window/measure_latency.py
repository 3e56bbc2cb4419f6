"""End-to-end latencies as a person feels them: `python -m tests.bench.run --only latency`.

Every row is timed from the input event to the end of the paint that shows its result, with the app's
real timers (no debounce switched off): the real `MainWindow` and `Controller` with its worker thread,
offscreen (`tests.bench.window.latency_window`). A paint counts only if what it paints is the result (see each
row); waiting for it runs the event loop, never a fixed sleep. Rows, at each size (median of rounds):

- launch to first card painted (venv): a fresh `python -m tests.bench.window.launch_child DB` (the app's
  `memory-dashboard --db DB --smoke`), from just before the process is started to the end of the card
  list's first paint showing a loaded card. Against a bare PySide6 process (QMainWindow + QListView,
  `python -m tests.bench.window.paint_probe`) timed the same way in the same rounds; the ratio is in the
  table.
  The app's modules are compiled to bytecode first, as an installed app or a frozen build has them (a
  checkout run with PYTHONDONTWRITEBYTECODE=1 would compile every module again at every launch).
  Frozen: the whole `--smoke` run of a build in `dist/` (as `measure_process.start_to_paint`, an upper
  bound: it includes exiting), skipped when there is none.
- J: the key on the card list → the history table painted with the next card's revisions and the diff
  view painted with the first screen of the diff asked for once they arrived (its newest revision's).
- search: five letters typed into the search field one at a time, 100 ms apart (QTimer) → from the
  last key to the card list painted with the listing for those five letters on screen, its cards loaded.
  Rare term: the first five letters of `BenchDb.rare_term` (0.5% of memories); common term:
  `common_term` + "s" ("sions", in about 70% of them).
- Save: the selected card scrolled into view, Enter opens the editor and the text changes (untimed);
  from the click on Save → the card painted with the new content and the history table painted with
  it as its newest row.
- Page Down on the card list → the list painted scrolled, every card on screen loaded.
- outside rewrite: another process (plain sqlite3, BEGIN IMMEDIATE, UPDATE content and updated_at,
  nothing else) commits a rewrite of the selected memory → from its COMMIT to the card painted with the
  new text (the history's observed row is in the note). The two processes share `perf_counter`'s clock.
- Merge: the preview of the last two cards on screen open (untimed); from the click on Apply → the
  card list painted with the kept card's merged text and without the absorbed one
  (`tests.bench.window.latency_merge`).

Notes give where the time went: medians of the moments signals first fired after the input, of when
each part of the result was painted, and of how long the result's own paint took. The rounds
themselves are in `tests.bench.window.latency_rounds`.
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

from tests.bench.generate import BenchDb
from tests.bench.timing import fresh_copy
from tests.bench.window.latency_merge import merge_round
from tests.bench.window.latency_rounds import (
    PAINT_ALONE,
    OutsideWriter,
    Round,
    next_card,
    outside_rewrite,
    page_down,
    save_edit,
    search,
)
from tests.bench.window.latency_window import BenchWindow
from tests.bench.window.measure_process import (
    PYTHON,
    child_env,
    compile_checkout,
    frozen_binary,
    run_child,
)
from ui.window.app import FIRST_CARDS

SEARCH_LETTERS = 5
LAUNCH_TARGET_MS = 600
VENV = "launch to first card painted (venv)"
FROZEN = "launch to first card painted (frozen)"


@dataclass(frozen=True)
class LatencyRow:
    name: str
    memories: int
    median_ms: float
    target_ms: float | None
    rounds_ms: list[float] = field(default_factory=list)
    note: str = ""
    floor_ms: float | None = None  # the bare window, for the launch rows' ratio

    def as_json(self) -> dict[str, object]:
        return {
            "name": self.name,
            "memories": self.memories,
            "median_ms": round(self.median_ms, 1),
            "target_ms": self.target_ms,
        }

    @property
    def verdict(self) -> str:
        if self.target_ms is None:
            return "report"
        return "pass" if self.median_ms <= self.target_ms else "MISS"


def _row(
    name: str, memories: int, target_ms: float | None, rounds: list[Round], note: str = ""
) -> LatencyRow:
    """The median of the rounds' results; the note adds the medians of where the time went."""
    results = [one["result"] * 1e3 for one in rounds]
    steps: dict[str, list[float]] = {}
    for one in rounds:
        for step, seconds in one.items():
            if step != "result":
                steps.setdefault(step, []).append(seconds * 1e3)
    medians = {step: statistics.median(times) for step, times in steps.items()}
    order = sorted(medians, key=lambda step: (step == PAINT_ALONE, medians[step]))  # as they happen
    parts = [f"{step} {medians[step]:.0f} ms" for step in order]
    if any(len(times) < len(rounds) for times in steps.values()):
        parts.append(f"(of {len(rounds)} rounds)")
    text = "; ".join(part for part in (", ".join(parts), note) if part)
    return LatencyRow(name, memories, statistics.median(results), target_ms, results, text)


# -- launch --------------------------------------------------------------------------------------------


def _paint_time(args: list[str], env: dict[str, str]) -> float:
    """Seconds from just before the child started to the paint it reports (its last stdout line)."""
    start, _end, output = run_child(args, env)
    return float(output.split()[-1]) - start


def _frozen_first_cards(frozen: Path, db: Path, env: dict[str, str]) -> float:
    """Seconds from just before the frozen app started to the first cards its `--smoke` run reports
    painted (`ui.window.app.FIRST_CARDS`: the monotonic clock, as `perf_counter` here)."""
    start, _end, output = run_child([str(frozen), "--db", str(db), "--smoke"], env)
    lines = [line for line in output.splitlines() if line.startswith(FIRST_CARDS)]
    if not lines:
        raise RuntimeError(f"{frozen.name} --smoke printed no {FIRST_CARDS!r} line (a build before it?)")
    return float(lines[0].split()[-1]) - start


def launch(dbs: list[BenchDb], copies: dict[int, Path], work: Path, rounds: int) -> list[LatencyRow]:
    compile_checkout()
    env = {**child_env(), "XDG_CONFIG_HOME": str(work / "config"), "MEMORY_DASHBOARD_DATA_DIR": str(work)}
    bare: list[float] = []
    ours: dict[int, list[float]] = {db.memories: [] for db in dbs}
    for _ in range(rounds):  # alternated, so a busy moment of the machine hits both
        bare.append(_paint_time([PYTHON, "-m", "tests.bench.window.paint_probe"], env))
        for db in dbs:
            args = [PYTHON, "-m", "tests.bench.window.launch_child", str(copies[db.memories])]
            ours[db.memories].append(_paint_time(args, env))
    floor_ms = statistics.median(bare) * 1e3
    rows = [LatencyRow("bare PySide6 window to first paint", 0, floor_ms, None, [t * 1e3 for t in bare])]
    for db in dbs:
        row = _row(VENV, db.memories, LAUNCH_TARGET_MS, [{"result": t} for t in ours[db.memories]])
        rows.append(replace(row, floor_ms=floor_ms))
    frozen = frozen_binary()
    if frozen is None:
        print("  launch (frozen): no frozen build in dist/, skipped", file=sys.stderr)
        return rows
    for db in dbs:
        try:
            times = [_frozen_first_cards(frozen, copies[db.memories], env) for _ in range(rounds)]
        except (RuntimeError, ValueError) as exc:  # e.g. a build older than the database's schema
            print(f"  launch (frozen) failed: {str(exc)[-300:]}", file=sys.stderr)
            break
        note = f"{frozen.name} --smoke: process start to the first cards painted (its own line)"
        row = _row(FROZEN, db.memories, LAUNCH_TARGET_MS, [{"result": t} for t in times], note)
        rows.append(replace(row, floor_ms=floor_ms))
    return rows


# -- in the window ------------------------------------------------------------------------------------


RowRounds = Callable[[int], tuple[list[Round], str]]  # rounds → the rounds and a note


def _each(one: Callable[[int], Round]) -> RowRounds:
    return lambda rounds: ([one(number) for number in range(1, rounds + 1)], "")


def _saves(bench: BenchWindow) -> RowRounds:
    def run(rounds: int) -> tuple[list[Round], str]:
        diff_on_edit: list[bool] = []
        done = [save_edit(bench, number, diff_on_edit) for number in range(1, rounds + 1)]
        return done, f"the diff shows the edit in {sum(diff_on_edit)} of {len(diff_on_edit)} rounds"

    return run


def _outside_rewrites(bench: BenchWindow, path: Path) -> RowRounds:
    def run(rounds: int) -> tuple[list[Round], str]:
        outside = OutsideWriter(path)
        try:
            return [outside_rewrite(bench, outside, number) for number in range(1, rounds + 1)], ""
        finally:
            outside.close()

    return run


def in_window(db: BenchDb, path: Path, rounds: int, failures: list[str]) -> list[LatencyRow]:
    """Every in-window row at one size, on one window (writes come last: they change the file)."""
    common = db.common_term + "s"  # "sion" is followed by "s" in about 70% of the memories
    rare = db.rare_term[:SEARCH_LETTERS]
    assert len(common) == len(rare) == SEARCH_LETTERS
    bench = BenchWindow(path)
    measured: list[tuple[str, float, RowRounds]] = [
        ("J → next card's history and diff painted", 100, _each(lambda _: next_card(bench))),
        ("Page Down on the card list → next page painted", 50, _each(lambda _: page_down(bench))),
        (
            f"search, 5 letters typed → hits painted (rare term {rare!r})",
            150,
            _each(lambda _: search(bench, rare)),
        ),
        (
            f"search, 5 letters typed → hits painted (common term {common!r})",
            150,
            _each(lambda _: search(bench, common)),
        ),
        ("Enter, edit, Save → card and history show the edit", 100, _saves(bench)),
        ("outside rewrite committed → card shows it", 1000, _outside_rewrites(bench, path)),
        ("Merge preview, Apply → cards show the merge", 100, _each(lambda n: merge_round(bench, n))),
    ]
    rows = []
    try:
        for name, target, run in measured:
            try:
                done, note = run(rounds)
            except Exception as exc:  # one broken row must not hide the others
                print(f"  {name} at {db.memories:,} FAILED: {exc!r}"[:600], file=sys.stderr)
                failures.append(f"{name} at {db.memories}")
                continue
            rows.append(_row(name, db.memories, target, done, note))
    finally:
        bench.close()
    return rows


# -- all rows ---------------------------------------------------------------------------------------------


def measure(dbs: list[BenchDb], work: Path, rounds: int) -> tuple[list[LatencyRow], list[str]]:
    """Every latency row at every size: launches `rounds` times, interactions `2 * rounds + 1` times."""
    copies = {}
    for db in dbs:
        folder = work / f"latency-{db.memories}"
        folder.mkdir(exist_ok=True)
        copies[db.memories] = fresh_copy(db.path, folder)
    failures: list[str] = []
    rows: list[LatencyRow] = []
    try:
        rows += launch(dbs, copies, work, rounds)
    except Exception as exc:
        print(f"  launch FAILED: {exc!r}"[:600], file=sys.stderr)
        failures.append("launch")
    for db in dbs:
        step = time.perf_counter()
        try:
            rows += in_window(db, copies[db.memories], 2 * rounds + 1, failures)
        except Exception as exc:
            print(f"  window at {db.memories:,} FAILED: {exc!r}"[:600], file=sys.stderr)
            failures.append(f"window at {db.memories}")
        print(
            f"  latency at {db.memories:,}: {time.perf_counter() - step:.0f} s", file=sys.stderr, flush=True
        )
    return rows, failures


def print_table(rows: list[LatencyRow]) -> None:
    width = max([len(row.name) for row in rows] + [16])
    print(f"\n{'latency (median)':{width}} {'memories':>9} {'median':>10} {'target':>8}  result")
    for row in rows:
        target = f"{row.target_ms:g} ms" if row.target_ms is not None else "-"
        ratio = ""
        if row.floor_ms:
            times = row.median_ms / row.floor_ms
            ratio = f"  {times:.1f}× bare window ({'pass' if times <= 3 else 'MISS'} ≤3×)"
        print(
            f"{row.name:{width}} {row.memories:>9,} {row.median_ms:7.1f} ms {target:>8}  {row.verdict}{ratio}"
        )
    for row in rows:
        if row.note:
            print(f"  {row.name} at {row.memories:,}: {row.note}")
