"""The window's view of the past, timed as a person feels it, in the real window
(`tests.bench.window.latency_window.BenchWindow`: the shipped MainWindow and Controller, offscreen, on a
private copy of the file): from OK in the As of… dialog to

- the first cards of the past painted (`first cards`),
- the selected memory's history up to the instant painted in the panel (`history`),
- every memory of the past listed and painted (`whole past`).

Each round starts from a settled window looking at now, and leaves the past (Back to now) after.

`python -m tests.bench.window.measure_as_of_window FILE [FILE ...] [--rounds N] [--days-back D ...]`

The file is copied first (a window observes and indexes what it opens). The probes also read the window
of an older build (the view of a QTreeWidget, no panel, no first screen), to time a build before this one
with the same script: `PYTHONPATH=<that build>`.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import tempfile
import time
from pathlib import Path

from PySide6.QtCore import QDateTime, QTimeZone

from tests.bench.window.latency_window import BenchWindow
from tests.bench.window.paint_probe import PaintProbe, wait_for_paints
from ui.dialogs.as_of import AsOfDialog

DAY_MS = 86_400_000


def one_round(bench: BenchWindow, at: int) -> dict[str, float]:
    """Seconds from OK to each paint, and how many memories the past listed."""
    window = bench.window
    bench.activate()
    window.ask_as_of()
    dialog = window.findChildren(AsOfDialog)[-1]
    dialog.when.setDateTime(QDateTime.fromMSecsSinceEpoch(at, QTimeZone.utc()))
    view = window.as_of_view
    model = view.list.model()
    panel = getattr(view, "panel", None)
    probes = {
        "first cards": PaintProbe(view.list.viewport(), lambda: window.looking_back and model.rowCount() > 0),
        "whole past": PaintProbe(view.list.viewport(), lambda: bool(getattr(view, "complete", True))),
    }
    if panel is not None:
        probes["history"] = PaintProbe(
            panel.revisions.viewport(),
            lambda: window.looking_back and panel.history_memory_id == view.current_id() is not None,
        )
    start = time.perf_counter()
    try:
        dialog.accept()  # the dialog's OK
        wait_for_paints(list(probes.values()), "as of", timeout_s=300)
    finally:
        for probe in probes.values():
            probe.remove()
    found = {name: (probe.at or start) - start for name, probe in probes.items()}
    found["listed"] = float(getattr(getattr(view, "model", model), "total", model.rowCount()))
    window.leave_as_of()
    bench.settle()
    return found


def measure(path: Path, rounds: int, days_back: list[int]) -> list[str]:
    lines: list[str] = []
    with tempfile.TemporaryDirectory(prefix="asof-window-") as folder:
        copy = Path(folder) / "work.db"
        shutil.copyfile(path, copy)
        bench = BenchWindow(copy)
        try:
            now = bench.controller.store.now()
            memories = bench.controller.store.counts().total
            for days in days_back:
                times = [one_round(bench, now - days * DAY_MS) for _ in range(rounds)]
                lines.append(_line(memories, days, times))
                print(lines[-1], flush=True)
        finally:
            bench.close()
    return lines


def _line(memories: int, days: int, times: list[dict[str, float]]) -> str:
    parts = [f"{memories:,} memories, as of {days} d back ({int(times[0]['listed']):,} listed then):"]
    for name in ("first cards", "history", "whole past"):
        each = [round[name] for round in times if name in round]
        if each:
            shown = ", ".join(f"{value * 1e3:.0f}" for value in each)
            parts.append(f"{name} median {statistics.median(each) * 1e3:.0f} ms ({shown})")
    return " ".join(parts[:1]) + " " + "; ".join(parts[1:])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="+", type=Path)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--days-back", type=int, nargs="+", default=[30])
    args = parser.parse_args()
    for path in args.files:
        measure(path, args.rounds, args.days_back)


if __name__ == "__main__":
    main()
