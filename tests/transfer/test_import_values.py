"""What an import writes meets the rules of everything else that writes it: provenance entries those of
`hub pull`, the texts of a memory's history (its earlier and later contents) a memory's content rules, its
own sources the rules of a trust mark. A memory that breaks them is left out and reported (hidden
characters only without `--allow-hidden`), the others are imported; the host's tables hold nothing the
host's own JSON parser refuses.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from tests.support.hostdb import query
from tests.transfer.test_import_checks import ENTRY, export_text, memory, revision, run

RLO = "\u202e"


def import_file(
    host_db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], *argv: str, **changes: object
) -> str:
    """Import memory #9 with `changes` beside a plain #10; the output. #9 is left out."""
    path = tmp_path / "in.json"
    plain = memory(id=10, content="Plain words")
    path.write_text(export_text(memory(**changes), plain), encoding="utf-8")
    code, out, err = run(capsys, "--db", str(host_db), "import", str(path), *argv)
    assert code == 0, err
    assert "imported 1 memory, skipped 1" in out or "imported 0 memories, skipped 2" in out, out
    assert query(host_db, "SELECT count(*) FROM user_memories WHERE content = ?", ("Likes dark themes",)) == [
        (0,)
    ]
    return out


def json_the_host_parses(host_db: Path) -> bool:
    with sqlite3.connect(host_db) as conn:
        found = conn.execute(
            "SELECT count(*) FROM user_memories WHERE source_candidate_provenance IS NOT NULL"
            " AND NOT json_valid(source_candidate_provenance)"
        ).fetchone()
    return bool(found == (0,))


def test_provenance_that_hub_pull_refuses_leaves_the_memory_out(
    host_db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The review's file: a session id with a bidi override and a terminal's ESC, a compartment past 64
    bits, a value JSON cannot hold; refused also with `--allow-hidden`."""
    entry = {
        **ENTRY,
        "session_id": f"ses{RLO}\x1b[2J",
        "source_compartment_start": 2**70,
        "extra": float("nan"),
    }
    for argv in ((), ("--allow-hidden",)):
        out = import_file(host_db, tmp_path, capsys, *argv, provenance=[entry], source_candidate_ids=[7])
        assert "its provenance[0].source_compartment_start 1180591620717411303424 is out of" in out
        assert "its provenance[0].extra nan is not a number JSON can hold" in out
        assert RLO not in out and "\x1b" not in out
        assert json_the_host_parses(host_db)


def test_a_hidden_session_id_comes_in_only_when_allowed(
    host_db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    entry = {**ENTRY, "session_id": f"ses{RLO}x"}
    out = import_file(host_db, tmp_path, capsys, provenance=[entry], source_candidate_ids=[7])
    assert "its provenance[0].session_id holds 1 hidden character(s)" in out and "--allow-hidden" in out
    path = tmp_path / "in.json"
    code, out, _ = run(capsys, "--db", str(host_db), "import", str(path), "--allow-hidden")
    assert code == 0 and out.startswith("imported 1 memory, skipped 1")  # #10 is here already


@pytest.mark.parametrize(
    ("changes", "said"),
    [
        ({"previous_content": "x" * 70_000}, "its revisions[0].previous_content is 70,000 bytes; the limit"),
        ({"new_content": RLO * 100_000}, "its revisions[0].new_content is 300,000 bytes; the limit"),
        ({"previous_content": f"Prefers tabs{RLO}"}, "its revisions[0].previous_content holds 1 hidden"),
        ({"detail": {"reason": f"stale{RLO}"}}, "its revisions[0].detail.reason holds 1 hidden"),
        ({"detail": {"reason": float("inf")}}, "its revisions[0].detail.reason inf is not a number"),
    ],
)
def test_the_texts_of_a_history_meet_the_content_rules(
    host_db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], changes: dict[str, object], said: str
) -> None:
    out = import_file(host_db, tmp_path, capsys, revisions=[revision(kind="content", **changes)])
    assert f"skipped #9: {said}" in out and RLO not in out
    assert ("--allow-hidden" in out) == ("hidden" in said)


@pytest.mark.parametrize(
    ("source", "said", "allowed"),
    [
        ("tool:" + "x" * 200_000, "its sources[0] is 200,005 characters long; the limit is 1,000", False),
        ("tool:\x1b[31mred", "its sources[0] holds a control character (U+001B) at character 6", False),
        ("tool:line\nbreak", "its sources[0] holds a control character (U+000A)", False),
        (f"tool:{RLO}evil", "its sources[0] holds 1 hidden character(s)", True),
    ],
)
def test_own_sources_meet_a_trust_marks_rules(
    host_db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], source: str, said: str, allowed: bool
) -> None:
    out = import_file(host_db, tmp_path, capsys, sources=[source])
    assert f"skipped #9: {said}" in out and "\x1b" not in out and RLO not in out
    code, out, _ = run(capsys, "--db", str(host_db), "import", str(tmp_path / "in.json"), "--allow-hidden")
    assert code == 0 and out.startswith(f"imported {int(allowed)} memor")


def test_derived_sources_are_not_kept_and_not_checked(
    host_db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`session:…` and `unknown:` come from the provenance, which is checked; they are not written."""
    path = tmp_path / "in.json"
    long_session = "session:" + "s" * 5_000
    path.write_text(
        export_text(memory(sources=[long_session, "unknown:", "user:dashboard"])), encoding="utf-8"
    )
    code, out, err = run(capsys, "--db", str(host_db), "import", str(path), "--json")
    assert code == 0 and len(json.loads(out)["imported"]) == 1, err
    assert query(host_db, "SELECT count(*) FROM mdash_memory_sources WHERE source LIKE 'session:%'") == [(0,)]
