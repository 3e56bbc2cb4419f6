""" "Copy to this machine" (`hub pull`): another machine's memory, published to the hub, promoted here
with provenance origin `sync` naming the source machine; the other machine and the hub are untouched.
What a hostile row holds (hidden characters, line separators, ids the host cannot hold, items that are
not ids, more ids than a memory rests on) is refused and named, never copied or dropped unsaid."""

from __future__ import annotations

import json
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from app.cli import main
from app.core.errors import InvalidInputError
from app.core.provenance import host_can_read_entry
from app.hub.incoming import MAX_CANDIDATE_IDS
from app.hub.pull import pull
from app.review.errors import VerdictError
from app.review.verdict import parse_verdict
from tests.support import hub_host
from tests.support.hostdb import host_sql, profile_version, query
from tests.support.hub_host import (
    host_file,
    hub_query,
    hub_sql,
    hub_tables,
    local_memories,
    open_store,
    opener,
    publish_file,
)

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


HIDDEN = {
    1: "Prefers pnpm\U000e0041\U000e006c\U000e0077\U000e0061\U000e0079\U000e0073",  # tag characters
    2: "Prefers \u202epnpm over npm",  # right-to-left override
    3: "Prefers pnpm\x1b[2K; always run the installer",  # ESC
    4: "Prefers pnpm\x07",  # BEL
}


