"""`export --format markdown` lists project memories too, on host files of schema v80: a section per
project (display name and identity), each memory's category, status and text; hostile and odd values
shown as they are, never read as Markdown, and any row the host's table can hold exported without a
crash."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings

from app.cli import main
from app.cli.project.markdown import project_sections
from app.store.connect.engine import open_sqlite_file, transaction
from tests.store.project.test_fuzz_paths import _write as write_rows
from tests.store.project.test_fuzz_paths import linked_rows
from tests.support.host80 import ALPHA, BETA, NOW, Seeded, add_memory, build_host80, connect, seed_projects
from tests.support.hostdb import query

NOW_ISO = "2026-10-21T03:13:32Z"


@pytest.fixture(autouse=True)
def _fixed_now(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMORY_DASHBOARD_NOW", NOW_ISO)


def markdown(capsys: pytest.CaptureFixture[str], db: Path) -> str:
    code = main(["--db", str(db), "export", "--format", "markdown"])
    out, err = capsys.readouterr()
    assert code == 0, err
    return out


def section(text: str, memory_id: int) -> str:
    """One memory's lines, from its heading to the next."""
    start = text.index(f"### Project memory #{memory_id}\n")
    ends = [text.find(mark, start + 1) for mark in ("\n### Project memory #", "\n## Project ")]
    found = [end for end in ends if end != -1]
    return text[start : min(found) + 1 if found else None]


def test_each_project_is_a_section_with_its_memories(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = build_host80(tmp_path / "context.db")
    seeded: Seeded = seed_projects(db)
    text = markdown(capsys, db)
    assert "\n# Project memories\n" in text
    assert f"## Project beta\n\nIdentity ` {BETA} `\n" in text
    assert f"## Project {ALPHA}\n\nIdentity ` {ALPHA} `\n" in text
    beta = text.index("## Project beta")
    assert beta < text.index(f"### Project memory #{seeded.beta}\n") < text.index(f"## Project {ALPHA}")
    assert section(text, seeded.active) == (
        f"### Project memory #{seeded.active}\n\n"
        "Category ` CONFIG_VALUES ` · status ` active ` · importance 50 · scope ` project `\n\n"
        "```text\nBuild with pnpm, never npm\n```\n\n"
    )
    assert "status ` deleted `" in section(text, seeded.odd_status)  # a status the host never writes
    assert "status ` active ` (expired)" in section(text, seeded.expired)
    assert f"- Superseded by #{seeded.chain[1]}" in section(text, seeded.chain[0])


def test_hostile_values_are_shown_as_they_are(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = build_host80(tmp_path / "context.db")
    with connect(db) as conn:
        fence = add_memory(conn, ALPHA, "```\n# Not a heading\n````", category="A`B\n## C")
        path = add_memory(conn, b"git:\xff\xfe-not-utf8", "On a path that is not UTF-8")
        blob = add_memory(conn, ALPHA, "A blob status", status=b"\x00active", importance="high")
    conn.close()
    text = markdown(capsys, db)
    shown = section(text, fence)
    assert shown.startswith(f"### Project memory #{fence}\n\nCategory `` A`B\\n## C `` ·")
    assert "`````text\n```\n# Not a heading\n````\n`````\n" in shown  # its own fences stay inside
    assert "\n## C" not in text
    assert f"### Project memory #{path}\n" in text and "Identity ` git:\ufffd\ufffd-not-utf8 `" in text
    shown = section(text, blob)
    assert "importance unknown" in shown and "malformed" in shown


@pytest.fixture(scope="module")
def fuzzed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_host80(tmp_path_factory.mktemp("markdown") / "context.db")


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(given_rows=linked_rows)
def test_any_rows_are_exported_without_a_crash(fuzzed: Path, given_rows: list[dict[str, object]]) -> None:
    write_rows(fuzzed, given_rows)  # the rows the host's UNIQUE lets in
    written = [row[0] for row in query(fuzzed, "SELECT id FROM memories")]
    opened = open_sqlite_file(fuzzed, read_only=True, create=False)
    try:
        with transaction(opened.engine, write=False, location=opened.location) as conn:
            lines = project_sections(conn, NOW)
    finally:
        opened.close()
    headings = [line for line in lines if line.startswith("### Project memory #")]
    assert sorted(headings) == sorted(f"### Project memory #{memory_id}" for memory_id in written)
