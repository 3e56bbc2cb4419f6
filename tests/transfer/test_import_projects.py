"""`export` and `import` carry project memories (the host's `memories` table): a round trip between files
of the host's whole schema (version 80), ids renumbered with their links, duplicates, a project the host's
native module owns, and a hostile file whose every bad value is refused or reported.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from app.cli import main
from app.store.project.hashing import normalized_hash
from tests.support.host80 import (
    ALPHA,
    BETA,
    MANAGED,
    REPAIRING,
    T0,
    Seeded,
    add_memory,
    build_host80,
    connect,
    mark_managed,
    seed_projects,
)
from tests.support.hostdb import host_dump, query

NOW_ISO = "2026-10-21T03:13:32Z"
# The columns an import writes from the file (the host's caches, `classified_at` and the mural cue, not).
CARRIED = (
    "project_path, category, content, normalized_hash, importance, scope, shareable, source_session_id,"
    " source_type, seen_count, retrieval_count, first_seen_at, created_at, updated_at, last_seen_at,"
    " last_retrieved_at, status, expires_at, verification_status, verified_at, metadata_json"
)


@pytest.fixture(autouse=True)
def _fixed_now(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMORY_DASHBOARD_NOW", NOW_ISO)


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def source(tmp_path: Path) -> tuple[Path, Seeded]:
    path = build_host80(tmp_path / "source.db")
    return path, seed_projects(path)


def export_file(capsys: pytest.CaptureFixture[str], db: Path, out: Path) -> dict[str, Any]:
    code, _, err = run(capsys, "--db", str(db), "export", "-o", str(out))
    assert code == 0, err
    data: dict[str, Any] = json.loads(out.read_text(encoding="utf-8"))
    return data


def import_json(capsys: pytest.CaptureFixture[str], db: Path, file: Path, *extra: str) -> dict[str, Any]:
    code, out, err = run(capsys, "--db", str(db), "import", str(file), "--json", *extra)
    assert code == 0, err
    result: dict[str, Any] = json.loads(out)["project_memories"]
    return result


def carried(db: Path, memory_id: int) -> tuple[object, ...]:
    return query(db, f"SELECT {CARRIED} FROM memories WHERE id = ?", (memory_id,))[0]


def links(db: Path, memory_id: int) -> tuple[object, ...]:
    return query(db, "SELECT superseded_by_memory_id, merged_from FROM memories WHERE id = ?", (memory_id,))[
        0
    ]


def test_round_trip_between_host_files(
    source: tuple[Path, Seeded], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db, seeded = source
    data = export_file(capsys, db, tmp_path / "out.json")
    assert data["version"] == 2
    by_id = {item["id"]: item for item in data["project_memories"]}
    assert by_id[seeded.odd_status]["status"] == "deleted"  # shown as what it is
    target = build_host80(tmp_path / "target.db")
    result = import_json(capsys, target, tmp_path / "out.json")
    assert result["skipped"] == [
        {
            "from_id": seeded.odd_status,
            "reason": 'its status is "deleted", not one the host writes (active, permanent, archived)',
            "existing_id": None,
        }
    ]
    imported = [item["from_id"] for item in result["imported"]]
    assert all(item["from_id"] == item["memory_id"] for item in result["imported"])  # an empty file: ids kept
    for memory_id in imported:
        assert carried(target, memory_id) == carried(db, memory_id)
    for memory_id in (*seeded.chain, seeded.merged):
        assert links(target, memory_id) == links(db, memory_id)
    # What names nothing here, or is no list of ids, is left out and said; so is the link that would
    # close the host file's loop (the first of the loop's links, in the file's order, is kept).
    loop_a, loop_b = seeded.loop
    assert (links(target, loop_a), links(target, loop_b)) == ((loop_b, None), (None, None))
    assert links(target, seeded.dangling) == (None, None)
    assert links(target, seeded.merged_garbage) == (None, None)
    assert {note["from_id"] for note in result["notes"]} == {
        seeded.dangling,
        seeded.merged_garbage,
        seeded.merged_object,
        loop_b,
    }
    assert {"from_id": loop_b, "note": f"superseded_by_memory_id #{loop_a} left out: it would close a loop"
            f" (#{loop_b} → #{loop_a} → #{loop_b})"} in result["notes"]  # fmt: skip
    # The host's way: no mutation log row for an insert, each project's epoch bumped once.
    assert query(target, "SELECT count(*) FROM memory_mutation_log") == [(0,)]
    epochs = {
        row[0]: row[1]
        for row in query(target, "SELECT project_path, project_memory_epoch FROM project_state")
    }
    assert {path: epochs.get(path) for path in (ALPHA, BETA, MANAGED, REPAIRING)} == dict.fromkeys(
        (ALPHA, BETA, MANAGED, REPAIRING), 1
    )


def test_ids_used_here_are_renumbered_and_links_follow(
    source: tuple[Path, Seeded], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db, seeded = source
    export_file(capsys, db, tmp_path / "out.json")
    target = build_host80(tmp_path / "target.db")
    first, middle, last = seeded.chain  # `first` is superseded by `middle`, `middle` by `last`
    source_a, source_b = seeded.merge_sources
    with connect(target) as conn:
        add_memory(conn, "git:other", "Taken id", memory_id=last)
        add_memory(conn, "git:other", "Another taken id", memory_id=source_a)
        conn.execute(
            "INSERT INTO memory_mutation_log (project_path, mutation_type, target_memory_id, queued_at)"
            " VALUES ('git:other', 'archive', ?, ?)",
            (seeded.beta, T0),
        )
    conn.close()
    result = import_json(capsys, target, tmp_path / "out.json")
    ids = {item["from_id"]: item["memory_id"] for item in result["imported"]}
    assert ids[last] != last and ids[source_a] != source_a and ids[seeded.beta] != seeded.beta
    assert ids[first] == first
    assert carried(target, ids[last])[2] == "The API is served by FastAPI 0.115"
    assert links(target, ids[middle])[0] == ids[last]
    assert json.loads(str(links(target, seeded.merged)[1])) == [ids[source_a], source_b]
    assert query(target, "SELECT content FROM memories WHERE id = ?", (last,)) == [("Taken id",)]


def item(memory_id: int = 1, **changes: object) -> dict[str, object]:
    base: dict[str, object] = {
        "id": memory_id,
        "project_path": ALPHA,
        "category": "ARCHITECTURE",
        "content": f"Fact number {memory_id}",
        "importance": 50,
        "scope": "project",
        "shareable": False,
        "source_session_id": "ses_x",
        "source_type": "historian",
        "seen_count": 1,
        "retrieval_count": 0,
        "first_seen_at": T0,
        "created_at": T0,
        "updated_at": T0,
        "last_seen_at": T0,
        "last_retrieved_at": None,
        "status": "active",
        "expires_at": None,
        "verification_status": "unverified",
        "verified_at": None,
        "superseded_by_memory_id": None,
        "merged_from": None,
        "metadata_json": None,
    }
    return {**base, **changes}


def write_file(path: Path, items: list[dict[str, object]], version: int = 2) -> Path:
    data = {"format": "memory-dashboard-export", "version": version, "exported_at": T0, "memories": []}
    path.write_text(json.dumps({**data, "project_memories": items}), encoding="utf-8")
    return path


def test_duplicates_here_and_in_the_file_are_skipped(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = build_host80(tmp_path / "target.db")
    with connect(target) as conn:
        existing = add_memory(conn, ALPHA, "Build with pnpm", category="CONFIG_VALUES")
    conn.close()
    file = write_file(
        tmp_path / "in.json",
        [
            item(1, content="  BUILD with\tpnpm ", category="CONFIG_VALUES"),  # the host's hash: the same
            item(2, content="Build with pnpm", category="ARCHITECTURE"),  # another category: no duplicate
            item(3, content="build with PNPM", category="ARCHITECTURE"),  # the same as #2 of the file
            item(4, superseded_by_memory_id=1),  # a link to a duplicate names the memory already here
        ],
    )
    result = import_json(capsys, target, file)
    assert [(s["from_id"], s["existing_id"]) for s in result["skipped"]] == [(1, existing), (3, None)]
    assert "same project, category and text as #2 of the file" in result["skipped"][1]["reason"]
    ids = {i["from_id"]: i["memory_id"] for i in result["imported"]}
    assert links(target, ids[4])[0] == existing
    hashes = query(target, "SELECT normalized_hash FROM memories WHERE id = ?", (ids[2],))
    assert hashes == [(normalized_hash("Build with pnpm"),)]


def test_a_project_the_hosts_module_owns_is_refused_saying_which(
    source: tuple[Path, Seeded], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db, seeded = source
    export_file(capsys, db, tmp_path / "out.json")
    target = build_host80(tmp_path / "target.db")
    with connect(target) as conn:
        mark_managed(conn, ALPHA)
    conn.close()
    result = import_json(capsys, target, tmp_path / "out.json")
    refused = [s for s in result["skipped"] if "authority_managed" in s["reason"]]
    assert seeded.active in {s["from_id"] for s in refused}
    assert all(ALPHA in s["reason"] and "read-only" in s["reason"] for s in refused)
    assert query(target, "SELECT count(*) FROM memories WHERE project_path = ?", (ALPHA,)) == [(0,)]
    assert query(target, "SELECT id FROM memories WHERE project_path = ?", (BETA,)) == [(seeded.beta,)]


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"id": "7"}, "project_memories[0].id is not a whole number"),
        ({"id": 2**64}, "project_memories[0].id does not fit 64 bits"),
        ({"content": 5}, "project_memories[0].content is not text"),
        ({"project_path": None}, "project_memories[0].project_path is not text"),
        ({"shareable": "yes"}, "project_memories[0].shareable is not true, false, 0 or 1"),
        ({"shareable": 2}, "project_memories[0].shareable is not true, false, 0 or 1"),
        ({"created_at": -1}, "project_memories[0].created_at is -1, not epoch milliseconds"),
        ({"expires_at": 10**15}, "project_memories[0].expires_at is 1000000000000000, not epoch"),
        ({"seen_count": 1.5}, "project_memories[0].seen_count is not a whole number"),
        ({"merged_from": [1, 2]}, "project_memories[0].merged_from is not text"),
    ],
)
def test_a_value_of_the_wrong_kind_refuses_the_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], changes: dict[str, object], message: str
) -> None:
    target = build_host80(tmp_path / "target.db")
    before = host_dump(target)
    file = write_file(tmp_path / "in.json", [item(1, **changes)])
    code, _, err = run(capsys, "--db", str(target), "import", str(file))
    assert code == 1 and message in err and "nothing was imported" in err
    assert host_dump(target) == before


def test_a_section_in_a_file_of_the_first_version_and_repeated_ids_refuse_the_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = build_host80(tmp_path / "target.db")
    for items, version, message in (
        ([item(1)], 1, "project_memories is in an export of version 1"),
        (
            [item(1), item(1, content="Other")],
            2,
            "project_memories[1].id is #1, as is project_memories[0].id",
        ),
    ):
        file = write_file(tmp_path / "in.json", items, version)
        code, _, err = run(capsys, "--db", str(target), "import", str(file))
        assert code == 1 and message in err


@pytest.mark.parametrize(
    ("changes", "reason"),
    [
        ({"status": "deleted"}, 'its status is "deleted", not one the host writes'),
        ({"scope": "galaxy"}, 'its scope is "galaxy", not one the host writes'),
        ({"source_type": "robot"}, 'its source_type is "robot"'),
        ({"verification_status": "maybe"}, 'its verification_status is "maybe"'),
        ({"importance": 0}, "its importance is 0, not 1 to 100"),
        ({"importance": 101}, "its importance is 101, not 1 to 100"),
        ({"seen_count": -1}, "its seen_count is -1, below 0"),
        ({"retrieval_count": -5}, "its retrieval_count is -5, below 0"),
        ({"seen_count": 2**63 - 1}, f"its seen_count is {2**63 - 1}, above {2**53 - 1}"),
        ({"retrieval_count": 2**53}, f"its retrieval_count is {2**53}, above {2**53 - 1}"),
        ({"superseded_by_memory_id": 0}, "its superseded_by_memory_id 0 is not an id"),
        ({"content": "  "}, "its content"),
        ({"content": "bad \x00 byte"}, "its content holds a NUL character"),
        ({"content": "tricky \u202e text"}, "--allow-hidden"),
        ({"category": ""}, "its category is empty"),
        ({"category": "x" * 201}, "its category is 201 characters"),
        ({"project_path": " "}, "its project_path is empty"),
        ({"project_path": "git:\ud800"}, "its project_path holds a lone surrogate"),
        ({"source_session_id": "ses\x00"}, "its source_session_id holds a NUL character"),
        ({"project_path_hex": "ff00"}, "its project_path was not UTF-8 where it was exported"),
    ],
)
def test_a_value_the_host_would_not_write_leaves_that_memory_out(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], changes: dict[str, object], reason: str
) -> None:
    target = build_host80(tmp_path / "target.db")
    file = write_file(tmp_path / "in.json", [item(1, **changes), item(2)])
    result = import_json(capsys, target, file)
    assert [s["from_id"] for s in result["skipped"]] == [1]
    assert reason in result["skipped"][0]["reason"]
    assert query(target, "SELECT id FROM memories") == [(2,)]


@pytest.mark.parametrize(
    ("changes", "note"),
    [
        ({"merged_from": "not json ["}, "merged_from left out: it is not a JSON list of ids"),
        ({"merged_from": '{"ids": [2]}'}, "merged_from left out: it is not a JSON list of ids"),
        ({"merged_from": "[2, -1]"}, "merged_from left out: it is not a JSON list of ids"),
        ({"merged_from": "[2, 77]"}, "merged_from left out #77: not here"),
        ({"metadata_json": "{oops"}, "metadata_json left out: it is not JSON"),
        ({"metadata_json": '{"a": 1, "a": 2}'}, "metadata_json left out"),
        ({"metadata_json": "[" * 100 + "]" * 100}, "metadata_json left out: it is nested too deep"),
        ({"metadata_json": '{"why": "x\\u0000"}'}, "metadata_json left out"),
    ],
)
def test_json_columns_are_kept_only_if_they_parse(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], changes: dict[str, object], note: str
) -> None:
    target = build_host80(tmp_path / "target.db")
    file = write_file(tmp_path / "in.json", [item(1, **changes), item(2)])
    result = import_json(capsys, target, file)
    assert [i["from_id"] for i in result["imported"]] == [1, 2]
    notes = [n["note"] for n in result["notes"] if n["from_id"] == 1]
    assert len(notes) == 1 and notes[0].startswith(note)
    kept = (
        links(target, 1)[1]
        if "merged_from" in changes
        else query(target, "SELECT metadata_json FROM memories WHERE id = 1")[0][0]
    )
    assert kept == ("[2]" if "77" in str(changes) else None)


def test_dry_run_and_a_database_without_project_memories(
    source: tuple[Path, Seeded], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db, _ = source
    export_file(capsys, db, tmp_path / "out.json")
    target = build_host80(tmp_path / "target.db")
    before = host_dump(target)
    planned = import_json(capsys, target, tmp_path / "out.json", "--dry-run")
    assert len(planned["imported"]) == 20 and {i["memory_id"] for i in planned["imported"]} == {0}
    assert host_dump(target) == before
    plain = tmp_path / "plain.db"
    code, _, err = run(capsys, "--db", str(plain), "init")
    assert code == 0, err
    result = import_json(capsys, plain, tmp_path / "out.json")
    assert result["imported"] == [] and len(result["skipped"]) == 21
    assert "no `memories` table" in result["skipped"][0]["reason"]


def test_an_imported_supersession_never_closes_a_loop(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = build_host80(tmp_path / "target.db")
    with connect(target) as conn:
        add_memory(conn, "git:other", "Taken id", memory_id=2)  # #2 of the file takes a new id here
    chain = {1: 2, 2: 3, 3: 1, 4: 5, 5: 4}
    items = [item(i, status="archived", superseded_by_memory_id=to) for i, to in chain.items()]
    result = import_json(capsys, target, write_file(tmp_path / "in.json", items))
    here = {item["from_id"]: item["memory_id"] for item in result["imported"]}
    assert here[2] != 2
    assert [links(target, here[i])[0] for i in chain] == [here[2], here[3], None, here[5], None]
    assert result["notes"] == [
        {
            "from_id": 3,
            "note": "superseded_by_memory_id #1 left out: it would close a loop (#3 → #1 → #2 → #3)",
        },
        {"from_id": 5, "note": "superseded_by_memory_id #4 left out: it would close a loop (#5 → #4 → #5)"},
    ]
