"""An imported project memory's history begins with its import, on host files of schema v80: a `create`
revision of source `import` with its row after, the seen copy made from the row so that no later look
takes it for a new or rewritten memory, and a kept id never one the project revision log already names.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from tests.support.host80 import ALPHA, DAY, NOW, T0, add_memory, build_host80, connect
from tests.support.hostdb import query
from tests.transfer.test_import_projects import item, run, write_file


def history(capsys: pytest.CaptureFixture[str], db: Path, memory_id: int) -> list[dict[str, Any]]:
    code, out, err = run(capsys, "--db", str(db), "history", str(memory_id), "--kind", "project", "--json")
    assert code == 0, err
    found: list[dict[str, Any]] = json.loads(out)
    return found


def imported_ids(capsys: pytest.CaptureFixture[str], db: Path, file: Path) -> dict[int, int]:
    code, out, err = run(capsys, "--db", str(db), "import", str(file), "--json")
    assert code == 0, err
    result = json.loads(out)["project_memories"]
    return {entry["from_id"]: entry["memory_id"] for entry in result["imported"]}


def test_an_imported_memory_begins_with_a_create_of_source_import(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    target = build_host80(tmp_path / "context.db")
    rewritten = item(1, updated_at=T0 + DAY)  # rewritten by the host before the export
    successor = item(2, status="archived", superseded_by_memory_id=1)
    file = write_file(tmp_path / "in.json", [rewritten, successor])
    monkeypatch.setenv("MEMORY_DASHBOARD_NOW", str(NOW))
    assert imported_ids(capsys, target, file) == {1: 1, 2: 2}
    monkeypatch.setenv("MEMORY_DASHBOARD_NOW", str(NOW + DAY))  # a later look observes nothing
    for memory_id, content, status in ((1, "Fact number 1", "active"), (2, "Fact number 2", "archived")):
        (revision,) = history(capsys, target, memory_id)
        assert (revision["kind"], revision["source"], revision["changed_at"]) == ("create", "import", NOW)
        assert (revision["new_content"], revision["new_status"]) == (content, status)
        assert revision["detail"]["imported_from"].endswith("in.json")
        assert revision["detail"]["imported_memory_id"] == memory_id
    # The row after holds the links as written here; the seen copy is the row, no outside rewrite.
    (new_row,) = query(target, "SELECT new_row FROM mdash_project_revisions WHERE memory_id = 2")[0]
    assert json.loads(str(new_row))["superseded_by"] == 1
    seen = query(target, "SELECT memory_id, first_seen_at, baseline_rewritten_at FROM mdash_project_seen")
    assert sorted(seen) == [(1, NOW, None), (2, NOW, None)]


def test_a_kept_id_never_takes_the_history_of_a_deleted_memory(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    target = build_host80(tmp_path / "context.db")
    with connect(target) as conn:
        gone = add_memory(conn, ALPHA, "Deleted by the host later")
    conn.close()
    monkeypatch.setenv("MEMORY_DASHBOARD_NOW", str(NOW))
    assert history(capsys, target, gone) == []  # first sight: a baseline
    writer = sqlite3.connect(target)
    with writer:
        writer.execute("DELETE FROM memories WHERE id = ?", (gone,))
    writer.close()
    monkeypatch.setenv("MEMORY_DASHBOARD_NOW", str(NOW + DAY))
    assert [revision["kind"] for revision in history(capsys, target, gone)] == ["delete"]
    ids = imported_ids(capsys, target, write_file(tmp_path / "in.json", [item(gone)]))
    assert ids[gone] != gone
    assert [revision["kind"] for revision in history(capsys, target, gone)] == ["delete"]
    assert [revision["kind"] for revision in history(capsys, target, ids[gone])] == ["create"]
