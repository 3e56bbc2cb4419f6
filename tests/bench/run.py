"""Run every benchmark and print ours vs its floor: `python -m tests.bench.run [--quick]`.

Each measurement runs several rounds, alternating our code and its floor on the same generated data in
the same process, and reports median times and their ratio against the target. `--quick` uses 10,000
memories (under a minute); the default is 100,000. `--only NAME` runs the measurements whose key
contains NAME. The figures also go to a JSON file (`--json`, default `bench-results.json`).

The `latency` rows (`tests.bench.window.measure_latency`: from an input event to the paint showing its result,
with the app's real timers) run at 300, 10,000 and 100,000 memories (`--quick`: 300 and 10,000;
`--memories N`: N only) and go to the JSON as `rows`: [{name, memories, median_ms, target_ms}]. With
`--only latency` the file holds exactly `{"rows": [...]}`.
"""

from __future__ import annotations

import argparse
import ctypes
import importlib
import json
import os
import platform
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import asdict
from pathlib import Path

from tests.bench.generate import NOW, BenchDb, Spec, cached
from tests.bench.timing import Result

Measurement = Callable[[BenchDb, Path, int], list[Result]]
LATENCY = "latency"


def _call(module: str, function: str, *args: object) -> Result:
    """Import a measurement module only when it runs (the GUI ones pull in Qt)."""
    return getattr(importlib.import_module(f"tests.bench.{module}"), function)(*args)  # type: ignore[no-any-return]


