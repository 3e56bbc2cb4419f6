"""`import` checks every value of the file where it enters, as a verdict's or a typed edit's: a value the app
would call malformed (a status the host does not know, a time no reader can show, a candidate id the host
never makes, a version that is none) refuses the whole file and writes nothing; a memory whose content
holds hidden characters is skipped unless `--allow-hidden` says otherwise. The texts of its history, its
provenance and its own sources: test_import_values.py.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.cli import main
from app.transfer.export_format import parse_export
from tests.conftest import REVIEW_TIME
from tests.support.hostdb import has_table, host_dump, profile_version, query

INT64_MAX = 2**63 - 1
HIDDEN = "Prefers tabs\u202e, always"  # a right-to-left override inside


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def memory(**changes: object) -> dict[str, object]:
    """Memory #9 as an export holds it, with `changes`."""
    return {
        "id": 9,
        "content": "Likes dark themes",
        "status": "active",
        "promoted_at": REVIEW_TIME,
        "created_at": REVIEW_TIME,
        "updated_at": REVIEW_TIME,
        "source_candidate_ids": [],
        "provenance": [],
        **changes,
    }


def revision(**changes: object) -> dict[str, object]:
    return {
        "id": 1,
        "kind": "create",
        "source": "dashboard",
        "changed_at": REVIEW_TIME,
        "candidate_ids": [],
        **changes,
    }


def export_text(*memories: dict[str, object], **top: object) -> str:
    data = {"format": "memory-dashboard-export", "version": 1, "exported_at": REVIEW_TIME, **top}
    return json.dumps({**data, "memories": list(memories)})


def own_rows(db: Path) -> list[tuple[object, ...]]:
    """The dashboard's revisions (none before the store first opened the file)."""
    return query(db, "SELECT * FROM mdash_revisions ORDER BY id") if has_table(db, "mdash_revisions") else []


ENTRY = {"candidate_id": 7, "session_id": "ses_x", "source_compartment_start": 1, "source_compartment_end": 2}


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            export_text(memory(status="banana")),
            'memories[0].status of memory #9 is "banana", not a status',
        ),
        (export_text(memory(status="")), 'memories[0].status of memory #9 is ""'),
        (export_text(memory(status="ACTIVE")), 'memories[0].status of memory #9 is "ACTIVE"'),
        (export_text(memory(promoted_at=INT64_MAX)), f"memories[0].promoted_at is {INT64_MAX}, not epoch"),
        (export_text(memory(created_at=-1)), "memories[0].created_at is -1, not epoch milliseconds"),
        (export_text(memory(updated_at=-(2**63))), "memories[0].updated_at is"),
        (export_text(memory(content_changed_at=-5)), "memories[0].content_changed_at is -5"),
        (export_text(memory(expires_at=INT64_MAX)), "memories[0].expires_at is"),
        (export_text(memory(revisions=[revision(changed_at=-1)])), "revisions[0].changed_at is -1"),
        (
            export_text(memory(revisions=[revision(new_status="banana")])),
            'memories[0].revisions[0].new_status of memory #9 is "banana", not a status the host knows',
        ),
        (
            export_text(memory(revisions=[revision(previous_status="ACTIVE\u202e")])),
            'memories[0].revisions[0].previous_status of memory #9 is "ACTIVE\\u202e"',
        ),
        (export_text(memory(), exported_at=-1), "export.exported_at is -1"),
        (
            export_text(memory(source_candidate_ids=[0])),
            "source_candidate_ids holds something other than ids",
        ),
        (export_text(memory(revisions=[revision(candidate_ids=[-3])])), "candidate_ids holds something"),
        (export_text(memory(provenance=[{**ENTRY, "candidate_id": -7}])), "provenance[0] is not an entry"),
        (export_text(memory(provenance=[{**ENTRY, "added_at": -5}])), "provenance[0].added_at is -5"),
        (export_text(memory(), database="at \ud800 home"), "export.database holds a lone surrogate (U+D800)"),
        (export_text(memory(), version=-7), "export.version is -7, not an export version"),
        (export_text(memory(), version=0), "export.version is 0, not an export version"),
    ],
)
def test_a_malformed_value_refuses_the_whole_file_and_writes_nothing(
    host_db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, message: str
) -> None:
    path = tmp_path / "in.json"
    fine = memory(id=10, content="Writes commit messages in the imperative")
    path.write_text(text.replace('"memories": [', f'"memories": [{json.dumps(fine)}, ', 1), encoding="utf-8")
    message = message.replace("memories[0]", "memories[1]")
    before = (host_dump(host_db), profile_version(host_db), own_rows(host_db))
    code, out, err = run(capsys, "--db", str(host_db), "import", str(path))
    assert (code, out) == (1, "")
    assert message in err and "nothing was imported" in err and "Traceback" not in err
    assert (host_dump(host_db), profile_version(host_db), own_rows(host_db)) == before


def test_a_status_is_shown_escaped_in_the_refusal(
    host_db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "in.json"
    path.write_text(export_text(memory(status="act\u202eive\x1b[2J")), encoding="utf-8")
    code, _, err = run(capsys, "--db", str(host_db), "import", str(path))
    assert code == 1 and 'is "act\\u202eive\\u001b[2J"' in err and "\u202e" not in err and "\x1b" not in err


def test_hidden_characters_in_a_content_are_skipped_unless_allowed(
    host_db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "in.json"
    path.write_text(
        export_text(memory(content=HIDDEN), memory(id=10, content="Plain words")), encoding="utf-8"
    )
    code, out, _ = run(capsys, "--db", str(host_db), "import", str(path))
    assert code == 0 and out.startswith("imported 1 memory, skipped 1")
    assert "skipped #9: its content holds 1 hidden character(s) (U+202E" in out and "--allow-hidden" in out
    assert query(host_db, "SELECT count(*) FROM user_memories WHERE content = ?", (HIDDEN,)) == [(0,)]
    code, out, _ = run(capsys, "--db", str(host_db), "import", str(path), "--allow-hidden")
    assert code == 0 and out.startswith("imported 1 memory, skipped 1")
    assert query(host_db, "SELECT count(*) FROM user_memories WHERE content = ?", (HIDDEN,)) == [(1,)]


def test_the_window_reads_the_file_with_the_same_checks() -> None:
    """File → Import… parses with `parse_export`'s defaults: hidden characters are not allowed there."""
    (parsed,) = parse_export(export_text(memory(content=HIDDEN))).memories
    assert parsed.problem is not None and "hidden character" in parsed.problem
    assert parse_export(export_text(memory(content=HIDDEN)), allow_hidden=True).memories[0].problem is None


def test_every_value_the_host_and_the_readers_take_is_accepted(
    host_db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The edges of each range: epoch 0 and the end of year 3000, a dismissed memory, no version at all."""
    last = 32_535_215_999_999
    entry = {**ENTRY, "added_at": 0}
    text = export_text(
        memory(status="dismissed", promoted_at=0, created_at=0, updated_at=last, expires_at=last),
        memory(id=10, content="Second", provenance=[entry], source_candidate_ids=[7], revisions=[revision()]),
    ).replace('"version": 1, ', "")
    path = tmp_path / "in.json"
    path.write_text(text, encoding="utf-8")
    code, out, _ = run(capsys, "--db", str(host_db), "import", str(path), "--json")
    assert code == 0 and len(json.loads(out)["imported"]) == 2
    rows = query(
        host_db,
        "SELECT status, promoted_at, updated_at FROM user_memories WHERE content = ?",
        ("Likes dark themes",),
    )
    assert rows == [("dismissed", 0, last)]
