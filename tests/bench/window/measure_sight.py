"""First sight under a real X server: start → screen stable, ours against DB Browser for SQLite.

`python -m tests.bench.run --only sight` (not run by `.ci/run`). Each round starts Xvfb
(`tests/support/xvfb_display.py`) and, alternating, launches `memory-dashboard --db COPY` (the real
launch, not `--smoke`) and `sqlitebrowser COPY` on copies of the same generated file, while
`tests.bench.window.screen_watch` captures the screen every 100 ms. From the process's start it reports
when the screen first changed (the window mapped), when it last changed (the screen stable) and how many
visible changes followed the first one (the goal: none). Both run warm (a file our app has opened
before) and on a file neither has opened (our tables dropped from the copy). A bare PySide6 window
(`tests.bench.window.paint_probe --stay`: a QMainWindow and a list, nothing read) is launched in the same
rounds and reported beside DB Browser: the floor any window of this toolkit starts from. Without
`sqlitebrowser` (Debian: `apt-get install sqlitebrowser`) or `Xvfb` the row is skipped with a message.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import signal
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from tests.bench.generate import NOW, BenchDb
from tests.bench.timing import Result
from tests.bench.window.measure_process import compile_checkout
from tests.support import xvfb_display

ROOT = Path(os.environ.get("MEMORY_DASHBOARD_BENCH_ROOT") or Path(__file__).resolve().parents[3])
PYTHON = sys.executable
TARGET = 1.25  # start → stable, at most this many times DB Browser for SQLite's


@dataclass(frozen=True, slots=True)
class Sight:
    mapped: float  # seconds from the process's start to the screen's first change
    stable: float  # to its last change
    changes_after: int  # visible changes after the first


def _env(display: str, config: Path) -> dict[str, str]:
    return {
        **os.environ,
        "DISPLAY": display,
        "QT_QPA_PLATFORM": "xcb",
        "MEMORY_DASHBOARD_NOW": str(NOW),
        "PYTHONPATH": str(ROOT),
        "XDG_CONFIG_HOME": str(config),
        "MEMORY_DASHBOARD_DATA_DIR": str(config / "data"),
    }


def _watch(args: list[str], env: dict[str, str]) -> Sight:
    watcher = subprocess.Popen(
        [PYTHON, "-m", "tests.bench.window.screen_watch"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        env=env,
        cwd=ROOT,
    )
    assert watcher.stdin is not None and watcher.stdout is not None
    if watcher.stdout.readline().strip() != "ready":
        raise RuntimeError("the screen watcher did not start")
    watcher.stdin.write("go\n")
    watcher.stdin.flush()
    started = time.perf_counter()
    program = subprocess.Popen(
        args, env=env, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True
    )
    try:
        report = json.loads(watcher.stdout.readline())
    finally:
        os.killpg(program.pid, signal.SIGTERM)
        program.wait(30)
        watcher.wait(30)
    changes = [float(t) - started for t in report["changes"]]
    if not changes:
        raise RuntimeError(f"{args[0]}: nothing appeared on the screen")
    return Sight(changes[0], changes[-1], len(changes) - 1)


def never_opened(source: Path, target: Path) -> Path:
    """A copy of `source` without the dashboard's tables: a host file no dashboard has opened."""
    shutil.copyfile(source, target)
    conn = sqlite3.connect(target)
    try:
        tables = "SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'mdash%' ORDER BY "
        for (name,) in conn.execute(tables + "sql NOT LIKE 'CREATE VIRTUAL%'").fetchall():
            exists = conn.execute("SELECT 1 FROM sqlite_master WHERE name = ?", (name,)).fetchone()
            if exists:  # a virtual table's own tables went with it
                conn.execute(f'DROP TABLE "{name}"')
        conn.commit()
    finally:
        conn.close()
    return target