def _measurements(quick: bool) -> dict[str, Measurement]:
    cards = 1_500 if quick else None  # quick mode scrolls through the first 1,500 cards only
    return {
        "open": lambda db, work, n: [_call("window.measure_gui", "open_first_screen", db, work, n)],
        "scroll": lambda db, work, n: [_call("window.measure_gui", "scroll", db, work, 1, cards)],
        "search": lambda db, work, n: [
            _call("headless.measure_store", "search", db, work, n, db.rare_term, "rare term"),
            _call("headless.measure_store", "search", db, work, n, db.common_term, "common term"),
        ],
        "diff": lambda db, work, n: [
            *_call("headless.measure_store", "diff", db, work, n),  # type: ignore[misc]
            *_call("window.measure_gui", "diff_panel", db, work, n),
        ],
        "diffcases": lambda db, work, n: list(_call("headless.measure_store", "diff_cases", db, work, n)),  # type: ignore[call-overload]
        "apply": lambda db, work, n: [_call("headless.measure_store", "apply", db, work, n)],
        "observe": lambda db, work, n: [_call("headless.measure_store", "observe", db, work, n)],
        "bulk": lambda db, work, n: [
            _call("headless.measure_bulk", "bulk_dismiss", db, work, n),
            _call("headless.measure_bulk", "retire_dry_run", db, work, n),
            _call("headless.measure_bulk", "every_session_dry_run", db, work, n),
            _call("headless.measure_bulk", "trust_filter", db, work, n),
        ],
        "archive": lambda db, work, n: [_call("headless.measure_evidence", "archive_pass", db, work, n)],
        "runs": lambda db, work, n: [_call("headless.measure_evidence", "runs_list", db, work, n)],
        "digest": lambda db, work, n: [_call("headless.measure_digest", "digest", db, work, n)],
        "tidy": lambda db, work, n: [
            _call("headless.measure_tidy", "tidy", db, work, n),
            _call("headless.measure_tidy", "tidy_projects", db, work, n),
        ],
        "postgres": lambda db, work, n: list(_call("headless.measure_postgres", "store_rows", db, work, n)),  # type: ignore[call-overload]
        "hub": lambda db, work, n: list(_call("headless.measure_hub", "hub_rows", db, work, n)),  # type: ignore[call-overload]
        "hub-window": lambda db, work, n: list(
            _call("window.measure_hub_window", "hub_window_rows", db, work, n)
        ),  # type: ignore[call-overload]
        "memory": lambda db, work, n: [
            _call("window.measure_process", "peak_memory", db, work, max(1, n // 3))
        ],
        "start": lambda db, work, n: list(_call("window.measure_process", "start_to_paint", db, work, n)),  # type: ignore[call-overload]
        "sight": lambda db, work, n: list(_call("window.measure_sight", "first_sight", db, work, n)),  # type: ignore[call-overload]
        "blame": lambda db, work, n: [_call("headless.measure_history", "blame", db, work, n)],
        "asof": lambda db, work, n: list(_call("headless.measure_history", "profile_as_of", db, work, n)),  # type: ignore[call-overload]
    }


def _latency_sizes(quick: bool, memories: int | None) -> list[int]:
    if memories:
        return [memories]
    return [300, 10_000] if quick else [300, 10_000, 100_000]


def _selected(key: str, only: list[str]) -> bool:
    return not only or any(name in key for name in only)


def _latency(sizes: list[int], work: Path, rounds: int) -> tuple[list[dict[str, object]], list[str]]:
    """The latency rows (printed as a table of their own) as JSON, and what failed."""
    latency = importlib.import_module("tests.bench.window.measure_latency")
    rows, failures = latency.measure([cached(Spec.for_size(size)) for size in sizes], work, rounds)
    latency.print_table(rows)
    return [row.as_json() for row in rows], list(failures)


def guard_none_refcount() -> None:
    """PySide6 6.12's abi3 build drops a reference to None, True or False on calls that return them
    (painter.save(), processEvents(), index.data() of an empty role, bool getters...). On Python < 3.12,
    where these are not immortal, a process aborts (`none_dealloc`, `bool_dealloc`) after a few thousand
    such calls; give them enough references to outlive any benchmark. (The product is exposed too: see
    tests/bench/RESULTS.md.)
    """
    if sys.version_info < (3, 12):
        for constant in (None, True, False):
            ctypes.c_ssize_t.from_address(id(constant)).value += 1 << 40


def _format(value: float, unit: str) -> str:
    if unit == "B":
        return f"{value / 1e6:8.1f} MB"
    return f"{value * 1e3:8.1f} ms" if value < 10 else f"{value:8.2f} s "


def print_table(results: list[Result]) -> None:
    print(f"\n{'measurement':48} {'ours':>11} {'floor':>11} {'ratio':>7} {'target':>7}  result")
    for row in results:
        target = f"≤{row.target:g}×" if row.target is not None else "-"
        print(
            f"{row.name:48} {_format(row.ours, row.unit)} {_format(row.floor, row.unit)} "
            f"{row.ratio:6.2f}× {target:>7}  {row.verdict}"
        )
    for row in results:
        if row.note:
            print(f"  {row.name}: {row.note}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="10,000 memories, fewer rounds")
    parser.add_argument("--memories", type=int, help="override the number of memories")
    parser.add_argument("--rounds", type=int, help="rounds per measurement (default 5, quick 3)")
    parser.add_argument("--only", action="append", default=[], help="run only measurements matching NAME")
    parser.add_argument("--json", default="bench-results.json", help="where to write the figures")
    args = parser.parse_args(argv)
    guard_none_refcount()
    os.environ["MEMORY_DASHBOARD_NOW"] = str(NOW)
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    memories = args.memories or (10_000 if args.quick else 100_000)
    rounds = args.rounds or (3 if args.quick else 5)
    started = time.perf_counter()
    measurements = {key: m for key, m in _measurements(args.quick).items() if _selected(key, args.only)}
    db = cached(Spec.for_size(memories)) if measurements else None
    if db is not None:
        print(
            f"data: {db.path} ({Path(db.path).stat().st_size / 1e6:.0f} MB, {db.memories:,} memories); "
            f"{rounds} rounds",
            flush=True,
        )
    results: list[Result] = []
    failures: list[str] = []
    latency_rows: list[dict[str, object]] | None = None
    with tempfile.TemporaryDirectory(prefix="mdash-bench-") as tmp:
        for key, measure in measurements.items():
            assert db is not None
            step = time.perf_counter()
            try:
                results.extend(measure(db, Path(tmp), rounds))
            except Exception as exc:  # one broken measurement must not hide the others
                print(f"  {key} FAILED: {exc!r}"[:600], file=sys.stderr)
                failures.append(key)
            print(f"  {key}: {time.perf_counter() - step:.1f} s", file=sys.stderr, flush=True)
        if _selected(LATENCY, args.only):
            latency_rows, failed = _latency(_latency_sizes(args.quick, args.memories), Path(tmp), rounds)
            failures += [f"{LATENCY}: {name}" for name in failed]
    seconds = round(time.perf_counter() - started, 1)
    report: dict[str, object] = {"rows": latency_rows}  # `--only latency`: exactly the latency rows
    if db is not None:
        print_table(results)
        report = {
            "memories": db.memories,
            "revisions": db.revisions,
            "pending": db.pending,
            "rounds": rounds,
            "python": sys.version.split()[0],
            "platform": platform.platform(),
            "seconds": seconds,
            "failed": failures,
            "results": [{**asdict(row), "ratio": row.ratio, "verdict": row.verdict} for row in results],
            **({"rows": latency_rows} if latency_rows is not None else {}),
        }
    Path(args.json).write_text(json.dumps(report, indent=2))
    print(f"\nwritten: {args.json} ({seconds} s)" + (f"; FAILED: {failures}" if failures else ""))
    return 1 if failures else 0


if __name__ == "__main__":
    code = main()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)  # skip interpreter teardown: PySide6 6.12 can crash collecting windows' leftovers
