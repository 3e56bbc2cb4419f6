"""Links both ways: supersession chains to their end (a loop and a dangling target shown as what they
are), `merged_from` parsed or shown as it is, "merged into", and every source of a merge of merges."""

from __future__ import annotations

import json
from pathlib import Path

from sqlalchemy import Connection

from app.store.connect.engine import open_sqlite_file, transaction
from app.store.project.links import MAX_SOURCES, Merged, Source, follow_chain, links_of, parse_merged_from
from app.store.project.model import ProjectMemory
from app.store.project.reads import fetch_memory
from tests.support.host80 import ALPHA, DANGLING_TARGET, Seeded, add_memory, connect


def _memory(conn: Connection, memory_id: int) -> ProjectMemory:
    memory = fetch_memory(conn, memory_id)
    assert memory is not None
    return memory


def test_a_chain_is_followed_to_its_end(reading: Connection, seeded: Seeded) -> None:
    first, second, last = seeded.chain
    links = links_of(reading, _memory(reading, first))
    assert (links.chain.steps, links.chain.end, links.chain.problem) == ((second, last), last, None)
    assert links_of(reading, _memory(reading, last)).supersedes == (second,)
    assert links_of(reading, _memory(reading, second)).supersedes == (first,)
    assert links_of(reading, _memory(reading, last)).chain.steps == ()


def test_a_loop_is_shown_not_followed_forever(reading: Connection, seeded: Seeded) -> None:
    one, two = seeded.loop
    chain = links_of(reading, _memory(reading, one)).chain
    assert chain.steps == (two,)
    assert chain.problem == f"the chain loops back to #{one}"


def test_a_dangling_target_is_shown(reading: Connection, seeded: Seeded) -> None:
    chain = links_of(reading, _memory(reading, seeded.dangling)).chain
    assert chain.steps == ()
    assert chain.problem == f"#{seeded.dangling} is superseded by #{DANGLING_TARGET}, which does not exist"


def test_a_self_loop_and_a_long_chain() -> None:
    assert follow_chain(1, lambda i: 1, lambda i: True).problem == "the chain loops back to #1"
    long = follow_chain(0, lambda i: i + 1, lambda i: True)
    assert long.problem is not None and "longer than" in long.problem


def test_merges_both_ways_with_every_source(reading: Connection, seeded: Seeded) -> None:
    s1, s2 = seeded.merge_sources
    links = links_of(reading, _memory(reading, seeded.merged))
    assert links.merged == Merged((s1, s2))
    assert links.sources == (Source(s1, "ses_alpha1"), Source(s2, "ses_alpha2"))
    assert links_of(reading, _memory(reading, s1)).merged_into == (seeded.merged,)


def test_merged_from_that_is_no_list_of_ids_is_shown_as_it_is(reading: Connection, seeded: Seeded) -> None:
    garbage = links_of(reading, _memory(reading, seeded.merged_garbage)).merged
    assert garbage == Merged((), "merged_from is not a JSON list of ids: text 'not json ['")
    as_object = links_of(reading, _memory(reading, seeded.merged_object)).merged
    assert as_object.ids == () and as_object.problem is not None
    assert parse_merged_from('[1, "2", true, 3.0, 4]') == Merged(
        (1, 4), "merged_from has 3 item(s) that are not ids (left out): text '[1, \\\"2\\\", true, 3.0, 4]'"
    )
    assert parse_merged_from("[" * 100_000).problem is not None  # deeper than Python parses
    assert parse_merged_from(None) == Merged()


def test_a_merge_of_merges_lists_every_source_once(host80: Path) -> None:
    with connect(host80) as conn:
        a = add_memory(conn, ALPHA, "a", source_session_id="ses_a")
        b = add_memory(conn, ALPHA, "b", source_session_id="ses_b")
        ab = add_memory(conn, ALPHA, "ab", merged_from=json.dumps([a, b]), source_session_id="ses_ab")
        top = add_memory(conn, ALPHA, "top", merged_from=json.dumps([ab, a, 404]))
        ids_12 = add_memory(conn, ALPHA, "names #12 only", merged_from=json.dumps([12]))
    conn.close()
    opened = open_sqlite_file(host80, read_only=True, create=False)
    try:
        with transaction(opened.engine, write=False, location=opened.location) as reading:
            links = links_of(reading, _memory(reading, top))
            into_a = links_of(reading, _memory(reading, a)).merged_into
            into_1 = links_of(reading, _memory(reading, 1)).merged_into
    finally:
        opened.close()
    assert links.sources == (
        Source(ab, "ses_ab"),
        Source(a, "ses_a"),
        Source(404, None, missing=True),
        Source(b, "ses_b"),
    )
    assert into_a == (ab, top)
    assert ids_12 not in into_1  # `[12]` contains the digits of #1 but names #12


def test_a_merge_naming_hundreds_of_thousands_of_ids_gathers_a_bounded_number_of_sources(
    host80: Path,
) -> None:
    # The host checks nothing in `merged_from`: one row naming 200,000 ids made `show` list (and look up)
    # every one of them, seconds of work and millions of lines for one memory.
    with connect(host80) as conn:
        wide = add_memory(conn, ALPHA, "wide", merged_from=json.dumps(list(range(10_000, 210_000))))
    conn.close()
    opened = open_sqlite_file(host80, read_only=True, create=False)
    try:
        with transaction(opened.engine, write=False, location=opened.location) as reading:
            links = links_of(reading, _memory(reading, wide))
    finally:
        opened.close()
    assert len(links.merged.ids) == 200_000  # what the row says, kept whole
    assert len(links.sources) == MAX_SOURCES
    assert links.sources[0] == Source(10_000, None, missing=True)
