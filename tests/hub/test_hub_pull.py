""" "Copy to this machine" (`hub pull`): another machine's memory, published to the hub, promoted here
with provenance origin `sync` naming the source machine; the other machine and the hub are untouched."""

from __future__ import annotations

import json
import sqlite3
from contextlib import closing
from pathlib import Path

import hub_host
import pytest
from hostdb import host_sql, profile_version, query
from hub_host import host_file, hub_tables, local_memories, open_store, publish_file

from app.cli import main
from app.core.provenance import host_can_read_entry

pinned_clock = hub_host.pinned_clock  # the clock pinned in every test here (autouse)
hub_db = hub_host.hub_db  # a hub set up by its administrator; the URL of an ordinary publisher


def test_copy_to_this_machine_between_two_files_through_one_hub(
    hub_db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:

    laptop, desktop = host_file(tmp_path / "laptop.db"), host_file(tmp_path / "desktop.db")
    with closing(open_store(laptop)) as store:
        store.edit(5, "Prefers pnpm, and bun for one-off scripts")
    publish_file(laptop, hub_db, "laptop")
    hub_before = hub_tables(hub_db)
    laptop_before = local_memories(laptop)
    version = profile_version(desktop)

    code = main(["--db", str(desktop), "hub", "pull", "laptop", "5", "--to", hub_db, "--json"])
    assert code == 0
    copied = json.loads(capsys.readouterr().out)
    new_id = copied["memory_id"]
    assert copied == {"memory_id": new_id, "copied_from": "laptop", "copied_memory_id": 5}
    [(content, status, ids, provenance)] = query(
        desktop,
        "SELECT content, status, source_candidate_ids, source_candidate_provenance FROM user_memories"
        " WHERE id = ?",
        (new_id,),
    )
    assert (content, status, json.loads(str(ids))) == (
        "Prefers pnpm, and bun for one-off scripts",
        "active",
        [46, 47, 48],
    )
    entries = json.loads(str(provenance))
    assert len(entries) == 3 and all(host_can_read_entry(entry) for entry in entries)
    assert {(e["origin"], e["synced_from"], e["synced_memory_id"]) for e in entries} == {
        ("sync", "laptop", 5)
    }
    assert profile_version(desktop) == version + 1
    with closing(sqlite3.connect(desktop)) as conn:
        kind, source, detail = conn.execute(
            "SELECT kind, source, detail FROM mdash_revisions WHERE memory_id = ?", (new_id,)
        ).fetchone()
    assert (kind, source, json.loads(detail)) == (
        "create",
        "dashboard",
        {"copied_from": "laptop", "copied_memory_id": 5},
    )
    assert hub_tables(hub_db) == hub_before  # nothing written to the hub...
    assert local_memories(laptop) == laptop_before  # ...nor to the other machine

    assert main(["--db", str(desktop), "hub", "pull", "laptop", "5", "--to", hub_db]) == 1
    assert "already here as memory #" in capsys.readouterr().err
    assert main(["--db", str(desktop), "hub", "pull", "laptop", "99", "--to", hub_db]) == 1
    assert "no memory #99 of machine 'laptop'" in capsys.readouterr().err


def test_a_copy_of_a_memory_without_provenance_stays_unknown(hub_db: str, tmp_path: Path) -> None:
    laptop, desktop = host_file(tmp_path / "laptop.db"), host_file(tmp_path / "desktop.db")
    host_sql(laptop, "UPDATE user_memories SET content = 'Only on the laptop' WHERE id = 3")
    publish_file(laptop, hub_db, "laptop")
    assert main(["--db", str(desktop), "hub", "pull", "laptop", "3", "--to", hub_db]) == 0
    rows = query(
        desktop, "SELECT source_candidate_provenance FROM user_memories WHERE content = 'Only on the laptop'"
    )
    assert rows == [(None,)]
