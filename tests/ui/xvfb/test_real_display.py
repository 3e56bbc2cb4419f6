"""The keyboard and focus tests under a real X server, and the first frame's: `x_keys.py` and
`x_first_frame.py` run in a pytest session of their own with QT_QPA_PLATFORM=xcb (this process's Qt is
offscreen, and Qt picks its platform once per process), on the display MEMORY_DASHBOARD_TEST_DISPLAY names
(`.ci/run` starts one), else on an Xvfb started here."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support import xvfb_display
from tests.ui.every_window import CASES

HERE = Path(__file__).parent
ROOT = HERE.parents[2]
SESSION_TIMEOUT_S = 900
HANG_DUMP_S = 300  # a test still running after this long has its threads' stacks dumped
THEMES = 2  # x_keys.py runs each test in the light and the dark theme
ONE_EACH = 15  # x_keys.py's tests that are not one per editing dialog (CASES)
FIRST_FRAME = 1  # x_first_frame.py's
EXPECTED = THEMES * (ONE_EACH + len(CASES)) + FIRST_FRAME  # a collection mistake cannot pass with fewer


@pytest.fixture(scope="module")
def display() -> Iterator[str]:
    given = os.environ.get(xvfb_display.DISPLAY_ENV)
    if given and xvfb_display.answers(given):
        yield given
        return
    if given:  # its server gone: Qt's xcb platform would abort at its first connection, saying nothing
        gone = f"{xvfb_display.DISPLAY_ENV}={given} does not answer: starting an Xvfb here"
        warnings.warn(gone, stacklevel=1)
    try:
        pid, started = xvfb_display.start()
    except xvfb_display.NoDisplay as exc:
        gone = f"{xvfb_display.DISPLAY_ENV}={given} does not answer. " if given else ""
        pytest.fail(f"no X server for the keyboard tests. {gone}{exc}", pytrace=False)
    try:
        yield started
    finally:
        xvfb_display.stop(pid)


def what_went_wrong(code: int | str, out: str, err: str) -> str:
    """The session's end, and what a crash or a hang leaves: the test it was in, Qt's and Python's fatal
    words (a thread dump is long; its head says which thread and where)."""
    tests = [line for line in out.splitlines() if "::" in line]  # "-v": a test's name, then its verdict
    said = [f"exit: {code}"]
    if tests:
        said.append(f"last test named: {tests[-1]}")
    qt_said = ("qt.", "This application", "QThread")
    said += [line for line in err.splitlines() if line.startswith(qt_said)]
    for dump in ("Fatal Python error", "Timeout (0:"):  # a crash's, or `faulthandler_timeout`'s on a hang
        if (at := err.find(dump)) >= 0:
            said.append(err[at : at + 6000])
    said.append(out[-6000:])
    said.append(err[-3000:])
    return "\n".join(said)


def _text(output: str | bytes | None) -> str:
    return output.decode(errors="replace") if isinstance(output, bytes) else output or ""


@pytest.mark.timeout(SESSION_TIMEOUT_S + 120)  # its own limit ends the session first, and says what ran last
def test_the_keyboard_path_under_a_real_x_server(display: str, tmp_path: Path) -> None:
    env = {**os.environ, "QT_QPA_PLATFORM": "xcb", "DISPLAY": display, "PYTHONUNBUFFERED": "1"}
    env.pop("WAYLAND_DISPLAY", None)
    command = [
        sys.executable, "-m", "pytest", str(HERE / "x_keys.py"), str(HERE / "x_first_frame.py"),
        "-o", "python_files=x_*.py", "-o", f"faulthandler_timeout={HANG_DUMP_S}",
        "-v", "-p", "no:cacheprovider", "--basetemp", str(tmp_path / "x"),
        # Qt writes to the process's stderr itself: uncaptured, its last words reach the report
        "--capture=sys", "--no-qt-log",
    ]  # fmt: skip
    try:
        done = subprocess.run(
            command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=SESSION_TIMEOUT_S
        )
    except subprocess.TimeoutExpired as hung:
        code = f"still running after {SESSION_TIMEOUT_S} s"
        pytest.fail(what_went_wrong(code, _text(hung.stdout), _text(hung.stderr)), pytrace=False)
    said = what_went_wrong(done.returncode, done.stdout, done.stderr)
    assert done.returncode == 0, said
    summary = done.stdout.strip().splitlines()[-1].strip("= ")
    ran = rf"{EXPECTED} passed(, \d+ warnings?)? in [\d.]+s( \([\d:]+\))?"
    assert re.fullmatch(ran, summary), f"expected {EXPECTED} passed\n{said}"