def _start_x() -> tuple[subprocess.Popen[bytes], str]:
    """An X server on a display number no other server holds, in the file system or the abstract socket
    namespace (a server of another sandbox sharing the network namespace would take our clients)."""
    sockets = Path("/proc/net/unix").read_text() if Path("/proc/net/unix").exists() else ""
    for number in random.sample(range(300, 1000), 40):
        if f"/tmp/.X11-unix/X{number}" in sockets or Path(f"/tmp/.X{number}-lock").exists():
            continue
        read_end, write_end = os.pipe()
        server = subprocess.Popen(
            ["Xvfb", f":{number}", "-displayfd", str(write_end), "-screen", "0", xvfb_display.SCREEN],
            pass_fds=(write_end,),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        os.close(write_end)
        with os.fdopen(read_end) as ready:
            if ready.readline().strip() == str(number):  # written once the server accepts clients
                return server, f":{number}"
        server.kill()
        server.wait()
    raise RuntimeError("no free X display")


def _launch(which: str, db: BenchDb, work: Path, fresh: bool) -> Sight:
    """One launch of `which` ("ours", "theirs" or "bare") on a fresh copy, on an X server of its own."""
    copy = work / f"sight-{which}.db"
    for leftover in (copy, Path(f"{copy}-wal"), Path(f"{copy}-shm")):
        leftover.unlink(missing_ok=True)
    if fresh:
        never_opened(Path(db.path), copy)
    else:
        shutil.copyfile(db.path, copy)
    if which == "ours":
        args = [str(Path(PYTHON).parent / "memory-dashboard"), "--db", str(copy)]
        if not Path(args[0]).exists():
            args = [PYTHON, "-m", "ui", "--db", str(copy)]
    elif which == "theirs":
        args = ["sqlitebrowser", str(copy)]
    else:
        args = [PYTHON, "-m", "tests.bench.window.paint_probe", "--stay"]
    server, display = _start_x()
    try:
        with tempfile.TemporaryDirectory(dir=work) as config:
            return _watch(args, _env(display, Path(config)))
    finally:
        server.terminate()
        server.wait(30)


def _rounds(db: BenchDb, work: Path, rounds: int, fresh: bool) -> dict[str, list[Sight]]:
    """Each contestant's sights, launched in turn in every round."""
    seen: dict[str, list[Sight]] = {"ours": [], "theirs": [], "bare": []}
    for index in range(rounds + 1):  # the first round warms the page cache and is dropped
        for which, sights in seen.items():
            sight = _launch(which, db, work, fresh)
            if index:
                sights.append(sight)
    return seen


def _result(name: str, seen: dict[str, list[Sight]]) -> list[Result]:
    def ms(values: list[float]) -> str:
        return f"{statistics.median(values) * 1e3:.0f} ms"

    def row(what: str, contestant: list[Sight], target: float | None, note: str) -> Result:
        theirs = seen["theirs"]
        return Result(
            f"start → screen stable, Xvfb ({what})",
            statistics.median([s.stable for s in contestant]),
            statistics.median([s.stable for s in theirs]),
            target,
            note=f"window mapped {ms([s.mapped for s in contestant])} vs {ms([s.mapped for s in theirs])}; "
            + note,
            ours_rounds=[s.stable for s in contestant],
            floor_rounds=[s.stable for s in theirs],
        )

    changes = ", ".join(f"{which} {[s.changes_after for s in sights]}" for which, sights in seen.items())
    load = f"load {os.getloadavg()[0]:.2f}"
    return [
        row(name, seen["ours"], TARGET, f"visible changes after the first paint: {changes}; {load}"),
        row(f"{name}: a bare PySide6 window, the floor", seen["bare"], None, load),
    ]


def first_sight(db: BenchDb, work: Path, rounds: int) -> list[Result]:
    """The row, warm and never opened; [] with a message when a program it needs is missing."""
    missing = [name for name in ("Xvfb", "sqlitebrowser") if shutil.which(name) is None]
    if missing:
        print(f"first sight skipped: {', '.join(missing)} not installed", file=sys.stderr)
        return []
    compile_checkout(ROOT)  # the launches pay no compiling of a module changed since the last run
    results = []
    for name, fresh in (("warm", False), ("never opened", True)):
        try:
            seen = _rounds(db, work, rounds, fresh)
        except (RuntimeError, OSError, subprocess.SubprocessError, sqlite3.Error) as exc:
            print(f"first sight ({name}) failed: {exc!r}", file=sys.stderr)
            continue
        results += _result(name, seen)
    return results
