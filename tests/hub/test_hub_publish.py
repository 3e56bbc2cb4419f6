"""`hub publish` and `hub status` on a hub database of the test server, from host-shaped SQLite files."""

from __future__ import annotations

import json
import threading
from contextlib import closing
from pathlib import Path

import pytest

from app.cli import main
from app.core.errors import EXIT_UNUSABLE_DATABASE
from tests.support import hub_host
from tests.support.hostdb import has_table, host_dump, host_sql
from tests.support.hub_host import (
    NOW,
    host_file,
    hub_query,
    hub_tables,
    local_memories,
    local_revision_ids,
    machine_memories,
    open_store,
    publish_file,
)

pinned_clock = hub_host.pinned_clock  # the clock pinned in every test here (autouse)
hub_db = hub_host.hub_db  # a hub set up by its administrator; the URL of an ordinary publisher


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_first_publish_sends_everything_and_twice_changes_nothing(
    hub_db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    laptop = host_file(tmp_path / "laptop.db")
    code, out, err = run(capsys, "--db", str(laptop), "hub", "publish", "--to", hub_db,
                         "--machine", "laptop", "--json")  # fmt: skip
    assert (code, err) == (0, "")
    report = json.loads(out)
    assert report["first"] is True
    assert report["memories"] == 5
    assert report["revisions"] == len(local_revision_ids(laptop)) > 0
    assert machine_memories(hub_db, "laptop") == local_memories(laptop)
    assert [row[0] for row in hub_query(hub_db, "SELECT revision_id FROM hub_revisions ORDER BY 1")] == (
        local_revision_ids(laptop)
    )
    before = hub_tables(hub_db)
    code, out, _ = run(capsys, "--db", str(laptop), "hub", "publish", "--to", hub_db, "--machine", "laptop")
    assert code == 0
    assert "nothing new to publish" in out
    assert hub_tables(hub_db) == before


def test_a_later_publish_sends_only_what_changed(hub_db: str, tmp_path: Path) -> None:
    laptop = host_file(tmp_path / "laptop.db")
    publish_file(laptop, hub_db, "laptop")
    revisions_before = len(local_revision_ids(laptop))
    with closing(open_store(laptop)) as store:
        store.edit(5, "Prefers pnpm, and bun for scripts")
        store.delete(4)
    report = publish_file(laptop, hub_db, "laptop")
    assert report.first is False
    assert (report.memories, report.removed) == (1, 1)
    assert report.revisions == len(local_revision_ids(laptop)) - revisions_before == 2
    assert machine_memories(hub_db, "laptop") == local_memories(laptop)
    # the deleted memory's revisions stay in the hub
    kinds = hub_query(hub_db, "SELECT kind FROM hub_revisions WHERE memory_id = 4 ORDER BY revision_id")
    assert kinds[-1] == ("delete",)


def test_two_machines_publish_to_one_hub_and_status_lists_both(
    hub_db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    laptop = host_file(tmp_path / "laptop.db")
    desktop = host_file(tmp_path / "desktop.db", memories=3)
    publish_file(laptop, hub_db, "laptop")
    publish_file(desktop, hub_db, "desktop")
    assert machine_memories(hub_db, "laptop") == local_memories(laptop)
    assert machine_memories(hub_db, "desktop") == local_memories(desktop)
    code, out, _ = run(capsys, "hub", "status", "--hub", hub_db, "--json")
    assert code == 0
    machines = {row["machine"]: row for row in json.loads(out)["machines"]}
    assert set(machines) == {"laptop", "desktop"}
    assert (machines["laptop"]["memories"], machines["desktop"]["memories"]) == (5, 8)
    assert machines["laptop"]["active"] == 4  # memory 2 is dismissed
    assert machines["laptop"]["published_at"] == NOW
    assert machines["laptop"]["pending_requests"] == 0
    code, out, _ = run(capsys, "hub", "status", "--hub", hub_db)
    assert code == 0
    assert "desktop" in out and "laptop" in out


def test_four_machines_publishing_at_once_leave_every_row_once(hub_db: str, tmp_path: Path) -> None:
    files = [host_file(tmp_path / f"m{n}.db", memories=400 * n) for n in range(4)]
    errors: list[BaseException] = []
    start = threading.Barrier(4)

    def publish_one(n: int) -> None:
        try:
            start.wait()
            publish_file(files[n], hub_db, f"m{n}", batch=100)
        except BaseException as exc:  # reported below
            errors.append(exc)

    threads = [threading.Thread(target=publish_one, args=(n,)) for n in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    for n, path in enumerate(files):
        assert machine_memories(hub_db, f"m{n}") == local_memories(path)
    total = sum(len(local_memories(path)) for path in files)
    assert hub_query(hub_db, "SELECT count(*), count(DISTINCT (machine, memory_id)) FROM hub_memories") == [
        (total, total)
    ]
    assert hub_query(hub_db, "SELECT count(*) FROM hub_machines") == [(4,)]


def test_a_hub_that_is_down_is_a_message_and_the_local_file_is_untouched(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from tests.support.hostdb import build_host_db

    fresh = build_host_db(tmp_path / "fresh.db")  # never opened by the dashboard: no tables of ours
    dump = host_dump(fresh)
    down = f"postgresql+psycopg://postgres@/hub?host={tmp_path / 'no-server-here'}"
    code, out, err = run(capsys, "--db", str(fresh), "hub", "publish", "--to", down)
    assert code == EXIT_UNUSABLE_DATABASE
    assert out == ""
    assert err.startswith("error: cannot use the PostgreSQL database postgresql+psycopg://postgres@/hub")
    assert "Traceback" not in err
    assert not has_table(fresh, "mdash_revisions")
    assert host_dump(fresh) == dump
    code, _, err = run(capsys, "hub", "status", "--hub", down)
    assert code == EXIT_UNUSABLE_DATABASE
    assert "nothing was changed" in err


def test_without_a_hub_url_publish_says_how_to_give_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:

    code, _, err = run(capsys, "--db", str(tmp_path / "x.db"), "hub", "publish")
    assert code == 1
    assert "no hub: pass --to URL" in err


def test_a_memory_written_behind_the_watermark_is_still_published(hub_db: str, tmp_path: Path) -> None:
    """A host whose clock is behind writes a memory with an `updated_at` older than the last publish:
    the tallies differ, so the ids are compared and it is sent; one deleted at the same time leaves."""
    laptop = host_file(tmp_path / "laptop.db")
    publish_file(laptop, hub_db, "laptop")
    host_sql(
        laptop,
        "INSERT INTO user_memories (id, content, status, promoted_at, created_at, updated_at)"
        " VALUES (60, 'written with a slow clock', 'active', 1, 1, 1)",
    )
    host_sql(laptop, "DELETE FROM user_memories WHERE id = 3")
    report = publish_file(laptop, hub_db, "laptop")
    assert (report.memories, report.removed) == (1, 1)
    assert machine_memories(hub_db, "laptop") == local_memories(laptop)
