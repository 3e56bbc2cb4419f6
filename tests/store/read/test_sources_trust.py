"""Sources, trust marks, screening and a memory a person writes, on the seed's host file.

Seed: #1, #2 (dismissed) and #4 come from session `ses_seed` only; #5 from `ses_a1` and `ses_b7`; #3 has
no provenance (`unknown:`).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.core.errors import InvalidInputError, ReadOnlyError
from app.core.trust import SEMI, TRUSTED, UNTRUSTED, parse_source
from app.store import MemoryFilter, MemoryStore
from tests.conftest import REVIEW_TIME
from tests.review.review_helpers import snapshot
from tests.support.hostdb import DAY, T0, host_sql, profile_version, query


def ids_of(store: MemoryStore, **filters: object) -> list[int]:
    return store.list_ids(MemoryFilter(**filters))  # type: ignore[arg-type]


def test_filter_by_source_scheme_and_date(store: MemoryStore) -> None:
    assert ids_of(store, source="session:ses_seed") == [1, 2, 4]
    assert ids_of(store, source="session:ses_b7") == [5]
    assert ids_of(store, source="session:") == [1, 2, 4, 5]
    assert ids_of(store, source="unknown:") == [3]
    assert ids_of(store, source="session:ses_seed", since=T0 + DAY, until=T0 + 3 * DAY) == [2]
    assert ids_of(store, source="session:nobody") == []


def test_everything_a_source_contributed_only_or_among_others(store: MemoryStore) -> None:
    only, shared = store.contributions("session:ses_seed")
    assert [m.id for m in only] == [1, 2, 4] and shared == []
    only, shared = store.contributions("session:ses_a1")
    assert only == [] and [m.id for m in shared] == [5]
    store.edit(4, "Lives in Berlin (CET), moved in 2024")  # a person's edit adds user:dashboard
    only, shared = store.contributions("session:ses_seed")
    assert [m.id for m in only] == [1, 2] and [m.id for m in shared] == [4]
    only, _ = store.contributions("user:dashboard")
    assert only == []


def test_marks_grade_the_weakest_source(store: MemoryStore, host_db: Path) -> None:
    assert store.get(1).trust == SEMI and store.get(5).trust == SEMI
    before = profile_version(host_db)
    store.set_trust("session:", UNTRUSTED)
    store.set_trust("session:ses_seed", TRUSTED)  # the source's mark outranks its scheme's
    assert profile_version(host_db) == before  # what the host injects did not change
    one, five = store.get(1), store.get(5)
    assert one.trust == TRUSTED and five.trust == UNTRUSTED
    assert five.trust_reasons == (
        "session:ses_a1: every session: source is marked untrusted",
        "session:ses_b7: every session: source is marked untrusted",
    )
    assert store.trust_marks() == {"session:": UNTRUSTED, "session:ses_seed": TRUSTED}
    assert ids_of(store, trust="untrusted") == [5] and ids_of(store, trust="trusted") == [1, 2, 4]
    store.set_trust("session:", "default")
    assert store.get(5).trust == SEMI and store.trust_marks() == {"session:ses_seed": TRUSTED}
    assert query(host_db, "SELECT source, trust FROM mdash_trust_marks") == [("session:ses_seed", TRUSTED)]
    with pytest.raises(InvalidInputError):
        store.set_trust("session:x", "semi")


def test_hidden_characters_screen_a_trusted_memory(store: MemoryStore, host_db: Path) -> None:
    store.set_trust("session:ses_seed", TRUSTED)
    host_sql(host_db, "UPDATE user_memories SET content = ? WHERE id = 1", ("Prefers\u200b tabs\u202e",))
    memory = store.get(1)
    assert memory.trust == UNTRUSTED
    assert memory.trust_reasons[0].startswith("screened: the content holds hidden characters: U+200B")
    assert "(bidi)" in memory.trust_reasons[0]
    assert ids_of(store, trust="screened") == [1]
    assert 1 in ids_of(store, trust="untrusted") and 4 in ids_of(store, trust="trusted")


def test_read_only_keeps_marks_in_memory(host_db: Path) -> None:
    MemoryStore.open(host_db).close()  # migrated
    before = snapshot(host_db)
    store = MemoryStore.open(host_db, read_only=True)
    try:
        store.set_trust("session:ses_b7", UNTRUSTED)
        assert store.get(5).trust == UNTRUSTED
        with pytest.raises(ReadOnlyError):
            store.add("nope")
    finally:
        store.close()
    assert snapshot(host_db) == before


def test_add_writes_like_a_promotion_by_a_person(store: MemoryStore, host_db: Path) -> None:
    before = profile_version(host_db)
    memory = store.add("Prefers dark mode in every editor")
    assert profile_version(host_db) == before + 1
    row = query(
        host_db,
        "SELECT status, promoted_at, created_at, updated_at, source_candidate_ids,"
        " source_candidate_provenance FROM user_memories WHERE id = ?",
        (memory.id,),
    )[0]
    assert row == ("active", REVIEW_TIME, REVIEW_TIME, REVIEW_TIME, "[]", "[]")
    assert memory.sources == ("user:dashboard",) and memory.trust == TRUSTED and memory.injected
    [revision] = store.history(memory.id)
    assert (revision.kind, revision.source, revision.new_content) == (
        "create",
        "dashboard",
        "Prefers dark mode in every editor",
    )
    assert json.loads(json.dumps(dict(revision.detail)))["origin"] == "manual"
    with pytest.raises(InvalidInputError):
        store.add("   ")


def test_parse_source() -> None:
    assert parse_source(" ses_abc ") == "session:ses_abc"
    assert parse_source("Session:") == "session:"
    assert parse_source("user:dashboard") == "user:dashboard"
    with pytest.raises(ValueError):
        parse_source(" ")


@pytest.mark.parametrize(
    "provenance",
    [
        '[{"candidate_id": 1, "session_id": "s", "source_compartment_start": null}]',  # a key missing
        '[{"candidate_id": true, "session_id": "s",'
        ' "source_compartment_start": 1, "source_compartment_end": 2}]',
        '[{"candidate_id": 1, "session_id": "s", "source_compartment_start": 1,'
        ' "source_compartment_end": 2}]',
        "not json",
        "[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]",
        None,
    ],
)
def test_the_trust_filter_judges_odd_rows_as_their_cards(
    store: MemoryStore, host_db: Path, provenance: str | None
) -> None:
    store.set_trust("session:s", TRUSTED)
    store.set_trust("unknown:", UNTRUSTED)
    host_sql(
        host_db,
        "UPDATE user_memories SET source_candidate_ids = '[1]', source_candidate_provenance = ? WHERE id = 1",
        (provenance,),
    )
    card = store.get(1)
    for trust in ("trusted", "semi", "untrusted"):
        assert (1 in ids_of(store, trust=trust)) == (card.trust == trust), trust


def test_a_read_only_store_at_the_previous_revision_keeps_its_facts(host_db: Path) -> None:
    """A file the app last migrated to 0003 (no marks table) that it cannot migrate now: its history and
    expiry still read, and marks live in memory."""
    from alembic import command
    from sqlalchemy import create_engine

    from app.store.schema.migrate import alembic_config

    engine = create_engine(f"sqlite:///{host_db}")
    with engine.begin() as conn:
        command.upgrade(alembic_config(conn), "0003")
    engine.dispose()
    store = MemoryStore.open(host_db, read_only=True)
    try:
        assert store.has_own_tables and store.trust_marks() == {}
        store.set_trust("session:ses_seed", TRUSTED)
        assert store.get(1).trust == TRUSTED
    finally:
        store.close()
    assert query(host_db, "SELECT count(*) FROM sqlite_master WHERE name = 'mdash_trust_marks'") == [(0,)]


ESCAPED = (
    '[{"candidate_id":1,"session_id":"ses_\\u0061bc",'
    '"source_compartment_start":null,"source_compartment_end":null}]'
)
PLAIN_ABC = ESCAPED.replace("\\u0061", "a")


@pytest.mark.parametrize(
    ("provenance", "content"),
    [
        (ESCAPED, "plain text\twith a tab"),  # the session id written as a JSON escape
        (PLAIN_ABC, "plain text"),
        (PLAIN_ABC, "an ESC \x1b[2J in ASCII"),  # a control character among printable ASCII
        (ESCAPED, "café, no hidden character"),  # not ASCII, nothing hidden
        (PLAIN_ABC, "zero\u200bwidth"),
    ],
)
@pytest.mark.parametrize("scheme_mark", [None, UNTRUSTED])
def test_the_trust_filter_agrees_with_the_cards_under_a_sessions_own_mark(
    store: MemoryStore, host_db: Path, provenance: str, content: str, scheme_mark: str | None
) -> None:
    store.set_trust("session:ses_abc", UNTRUSTED)
    if scheme_mark is not None:  # `session:` and `unknown:` no longer share one trust
        store.set_trust("session:", scheme_mark)
    host_sql(
        host_db,
        "UPDATE user_memories SET source_candidate_ids = '[1]', source_candidate_provenance = ?,"
        " content = ? WHERE id = 1",
        (provenance, content),
    )
    store.edit(4, "Lives in Berlin (CET), moved in 2024")  # #4 gains the dashboard's own source
    cards = store.list_memories(MemoryFilter(status="all"))
    for trust in ("trusted", "semi", "untrusted"):
        assert ids_of(store, status="all", trust=trust) == [m.id for m in cards if m.trust == trust], trust
    screened = [m.id for m in cards if m.has_hidden_characters]
    assert ids_of(store, status="all", trust="screened") == screened
