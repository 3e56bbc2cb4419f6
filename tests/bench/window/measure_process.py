"""Measurements in fresh processes: peak memory (RSS) with every memory loaded, and start to first paint.

Peak memory: a child opens the store, builds the card list (model, view, delegate) over every memory,
pulls every row through the model in pages as scrolling does, paints, and reports `ru_maxrss`. The floor
is the size of the memories' content plus the peak RSS of a bare Qt process (a QApplication and a painted
QListView); the ratio is (ours - bare Qt) / content, target 3.
Start to first paint: `memory-dashboard --smoke` (and a frozen binary from `dist/` if there is one)
against `python -c "import PySide6.QtWidgets"`; reported, no target.
"""

from __future__ import annotations

import compileall
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

from tests.bench.generate import NOW, BenchDb
from tests.bench.timing import Result, fresh_copy

ROOT = Path(__file__).resolve().parents[3]
PYTHON = sys.executable


def compile_checkout(root: Path = ROOT) -> None:
    """Bytecode for every module of the checkout at `root` (into its `__pycache__`, ignored by git): with
    PYTHONDONTWRITEBYTECODE set, as here, a launch would otherwise compile each changed module anew, a
    cost no installed app pays."""
    for folder in ("app", "ui", "resources", "tests"):
        compileall.compile_dir(root / folder, quiet=1)


def child_env() -> dict[str, str]:
    """The environment of a measured child: offscreen Qt, the benchmarks' fixed clock, this checkout."""
    return {
        **os.environ,
        "QT_QPA_PLATFORM": "offscreen",
        "MEMORY_DASHBOARD_NOW": str(NOW),
        "PYTHONPATH": str(ROOT),
    }


def _child(mode: str, path: Path | None = None) -> dict[str, float]:
    args = [PYTHON, "-m", "tests.bench.window.memory_child", mode, *([str(path)] if path else [])]
    done = subprocess.run(
        args, capture_output=True, text=True, env=child_env(), cwd=ROOT, timeout=900, check=False
    )
    if done.returncode != 0:
        raise RuntimeError(f"memory child {mode} failed: {done.stderr[-2000:]}")
    return dict(json.loads(done.stdout.strip().splitlines()[-1]))


def peak_memory(db: BenchDb, work: Path, rounds: int) -> Result:
    path = fresh_copy(db.path, work)
    ours = [_child("dashboard", path)["peak_rss"] for _ in range(rounds)]
    bare = [_child("bare")["peak_rss"] for _ in range(rounds)]
    peak, qt = statistics.median(ours), statistics.median(bare)
    floor = db.content_bytes + qt
    ratio = (peak - qt) / db.content_bytes
    note = (
        f"content {db.content_bytes / 1e6:.1f} MB, bare Qt process {qt / 1e6:.1f} MB; "
        f"ratio = (ours - bare Qt) / content"
    )
    return Result("peak memory, every memory loaded", peak, floor, 3.0, unit="B", note=note,
                  ours_rounds=ours, floor_rounds=bare, ratio_override=ratio)  # fmt: skip


def run_child(args: list[str], env: dict[str, str] | None = None) -> tuple[float, float, str]:
    """Run a process to its end: `perf_counter` just before it started and after it ended, its stdout."""
    start = time.perf_counter()
    done = subprocess.run(
        args, capture_output=True, text=True, env=env or child_env(), cwd=ROOT, timeout=300, check=False
    )
    end = time.perf_counter()
    if done.returncode != 0:
        raise RuntimeError(f"{args[0]} exited {done.returncode}: {done.stderr[-2000:]!r}")
    return start, end, done.stdout


def wall_times(args: list[str], rounds: int) -> list[float]:
    times = []
    for _ in range(rounds):
        start, end, _output = run_child(args)
        times.append(end - start)
    return times


def frozen_binary() -> Path | None:
    for candidate in sorted((ROOT / "dist").glob("**/memory-dashboard")):
        if candidate.is_file() and os.access(candidate, os.X_OK):
            return candidate
    return None


def start_to_paint(db: BenchDb, work: Path, rounds: int) -> list[Result]:
    path = fresh_copy(db.path, work)
    floor = wall_times([PYTHON, "-c", "import PySide6.QtWidgets"], rounds)
    script = Path(PYTHON).parent / "memory-dashboard"
    results = []
    targets = [("venv", [str(script), "--db", str(path), "--smoke"])]
    frozen = frozen_binary()
    if frozen is not None:
        targets.append(("frozen", [str(frozen), "--db", str(path), "--smoke"]))
    for label, args in targets:
        try:
            ours = wall_times(args, rounds)
        except RuntimeError as exc:  # e.g. a frozen build older than the database's schema
            print(f"start to first paint ({label}) failed: {str(exc)[-300:]}", file=sys.stderr)
            continue
        results.append(
            Result(
                f"start to first paint ({label})",
                statistics.median(ours),
                statistics.median(floor),
                None,
                note=f"{' '.join(args[:1])} --smoke; floor = python -c 'import PySide6.QtWidgets'",
                ours_rounds=ours,
                floor_rounds=floor,
            )
        )
    return results
