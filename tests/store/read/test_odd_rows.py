"""Host rows no writer of ours would make, one case each: every read command still
answers, shows the other rows, marks the odd one ("malformed", with a note naming the raw value) and
writes nothing to the host's tables. The rows are written by plain sqlite3, as a host (or a damaged
file) could: the host's tables have no CHECKs.

What is new with the tolerant reading (`app.store.read.rows`, `host_cells`) is imported in the tests that use
it, so that on a tree without it every other test still fails for its own reason.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.cli import main
from app.core.clock import ManualClock, format_instant
from app.core.models import Memory
from app.present.card import card_meta, timestamps_tooltip
from app.store import MemoryStore
from app.store.schema.tables import user_memories, user_memory_candidates
from tests.support.hostdb import build_host_db, host_dump, host_sql

NOW = "2026-10-21T03:13:32Z"
SHOWABLE = (0, 32_535_215_999_999)  # 1970 to the end of year 3000 (`host_cells.TIME_MIN`, `TIME_MAX`)
ODD = 4  # the seed's "Lives in Berlin (CET)", made odd by each case
SEED_IDS = [1, 2, 3, 4, 5]
DEEP = "[" * 100_000  # nesting past what Python's JSON parser recurses into


def _set(column: str, sql_value: str, table: str = "user_memories", row: int = ODD) -> str:
    return f"UPDATE {table} SET {column} = {sql_value} WHERE id = {row}"


# case: (the UPDATE making row 4 odd, a fragment of the note it must get)
MEMORY_CASES = {
    "updated_at text": (_set("updated_at", "'yesterday'"), "updated_at is text 'yesterday'"),
    "promoted_at text": (_set("promoted_at", "'last week'"), "promoted_at is text 'last week'"),
    "updated_at 2^63-1": (
        _set("updated_at", "9223372036854775807"),
        "updated_at is the integer 9223372036854775807",
    ),
    "promoted_at -2^63": (
        _set("promoted_at", "-9223372036854775808"),
        "promoted_at is the integer -9223372036854775808",
    ),
    "updated_at real": (_set("updated_at", "1.5e300"), "updated_at is the real number 1.5e+300"),
    "updated_at infinite": (_set("updated_at", "9e999"), "updated_at is the real number inf"),
    "content blob": (_set("content", "x'4265726c696eff'"), "content is a blob x'4265726c696eff' (7 bytes)"),
    "status blob": (_set("status", "x'616374697665'"), "status is a blob x'616374697665' (6 bytes)"),
    "content not UTF-8": (_set("content", "CAST(x'4265726c696eff' AS TEXT)"), "content is not valid UTF-8"),
    "status not UTF-8": (_set("status", "CAST(x'61ff' AS TEXT)"), "status is not valid UTF-8"),
    "provenance nested deep": (
        _set("source_candidate_provenance", f"'{DEEP}'"),
        "source_candidate_provenance is not a readable JSON array",
    ),
    "candidate ids nested deep": (
        _set("source_candidate_ids", f"'{DEEP}'"),
        "source_candidate_ids is not a readable JSON array",
    ),
    "candidate ids past 64 bits": (
        _set("source_candidate_ids", "'[9, 123456789012345678901234567890]'"),
        "source_candidate_ids has ids outside 64 bits",
    ),
}
# what a listing may show of each case: these read commands must all answer (exit 0)
READ_COMMANDS = [
    ["list"],
    ["show", str(ODD)],
    ["history", str(ODD), "--json"],
    ["export"],
    ["export", "--format", "markdown"],
    ["profile"],
    ["recall", "--search", "Berlin", "--order", "relevance"],
    ["recall", "--json"],
    ["review", "prompt"],
]

CANDIDATE_CASES = {
    "created_at text": (
        _set("created_at", "'yesterday'", "user_memory_candidates", 141),
        "created_at is text 'yesterday'",
    ),
    "session blob": (
        _set("session_id", "x'00ff'", "user_memory_candidates", 141),
        "session_id is a blob x'00ff' (2 bytes)",
    ),
    "content blob": (
        _set("content", "x'00ff'", "user_memory_candidates", 141),
        "content is a blob x'00ff' (2 bytes)",
    ),
    "content not UTF-8": (
        _set("content", "CAST(x'c3' AS TEXT)", "user_memory_candidates", 141),
        "content is not valid UTF-8",
    ),
    "compartment text": (
        _set("source_compartment_start", "'four'", "user_memory_candidates", 141),
        "source_compartment_start is text 'four'",
    ),
}


@pytest.fixture(autouse=True)
def _fixed_now(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMORY_DASHBOARD_NOW", NOW)


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    code = main(list(argv))
    out, _err = capsys.readouterr()
    return code, out


def odd_db(tmp_path: Path, statement: str) -> Path:
    path = build_host_db(tmp_path / "context.db")
    host_sql(path, statement)
    return path


@pytest.mark.parametrize("read_only", [False, True], ids=["writable", "read-only"])
@pytest.mark.parametrize("case", list(MEMORY_CASES))
def test_an_odd_memory_is_shown_marked_and_hides_no_other(
    case: str, read_only: bool, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    statement, note = MEMORY_CASES[case]
    path = odd_db(tmp_path, statement)
    options = ["--db", str(path), *(["--read-only"] if read_only else [])]
    before = host_dump(path)

    code, out = run(capsys, *options, "list", "--json")
    assert code == 0
    listed = {item["id"]: item for item in json.loads(out)}
    assert sorted(listed) == SEED_IDS  # one bad row hides no other
    assert listed[ODD]["malformed"] is True
    assert any(note in text for text in listed[ODD]["oddities"]), listed[ODD]["oddities"]
    assert all(not listed[i]["malformed"] and listed[i]["oddities"] == [] for i in SEED_IDS if i != ODD)
    for command in READ_COMMANDS:
        code, out = run(capsys, *options, *command)
        assert code == 0, command
    assert host_dump(path) == before  # a read never repairs the row


def test_the_odd_memory_says_so_on_the_terminal(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = odd_db(tmp_path, MEMORY_CASES["updated_at text"][0])
    code, out = run(capsys, "--db", str(path), "show", str(ODD))
    assert code == 0
    assert "· malformed" in out.splitlines()[1]
    assert "malformed updated_at is text 'yesterday', not epoch milliseconds in range" in out
    code, out = run(capsys, "--db", str(path), "list")
    assert f"#{ODD:<6} active (malformed)" in out


@pytest.mark.parametrize("case", list(CANDIDATE_CASES))
def test_an_odd_candidate_is_shown_marked(
    case: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    statement, note = CANDIDATE_CASES[case]
    path = odd_db(tmp_path, statement)
    before = host_dump(path)
    code, out = run(capsys, "--db", str(path), "candidates", "--json")
    assert code == 0
    listed = {item["id"]: item for item in json.loads(out)}
    assert len(listed) == 6 and listed[141]["malformed"] is True
    assert any(note in text for text in listed[141]["oddities"]), listed[141]["oddities"]
    code, out = run(capsys, "--db", str(path), "candidates")
    assert code == 0 and "#141" in out.split("(malformed)")[0]
    code, out = run(capsys, "--db", str(path), "review", "prompt")
    assert code == 0 and "Candidate #141 [session " in out
    assert host_dump(path) == before


def open_store(path: Path) -> MemoryStore:
    return MemoryStore.open(path, clock=ManualClock(1_792_552_412_000))


@pytest.mark.parametrize("value", ["9223372036854775807", "-9223372036854775808", "9e999", "-9e999"])
def test_timestamps_past_any_clock_are_clamped_to_what_can_be_shown(tmp_path: Path, value: str) -> None:
    path = odd_db(tmp_path, f"UPDATE user_memories SET promoted_at = {value}, updated_at = {value}")
    store = open_store(path)
    try:
        memories = store.list_memories()
    finally:
        store.close()
    assert len(memories) == 5
    for memory in memories:
        for instant in (memory.promoted_at, memory.created_at, memory.updated_at):
            assert SHOWABLE[0] <= instant <= SHOWABLE[1]
        assert memory.malformed
        format_instant(memory.updated_at)  # the card's tooltip and the CLI's absolute times
        timestamps_tooltip(memory)
        card_meta(memory, store.now())


def test_a_blob_status_is_not_active_and_not_injected(tmp_path: Path) -> None:
    """The host selects `status = 'active'`, which a blob never equals: neither may the app."""
    path = odd_db(tmp_path, MEMORY_CASES["status blob"][0])
    store = open_store(path)
    try:
        memory = store.get(ODD)
        profile = [item.id for item in store.profile()]
    finally:
        store.close()
    assert memory.status == "x'616374697665'" and not memory.injected
    assert ODD not in profile and 1 in profile


def test_text_that_is_not_utf8_reads_marked() -> None:
    from app.store.read.host_cells import UndecodableText, decode_text

    assert type(decode_text("Grüße".encode())) is str
    odd = decode_text(b"A\xffB")
    assert isinstance(odd, UndecodableText) and odd == "A\ufffdB"


def test_candidate_ids_past_64_bits_are_kept_and_looked_up_safely(tmp_path: Path) -> None:
    path = odd_db(tmp_path, MEMORY_CASES["candidate ids past 64 bits"][0])
    store = open_store(path)
    try:
        memory = store.get(ODD)
        assert memory.source_candidate_ids == (9, 123456789012345678901234567890)
        assert store.candidates(memory.source_candidate_ids) == []  # no row has one; SQLite cannot take it
    finally:
        store.close()


def test_best_match_ranks_odd_cells(tmp_path: Path) -> None:
    """`recall --order relevance` ranks in Python: a text `updated_at` ranks too (as 1970), and text
    that is not UTF-8 is searched as it reads. (SQLite's LIKE never matches a blob content.)"""
    path = odd_db(tmp_path, "UPDATE user_memories SET content = 'pnpm pnpm' WHERE id IN (4, 5)")
    host_sql(path, "UPDATE user_memories SET updated_at = 'yesterday' WHERE id = 4")
    host_sql(path, "UPDATE user_memories SET content = CAST(x'706e706dff' AS TEXT) WHERE id = 1")
    store = open_store(path)
    try:
        ranked = [memory.id for memory in store.recall("pnpm", order="relevance")]
    finally:
        store.close()
    assert ranked == [5, 4, 1]  # two matches each: the later update first; then the single match


def test_odd_values_in_our_own_revisions_read_too(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """An older version recorded observed host values as they were (a text time, a blob status)."""
    path = build_host_db(tmp_path / "context.db")
    open_store(path).close()  # our own tables
    host_sql(
        path,
        "INSERT INTO mdash_revisions (memory_id, changed_at, kind, source, candidate_ids, previous_content,"
        " new_content, previous_status, new_status, detail) VALUES (4, 'yesterday', 'status', 'observed',"
        f" '[]', x'4265726c696e', CAST(x'41ff' AS TEXT), 'active', x'00', '{DEEP}')",
    )
    code, out = run(capsys, "--db", str(path), "history", str(ODD), "--json")
    assert code == 0
    (revision,) = json.loads(out)
    assert revision["changed_at"] == SHOWABLE[0] and revision["previous_content"] == "Berlin"
    assert revision["new_content"] == "A\ufffd" and revision["new_status"] == "\x00"
    code, _out = run(capsys, "--db", str(path), "history", str(ODD))
    assert code == 0


def test_every_host_column_is_read() -> None:
    from app.store.read.rows import CANDIDATE_COLUMNS, HOST_COLUMNS

    assert sorted(HOST_COLUMNS) == sorted(column.name for column in user_memories.c)
    assert sorted(CANDIDATE_COLUMNS) == sorted(column.name for column in user_memory_candidates.c)


def test_a_status_that_only_looks_active_is_shown_so(tmp_path: Path) -> None:
    from app.present.card import shown_word

    assert shown_word("active") == "active"
    assert shown_word("active ") == "'active '"
    assert shown_word("active\n") == "active\\n"
    assert shown_word("x" * 100).endswith("…") and len(shown_word("x" * 100)) == 40
    path = odd_db(tmp_path, _set("status", "'active\n\u202e'"))
    store = open_store(path)
    try:
        memory: Memory = store.get(ODD)
    finally:
        store.close()
    assert not memory.injected
    assert card_meta(memory, store.now()).startswith("active\\n⟦U+202E⟧ · ")
