"""`MemoryStore`: the one object the CLI, the window and the review use to read and change memories.

It opens the database (host file, URL, or the embedded store), migrates the dashboard's own tables,
fills the search index and sweeps expired memories; its methods come from one part per role, each
beside the modules it uses:

- `app.store.base.StoreBase`: the opened database, the clock, transactions (`write`, one profile bump),
  the lease rule for the candidate pool (`_triage`) and the evidence archive's intake (`archive_in`);
- `app.store.observe.store_observe.Observing`: `observe`, outside rewrites recorded on every listing;
- `app.store.search.store_upkeep.SearchUpkeep`: filling the search index and indexing changes that wait;
- `app.store.read.store_reads.Reads`: listings, `get`, `history`, counts, the profile, recall, marks;
- `app.store.evidence.store_past.Past`: evidence, review runs, blame, as-of and the digest;
- `app.store.write.store_writes.Writes`: one public method per user-facing write (the review's verdicts
  go through `app.review.apply`).
"""

from __future__ import annotations

from pathlib import Path

from app.core.clock import Clock, clock_from_env
from app.core.errors import DatabaseLockedError
from app.core.paths import DatabaseChoice, choose_database, is_url
from app.store.base import StoreBase
from app.store.connect.engine import open_sqlite_file, open_url, sqlite_file_of
from app.store.evidence.store_past import Past
from app.store.observe.store_observe import Observing
from app.store.read.store_reads import FIRST_WINDOW, Reads
from app.store.schema.migrate import upgrade
from app.store.search.store_upkeep import SearchUpkeep
from app.store.write.store_writes import KEEP, Writes

__all__ = ["FIRST_WINDOW", "KEEP", "MemoryStore"]


class MemoryStore(Writes, Past, Reads, Observing, SearchUpkeep, StoreBase):
    @classmethod
    def open(
        cls,
        target: str | Path | DatabaseChoice | None = None,
        *,
        read_only: bool = False,
        clock: Clock | None = None,
        create: bool = False,
        sweep: bool = True,
    ) -> MemoryStore:
        """Open (and, when writable, migrate and sweep) a database; `target` None picks the default."""
        choice = (
            target if isinstance(target, DatabaseChoice) else choose_database(str(target) if target else None)
        )
        file = sqlite_file_of(choice.target) if is_url(choice.target) else Path(choice.target)
        if file is None:
            opened = open_url(choice.target, read_only=read_only)
        else:
            opened = open_sqlite_file(file, read_only=read_only, create=create or choice.is_embedded)
        try:
            if not opened.read_only:
                upgrade(opened.engine, opened.location)
            store = cls(opened, clock or clock_from_env(), choice.origin)
        except BaseException:
            opened.close()  # a refused open keeps no connection (nor a private snapshot) behind
            raise
        if not store.read_only:
            store.fill_search_index()
        if sweep and not store.read_only:
            try:
                store.swept = store.sweep()
            except DatabaseLockedError as exc:
                store.warnings.append(f"expired memories not swept yet: {exc}")
        return store

    def reopened(self) -> MemoryStore:
        """This database opened once more, with connections of its own, in the same mode and on the same
        clock, not swept: for work on another thread (the window's hub publish) beside this store's. A
        server's URL keeps its password here (the location shown hides it)."""
        engine_url = self._db.engine.url
        target = self.location if self._db.is_sqlite else engine_url.render_as_string(hide_password=False)
        choice = DatabaseChoice(target, self.origin)
        return MemoryStore.open(choice, read_only=self.read_only, clock=self.clock, sweep=False)
