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
    if given:
        yield given
        return
    try:
        pid, started = xvfb_display.start()
    except xvfb_display.NoDisplay as exc:
        pytest.fail(f"no X server for the keyboard tests. {exc}", pytrace=False)
    try:
        yield started
    finally:
        xvfb_display.stop(pid)


def test_the_keyboard_path_under_a_real_x_server(display: str, tmp_path: Path) -> None:
    env = {**os.environ, "QT_QPA_PLATFORM": "xcb", "DISPLAY": display}
    env.pop("WAYLAND_DISPLAY", None)
    command = [
        sys.executable, "-m", "pytest", str(HERE / "x_keys.py"), str(HERE / "x_first_frame.py"),
        "-o", "python_files=x_*.py",
        "-q", "-p", "no:cacheprovider", "--basetemp", str(tmp_path / "x"),
    ]  # fmt: skip
    done = subprocess.run(
        command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=SESSION_TIMEOUT_S
    )
    said = done.stdout[-8000:] + done.stderr[-4000:]
    assert done.returncode == 0, said
    summary = done.stdout.strip().splitlines()[-1]
    ran = rf"{EXPECTED} passed(, \d+ warnings?)? in [\d.]+s( \([\d:]+\))?"
    assert re.fullmatch(ran, summary), f"expected {EXPECTED} passed\n{said}"
