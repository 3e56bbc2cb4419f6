"""`screenshot OUT.png --project P [--select ID]` through the real console script: the project's page
to a PNG; a project no name matches, or a memory not in it, is a message (exit 1) and no file."""

from __future__ import annotations

from pathlib import Path

from tests.support.console import dashboard
from tests.support.host80 import ALPHA, BETA, Seeded

OFFSCREEN = {"QT_QPA_PLATFORM": "offscreen"}


def test_the_screenshot_shows_a_project(host80: Path, seeded: Seeded, tmp_path: Path) -> None:
    out = tmp_path / "project.png"
    shot = ["screenshot", str(out), "--size", "1024x700", "--project", ALPHA, "--select", str(seeded.merged)]
    done = dashboard("--db", str(host80), *shot, env=OFFSCREEN)
    assert done.returncode == 0 and done.stdout.strip() == str(out), done.stderr
    assert out.read_bytes().startswith(b"\x89PNG")


def test_an_unknown_project_or_memory_is_a_message(host80: Path, seeded: Seeded, tmp_path: Path) -> None:
    out = tmp_path / "project.png"
    for wanted in (["--project", "nothing"], ["--project", BETA, "--select", str(seeded.merged)]):
        done = dashboard("--db", str(host80), "screenshot", str(out), *wanted, env=OFFSCREEN)
        assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr
        assert "error:" in done.stderr
        assert not out.exists()
