"""`export --format markdown` lists the host's project memories, a section per project, after the user
memories: each memory on one line with its category and status, links and expiry beside it, hidden
characters visible and a path that is not UTF-8 said."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from app.cli import main
from tests.support.host80 import ALPHA, build_host80, seed_projects


def test_markdown_export_has_a_section_per_project(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = build_host80(tmp_path / "context.db")
    seeded = seed_projects(path)
    with closing(sqlite3.connect(path)) as conn, conn:
        conn.execute("UPDATE memories SET content = ? WHERE id = ?", ("Hidden\u202e here", seeded.active))
        conn.execute(
            "UPDATE memories SET project_path = CAST(? AS TEXT) WHERE id = ?",
            (b"dir:/x/caf\xe9", seeded.beta),
        )
    assert main(["--db", str(path), "export", "--format", "markdown"]) == 0
    out = capsys.readouterr().out
    projects = out.split("# Project memories\n", 1)[1]
    assert f"Project `{ALPHA}`" in projects and "Project `dir:/x/caf\ufffd`" in projects
    assert f"- #{seeded.active} [CONFIG_VALUES] active: Hidden⟦U+202E⟧ here" in projects
    assert "\u202e" not in out
    assert f"  - Superseded by #{seeded.chain[1]}" in projects
    assert "  - Merged from:" in projects and "  - Malformed: project_path" in projects
