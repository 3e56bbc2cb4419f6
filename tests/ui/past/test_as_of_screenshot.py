"""`screenshot OUT.png --as-of WHEN` through the real console script: the window looking back, to a PNG;
an instant that cannot be read is a message (exit 1), not a traceback, and no file."""

from __future__ import annotations

from pathlib import Path

from tests.support.console import dashboard
from tests.support.hostdb import PROMOTED_5


def test_the_screenshot_shows_the_window_as_of_an_instant(host_db: Path, tmp_path: Path) -> None:
    out = tmp_path / "past.png"
    shot = ["screenshot", str(out), "--size", "700x450", "--as-of", str(PROMOTED_5 + 1)]
    done = dashboard("--db", str(host_db), *shot, env={"QT_QPA_PLATFORM": "offscreen"})
    assert done.returncode == 0 and done.stdout.strip() == str(out), done.stderr
    assert done.stderr == ""
    assert out.read_bytes().startswith(b"\x89PNG")


def test_an_unreadable_instant_is_a_message(host_db: Path, tmp_path: Path) -> None:
    out = tmp_path / "past.png"
    done = dashboard("--db", str(host_db), "screenshot", str(out), "--as-of", "yesterday-ish")
    assert done.returncode == 1 and "--as-of:" in done.stderr and "Traceback" not in done.stderr
    assert not out.exists()
