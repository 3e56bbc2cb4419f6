"""`import`: the app's own export merged into a store; a round trip into an empty store reproduces everything.

Real files: the seed's host database with a history made through the store's own writers and a rewrite by
another connection, exported by the CLI, imported by the CLI into a store `init` made.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from app.cli import main
from app.core.clock import ManualClock
from app.core.models import RevisionSource
from app.store import MemoryStore
from app.store.read.reads import REVISION_COLUMNS
from app.transfer.export_format import EXPORT_VERSION
from tests.conftest import REVIEW_TIME
from tests.support.hostdb import HOUR, build_host_db, host_dump, host_sql, profile_version, query

NOW_ISO = "2026-10-21T03:13:32Z"  # REVIEW_TIME
# What a revision says (its id, memory id and source are the importing store's own; its run is one of the
# file's database, named in its detail).
HISTORY_FIELDS = tuple(
    c for c in REVISION_COLUMNS if c not in ("id", "memory_id", "source", "detail", "run_id")
)
MEMORY_FIELDS = (
    "content",
    "status",
    "promoted_at",
    "created_at",
    "updated_at",
    "rewritten",
    "content_changed_at",
    "source_candidate_ids",
    "unknown_provenance_ids",
    "sources",
    "trust",
    "expires_at",
    "expired",
)


@pytest.fixture(autouse=True)
def _fixed_now(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMORY_DASHBOARD_NOW", NOW_ISO)


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def lived_in(path: Path) -> Path:
    """The seed with a history: edits, a review's rewrite, a dismissal, an expiry, a promotion, an outside
    rewrite, a deletion."""
    build_host_db(path)
    store = MemoryStore.open(path, clock=ManualClock(REVIEW_TIME - 5 * HOUR))
    try:
        store.observe()  # the first look: the baseline
        store.edit(5, "Prefers pnpm, always")
        store.update_content(
            1, "Works in Python, Rust and TypeScript", run_id="run-7", source=RevisionSource.REVIEW
        )
        store.dismiss(4, "moved")
        store.set_expiry(5, REVIEW_TIME + 30 * 24 * HOUR)
        store.promote([141, 143], "Uses pnpm, with workspaces")
        host_sql(
            path,
            "UPDATE user_memories SET content = 'Legacy, rewritten', updated_at = ? WHERE id = 3",
            (REVIEW_TIME - HOUR,),
        )
        store.observe()
        store.delete(2)
    finally:
        store.close()
    return path


def exported_memory(memory_id: int, content: str) -> dict[str, object]:
    """A memory as an export holds it, promoted at REVIEW_TIME from no candidates."""
    return {
        "id": memory_id,
        "content": content,
        "status": "active",
        "promoted_at": REVIEW_TIME,
        "created_at": REVIEW_TIME,
        "updated_at": REVIEW_TIME,
        "source_candidate_ids": [],
        "provenance": [],
    }


def export(capsys: pytest.CaptureFixture[str], db: Path, out: Path) -> dict[str, Any]:
    assert run(capsys, "--db", str(db), "export", "-o", str(out), "--force")[0] == 0
    data: dict[str, Any] = json.loads(out.read_text(encoding="utf-8"))
    return data


def test_export_then_import_into_an_empty_store_reproduces_everything(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = lived_in(tmp_path / "context.db")
    original = export(capsys, source, tmp_path / "first.json")
    assert (original["format"], original["version"]) == ("memory-dashboard-export", EXPORT_VERSION)
    target = tmp_path / "empty.db"
    assert run(capsys, "--db", str(target), "init")[0] == 0
    before = profile_version(target)
    code, out, _ = run(capsys, "--db", str(target), "import", str(tmp_path / "first.json"), "--json")
    assert code == 0
    result = json.loads(out)
    assert result["skipped"] == []
    assert [(i["from_id"], i["memory_id"]) for i in result["imported"]] == [
        (m["id"], m["id"]) for m in original["memories"]
    ]  # an empty store keeps every id
    assert profile_version(target) == before + 1
    again = export(capsys, target, tmp_path / "second.json")
    assert len(again["memories"]) == len(original["memories"]) == 5
    raw = {
        row[0]: row[1] for row in query(target, "SELECT id, source_candidate_provenance FROM user_memories")
    }
    for old, new in zip(original["memories"], again["memories"], strict=True):
        assert {k: new[k] for k in MEMORY_FIELDS} == {k: old[k] for k in MEMORY_FIELDS}, old["id"]
        if old["provenance"] is None:
            assert new["provenance"] is None and raw[new["id"]] is None
        else:
            assert [{**e, "origin": "import"} for e in old["provenance"]] == new["provenance"]
            kept = json.loads(str(raw[new["id"]]))
            assert [e["imported_origin"] for e in kept] == [e["origin"] for e in old["provenance"]]
        *history, marker = new["revisions"]
        assert [{k: r.get(k) for k in HISTORY_FIELDS} for r in history] == [
            {k: r.get(k) for k in HISTORY_FIELDS} for r in old["revisions"]
        ]
        assert all(r["source"] == "import" for r in new["revisions"])
        assert [r["detail"]["imported_source"] for r in history] == [r["source"] for r in old["revisions"]]
        for copied, was in zip(history, old["revisions"], strict=True):  # a run of the file's database
            assert copied["run_id"] is None and copied["detail"].get("imported_run_id") == was["run_id"]
            if was["run_id"] is not None:
                assert copied["detail"]["imported_database"] == original["database"]
        assert (marker["kind"], marker["detail"]["imported_from"]) == ("create", "first.json")
    assert any(r["source"] == "observed" for m in original["memories"] for r in m["revisions"])
    assert any(r["run_id"] == "run-7" for m in original["memories"] for r in m["revisions"])


def test_importing_into_the_same_store_skips_every_memory_and_writes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = lived_in(tmp_path / "context.db")
    export(capsys, db, tmp_path / "all.json")
    before = (host_dump(db), profile_version(db), query(db, "SELECT count(*) FROM mdash_revisions"))
    code, out, _ = run(capsys, "--db", str(db), "import", str(tmp_path / "all.json"))
    assert code == 0
    assert out.startswith("imported 0 memories, skipped 5")
    assert "skipped #5: its content is already here (#5 here)" in out
    assert (host_dump(db), profile_version(db), query(db, "SELECT count(*) FROM mdash_revisions")) == before


def test_a_new_memory_whose_id_is_taken_gets_a_new_one_and_a_dry_run_writes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = build_host_db(tmp_path / "context.db")
    export_file = tmp_path / "one.json"
    twice = [exported_memory(1, "Likes dark themes"), exported_memory(2, "Likes dark themes")]
    export_file.write_text(
        json.dumps({"exported_at": REVIEW_TIME, "memories": twice}),
        encoding="utf-8",
    )  # an export from before `format` and `version`: version 1
    before = host_dump(db)
    code, out, _ = run(capsys, "--db", str(db), "import", str(export_file), "--dry-run", "--json")
    assert code == 0 and json.loads(out)["dry_run"] is True
    assert host_dump(db) == before
    code, out, _ = run(capsys, "--db", str(db), "import", str(export_file), "--json")
    result = json.loads(out)
    assert [i["from_id"] for i in result["imported"]] == [1]
    new_id = result["imported"][0]["memory_id"]
    assert new_id not in (1, 2, 3, 4, 5)
    assert result["skipped"] == [
        {"from_id": 2, "reason": "same content as #1 of the file", "existing_id": None}
    ]
    assert query(db, "SELECT content FROM user_memories WHERE id = ?", (new_id,)) == [("Likes dark themes",)]


def _export_text(**changes: object) -> str:
    data: dict[str, object] = {"format": "memory-dashboard-export", "version": 1, "exported_at": REVIEW_TIME}
    data["memories"] = [{**exported_memory(9, "Likes dark themes"), **changes}]
    return json.dumps(data)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("not json at all", "not a Memory Dashboard export (not JSON"),
        ('{"memories": []}', "no `exported_at` and `memories`"),
        ("[1, 2]", "not a Memory Dashboard export"),
        ('{"exported_at": 1, "memories": [], "memories": []}', "given twice"),
        (
            _export_text().replace('"version": 1', f'"version": {EXPORT_VERSION + 1}'),
            f"newer Memory Dashboard (export version {EXPORT_VERSION + 1}",
        ),
        (_export_text().replace("memory-dashboard-export", "other"), "not a Memory Dashboard export (format"),
        (_export_text(promoted_at="yesterday"), "memories[0].promoted_at is not a whole number"),
        (_export_text(updated_at=2**64), "memories[0].updated_at does not fit 64 bits"),
        (_export_text(provenance=[{"candidate_id": 1}]), "memories[0].provenance[0] is not an entry"),
        (_export_text(revisions=[{"id": 1}]), "memories[0].revisions[0].kind is not text"),
        (_export_text(revisions=[{"id": 1, "kind": "bogus"}]), "revisions[0].kind is not a revision kind"),
    ],
)
def test_a_file_that_is_not_an_export_is_refused_and_writes_nothing(
    host_db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, message: str
) -> None:
    path = tmp_path / "in.json"
    path.write_text(text, encoding="utf-8")
    before = host_dump(host_db)
    code, _, err = run(capsys, "--db", str(host_db), "import", str(path))
    assert code == 1 and message in err and "Nothing was imported" in err.replace("nothing", "Nothing")
    assert host_dump(host_db) == before


def test_a_memory_breaking_the_content_rules_is_skipped_and_reported(
    host_db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "in.json"
    path.write_text(_export_text(content="bad \x00 text"), encoding="utf-8")
    code, out, _ = run(capsys, "--db", str(host_db), "import", str(path))
    assert code == 0
    assert "skipped #9: its content holds a NUL character at character 5" in out


def test_import_into_a_read_only_store_is_refused(
    host_db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "in.json"
    path.write_text(_export_text(), encoding="utf-8")
    code, _, err = run(capsys, "--db", str(host_db), "--read-only", "import", str(path))
    assert code == 4 and "read-only" in err