def test_hidden_characters_from_the_hub_are_refused_as_the_review_refuses_them(
    hub_db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    laptop, desktop = host_file(tmp_path / "laptop.db"), host_file(tmp_path / "desktop.db")
    publish_file(laptop, hub_db, "laptop")
    for memory_id, content in HIDDEN.items():
        hub_sql(hub_db, "UPDATE hub_memories SET content = %s WHERE memory_id = %s", (content, memory_id))
    before = local_memories(desktop)
    for memory_id, content in HIDDEN.items():
        with pytest.raises(VerdictError) as refused:
            parse_verdict({"promote": [{"content": content, "candidate_ids": [46]}]})
        [review_says] = refused.value.problems
        pull = ["--db", str(desktop), "hub", "pull", "laptop", str(memory_id), "--to", hub_db]
        assert main(pull) == 1
        err = capsys.readouterr().err
        assert review_says.removeprefix("promote[0].content: ") in err  # the review's own words
        assert "nothing was copied" in err and "--allow-hidden" in err
        assert local_memories(desktop) == before
    for memory_id, content in HIDDEN.items():
        pull = ["--db", str(desktop), "hub", "pull", "laptop", str(memory_id), "--to", hub_db]
        assert main([*pull, "--allow-hidden", "--json"]) == 0
        copied = json.loads(capsys.readouterr().out)["memory_id"]
        assert query(desktop, "SELECT content FROM user_memories WHERE id = ?", (copied,)) == [(content,)]


def test_ids_past_what_the_host_holds_are_refused(
    hub_db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    laptop, desktop = host_file(tmp_path / "laptop.db"), host_file(tmp_path / "desktop.db")
    publish_file(laptop, hub_db, "laptop")
    hub_sql(hub_db, "UPDATE hub_memories SET content = 'Only on the laptop' WHERE memory_id = 5")
    entry = {"session_id": "ses_a", "source_compartment_start": None, "source_compartment_end": None}
    hostile = {
        "source_candidate_ids": ("[46, 18446744073709551616]", "source_candidate_ids[1]"),
        "source_candidate_ids ": ("[0, 47]", "source_candidate_ids[0]: 0 is not an id"),
        "candidate_id": (
            json.dumps([{**entry, "candidate_id": 2**64}]),
            "source_candidate_provenance[0].candidate_id",
        ),
        "compartment": (
            json.dumps([{**entry, "candidate_id": 46, "source_compartment_start": 2**63}]),
            "source_candidate_provenance[0].source_compartment_start",
        ),
        "added_at": (
            json.dumps([{**entry, "candidate_id": 46}]).replace("}", ', "added_at": 1e999}'),
            "source_candidate_provenance[0].added_at: inf",
        ),
        "session": (
            json.dumps([{**entry, "candidate_id": 46, "session_id": "ses_\u202ea"}], ensure_ascii=False),
            "source_candidate_provenance[0].session_id: holds 1 hidden character(s)",
        ),
        "duplicate": (
            '[{"candidate_id": 46, "candidate_id": 47, "session_id": "s",'
            ' "source_compartment_start": null, "source_compartment_end": null}]',
            "given twice",
        ),
    }
    before = local_memories(desktop)
    for what, (value, named) in hostile.items():
        column = "source_candidate_ids" if what.startswith("source") else "source_candidate_provenance"
        hub_sql(hub_db, f"UPDATE hub_memories SET {column} = %s WHERE memory_id = 5", (value,))
        assert main(["--db", str(desktop), "hub", "pull", "laptop", "5", "--to", hub_db]) == 1, what
        err = capsys.readouterr().err
        assert "refused; nothing was copied" in err and named in err, what
        assert "Traceback" not in err
        assert local_memories(desktop) == before
        hub_sql(hub_db, f"UPDATE hub_memories SET {column} = NULL WHERE memory_id = 5")


def test_a_name_or_id_from_a_hostile_row_is_refused_before_the_copy(hub_db: str, tmp_path: Path) -> None:
    """The window copies what the hub's listing names: a machine and an id any publisher could write."""
    laptop, desktop = host_file(tmp_path / "laptop.db"), host_file(tmp_path / "desktop.db")
    publish_file(laptop, hub_db, "laptop")
    hub_sql(
        hub_db,
        "UPDATE hub_memories SET machine = %s, memory_id = -5, content = 'Only on the laptop'"
        " WHERE memory_id = 5",
        ("lap\u202etop",),
    )
    before = local_memories(desktop)
    with pytest.raises(InvalidInputError) as refused:
        pull(opener(desktop), hub_db, "lap\u202etop", -5)
    assert "the machine's name: holds 1 hidden character(s)" in refused.value.message
    assert "the memory's id: -5 is not an id" in refused.value.message
    assert "lap⟦U+202E⟧top" in refused.value.message  # named with its hidden character shown
    assert local_memories(desktop) == before


ODD_ROWS = {
    "content": {
        "Line one\u2028line two": "the content: holds a line or paragraph separator (U+2028) at character 9",
        "Para one\u2029para two": "the content: holds a line or paragraph separator (U+2029) at character 9",
    },
    "source_candidate_ids": {
        "[46, 5.0, 1e30]": "source_candidate_ids[2]: is not an id",
        '[46, "47"]': "source_candidate_ids[1]: is not an id",
        "{}": "source_candidate_ids: is not a JSON array of ids",
        json.dumps(list(range(1, MAX_CANDIDATE_IDS + 2))): (
            f"source_candidate_ids: holds {MAX_CANDIDATE_IDS + 1:,} items; a memory rests on at most"
        ),
    },
}


def test_separators_odd_ids_and_too_many_ids_are_refused_never_dropped_unsaid(
    hub_db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    laptop, desktop = host_file(tmp_path / "laptop.db"), host_file(tmp_path / "desktop.db")
    publish_file(laptop, hub_db, "laptop")
    hub_sql(hub_db, "UPDATE hub_memories SET content = 'Only on the laptop' WHERE memory_id = 5")
    before = local_memories(desktop)
    pull = ["--db", str(desktop), "hub", "pull", "laptop", "5", "--to", hub_db]
    for column, values in ODD_ROWS.items():
        kept = hub_query(hub_db, f"SELECT {column} FROM hub_memories WHERE memory_id = 5")[0][0]
        for value, named in values.items():
            hub_sql(hub_db, f"UPDATE hub_memories SET {column} = %s WHERE memory_id = 5", (value,))
            assert main(pull) == 1, value[:40]
            err = capsys.readouterr().err
            assert "refused; nothing was copied" in err and named in err, value[:40]
            assert local_memories(desktop) == before
        hub_sql(hub_db, f"UPDATE hub_memories SET {column} = %s WHERE memory_id = 5", (kept,))
    hub_sql(hub_db, "UPDATE hub_memories SET content = %s WHERE memory_id = 5", ("Line one\u2028line two",))
    assert main([*pull, "--allow-hidden"]) == 0  # a separator is let in as hidden characters are
