"""`make screenshot`: the same images every time, from a fresh demo store at a fixed clock, never
from the person's own demo store; `SHOTS=DIR` writes them to a folder the person names."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.console import CHECKOUT, dashboard

VENV = Path(sys.executable).parent.parent


def make_screenshot(shots: Path) -> subprocess.CompletedProcess[str]:
    """The Makefile's target with this virtual environment (`-o`: never reinstall it here)."""
    done = subprocess.run(
        ["make", "-o", str(VENV / ".installed"), f"VENV={VENV}", "screenshot", f"SHOTS={shots}"],
        cwd=CHECKOUT,
        env={**os.environ, "PYTHONPATH": str(CHECKOUT), "MAKEFLAGS": ""},
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return done


@pytest.mark.skipif(shutil.which("make") is None or sys.platform == "win32", reason="needs make")
def test_make_screenshot_ignores_your_own_demo_store(tmp_path: Path) -> None:
    own = dashboard("--demo", "edit", "312", "--content", "My own words, never in the README")
    assert own.returncode == 0, own.stderr
    docs = {path.name: path.read_bytes() for path in (CHECKOUT / "docs").glob("*.png")}

    first = make_screenshot(tmp_path / "first")
    assert dashboard("--demo", "edit", "312", "--content", "Other words again").returncode == 0
    second = make_screenshot(tmp_path / "second")

    for name in ("screenshot.png", "screenshot-dark.png"):
        image = (tmp_path / "first" / name).read_bytes()
        assert image.startswith(b"\x89PNG") and image == (tmp_path / "second" / name).read_bytes(), name
    assert "propagateSizeHints" not in first.stderr + second.stderr
    assert {path.name: path.read_bytes() for path in (CHECKOUT / "docs").glob("*.png")} == docs
    # The person's own demo store (conftest's data folder) keeps their edit; the images never show it.
    assert dashboard("--demo", "show", "312", "--json").stdout.count("Other words again") == 1
    assert not (CHECKOUT / "build" / "screenshot-demo").exists()
