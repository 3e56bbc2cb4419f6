"""Timing helpers and the result row of one measurement (ours, floor, ratio, target)."""

from __future__ import annotations

import gc
import shutil
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path


@dataclass
class Result:
    """One line of the table. `ours`/`floor` are median seconds, or bytes for memory rows (`unit`)."""

    name: str
    ours: float
    floor: float
    target: float | None  # the ratio to stay at or under; None = report only
    unit: str = "s"
    note: str = ""
    ours_rounds: list[float] = field(default_factory=list)
    floor_rounds: list[float] = field(default_factory=list)
    ratio_override: float | None = None  # for rows whose ratio is not ours / floor (peak memory)

    @property
    def ratio(self) -> float:
        if self.ratio_override is not None:
            return self.ratio_override
        return self.ours / self.floor if self.floor else float("inf")

    @property
    def verdict(self) -> str:
        if self.target is None:
            return "report"
        return "pass" if self.ratio <= self.target else "MISS"


@dataclass(frozen=True)
class EndedAt:
    """What a timed function returns when its work ended before it could return: a signal's moment,
    caught by a slot (a worker thread holding the interpreter delays the return, not the work)."""

    seconds: float  # time.perf_counter()


def timed(function: Callable[[], object]) -> float:
    gc.collect()
    start = time.perf_counter()
    outcome = function()
    end = outcome.seconds if isinstance(outcome, EndedAt) else time.perf_counter()
    return end - start


def median_of(rounds: int, setup: Callable[[], Callable[[], object]]) -> list[float]:
    """`rounds` timings of the function `setup()` returns (setup itself is not timed)."""
    return [timed(setup()) for _ in range(rounds)]


def side_by_side(
    rounds: int,
    ours: Callable[[], Callable[[], object]],
    floor: Callable[[], Callable[[], object]],
) -> tuple[list[float], list[float]]:
    """Alternate ours and the floor round by round, so drift (caches, heat) hits both alike."""
    ours_times: list[float] = []
    floor_times: list[float] = []
    for _ in range(rounds):
        floor_times.append(timed(floor()))
        ours_times.append(timed(ours()))
    return ours_times, floor_times


def median_ratio(times: tuple[list[float], list[float]]) -> float:
    """Ours over the floor, medians of rounds timed side by side."""
    return statistics.median(times[0]) / statistics.median(times[1])


def result(name: str, times: tuple[list[float], list[float]], target: float | None, note: str = "") -> Result:
    ours_times, floor_times = times
    return Result(
        name,
        statistics.median(ours_times),
        statistics.median(floor_times),
        target,
        note=note,
        ours_rounds=ours_times,
        floor_rounds=floor_times,
    )


def fresh_copy(source: str, work: Path) -> Path:
    """A private copy of a generated file, for measurements that write (the cache stays pristine)."""
    target = work / "work.db"
    for suffix in ("", "-wal", "-shm"):
        Path(f"{target}{suffix}").unlink(missing_ok=True)
    shutil.copyfile(source, target)
    return target
