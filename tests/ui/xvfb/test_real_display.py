"""The keyboard and focus tests under a real X server, and the first frame's: `x_keys.py` and
`x_first_frame.py` run in a pytest session of their own with QT_QPA_PLATFORM=xcb (this process's Qt is
offscreen, and Qt picks its platform once per process), on the display MEMORY_DASHBOARD_TEST_DISPLAY names
(`.ci/run` starts one), else on an Xvfb started here."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support import xvfb_display
from tests.ui.every_window import CASES

HERE = Path(__file__).parent
ROOT = HERE.parents[2]
SESSION_TIMEOUT_S = 900
THEMES = 2  # x_keys.py runs each test in the light and the dark theme
ONE_EACH = 6  # x_keys.py's tests that are not one per editing dialog (CASES)
FIRST_FRAME = 1  # x_first_frame.py's
EXPECTED = THEMES * (ONE_EACH + len(CASES)) + FIRST_FRAME  # a collection mistake cannot pass with fewer


@pytest.fixture(scope="module")
def display() -> Iterator[str]:
    given = os.environ.get(xvfb_display.DISPLAY_ENV)
    if given and xvfb_display.answers(given):
        yield given
        return
    # none given, or the given one has stopped answering (its server gone): Qt's xcb platform would
    # abort at its first connection, and the session would say nothing of why
    try:
        pid, started = xvfb_display.start()
    except xvfb_display.NoDisplay as exc:
        gone = f"{xvfb_display.DISPLAY_ENV}={given} does not answer. " if given else ""
        pytest.fail(f"no X server for the keyboard tests. {gone}{exc}", pytrace=False)
    try:
        yield started
    finally:
        xvfb_display.stop(pid)


def what_went_wrong(done: subprocess.CompletedProcess[str]) -> str:
    """The session's end, and what a crash leaves: the test it was in, Qt's and Python's fatal words
    (a crash's thread dump is long; its head says which thread and where)."""
    lines = done.stdout.splitlines()
    tests = [line for line in lines if "::" in line]  # "-v": a test's name before it runs, its verdict after
    said = [f"exit code {done.returncode}"]
    if tests:
        said.append(f"last test named: {tests[-1]}")
    qt_said = ("qt.", "This application", "QThread")
    said += [line for line in done.stderr.splitlines() if line.startswith(qt_said)]
    fatal = done.stderr.find("Fatal Python error")
    if fatal >= 0:
        said.append(done.stderr[fatal : fatal + 6000])
    said.append(done.stdout[-6000:])
    said.append(done.stderr[-3000:])
    return "\n".join(said)


def test_the_keyboard_path_under_a_real_x_server(display: str, tmp_path: Path) -> None:
    env = {**os.environ, "QT_QPA_PLATFORM": "xcb", "DISPLAY": display, "PYTHONUNBUFFERED": "1"}
    env.pop("WAYLAND_DISPLAY", None)
    command = [
        sys.executable, "-m", "pytest", str(HERE / "x_keys.py"), str(HERE / "x_first_frame.py"),
        "-o", "python_files=x_*.py",
        "-v", "-p", "no:cacheprovider", "--basetemp", str(tmp_path / "x"),
    ]  # fmt: skip
    done = subprocess.run(
        command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=SESSION_TIMEOUT_S
    )
    assert done.returncode == 0, what_went_wrong(done)
    summary = done.stdout.strip().splitlines()[-1].strip("= ")
    ran = rf"{EXPECTED} passed(, \d+ warnings?)? in [\d.]+s( \([\d:]+\))?"
    assert re.fullmatch(ran, summary), f"expected {EXPECTED} passed\n{what_went_wrong(done)}"
