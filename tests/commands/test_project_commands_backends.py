"""The project memory commands on every store back end (the conformance suite's: a host file, the embedded
store, PostgreSQL): an edit and an archive, undone and redone, each step's revision in the project log
and its command log entry, with the effects the host sees."""

from __future__ import annotations

from app.commands import runner
from app.commands.project import ArchiveProjectMemory, EditProjectContent
from app.store.project import revisions
from app.store.project.hashing import normalized_hash
from tests.store.test_conformance_projects import Backend, backend, epoch, log
from tests.support.host80 import ALPHA

__all__ = ["backend"]  # the back ends, as a fixture


def test_edit_and_archive_undone_and_redone(backend: Backend) -> None:
    store, host, seeded = backend
    old, new = "Build with pnpm, never npm", "Build with pnpm 9"
    runner.execute(store, EditProjectContent(seeded.active, new), "cli")
    runner.execute(store, ArchiveProjectMemory(seeded.permanent, "no longer true"), "cli")
    assert runner.undo(store) is not None and runner.undo(store) is not None
    row = host.query("SELECT content, normalized_hash FROM memories WHERE id = ?", (seeded.active,))
    assert row == [(old, normalized_hash(old))]
    assert host.query("SELECT status FROM memories WHERE id = ?", (seeded.permanent,)) == [("permanent",)]
    assert runner.redo(store) is not None
    assert host.query("SELECT content FROM memories WHERE id = ?", (seeded.active,)) == [(new,)]
    assert [entry[0] for entry in log(host)] == ["update", "archive", "update", "update"]
    assert epoch(host, ALPHA) == 4  # three edits and the restore
    with store.read_snapshot() as conn:
        contents = [(r.previous_content, r.new_content) for r in revisions.fetch_history(conn, seeded.active)]
    assert contents == [(old, new), (new, old), (old, new)]
    assert [entry.done for entry in runner.history(store)] == [True, False]
