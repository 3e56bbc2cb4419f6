"""Shared test set-up: Qt offscreen, a fixed clock, real host-shaped SQLite files."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
# Never the person's own OS keyring: a keyring with no backend, as on a headless machine (the hub's
# keyring tests set a backend of their own, tests/support/memory_keyring.py).
os.environ["PYTHON_KEYRING_BACKEND"] = "keyring.backends.fail.Keyring"

import pytest

from app.core.clock import ManualClock
from app.store import MemoryStore
from tests.support import pg_cluster
from tests.support.host80 import Seeded, build_host80, seed_projects
from tests.support.hostdb import PROMOTED_5, build_host_db
from tests.support.pg_host import HostDb, SqliteHostDb, drop_database, fresh_database, seed_postgres

# "Now" in the seed: the review rewrote #5 on 2026-10-21 03:13:32 UTC.
REVIEW_TIME = 1_792_552_412_000


@pytest.fixture(autouse=True)
def _isolated_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Never touch the real user's data, settings or host database."""
    monkeypatch.setenv("MEMORY_DASHBOARD_DATA_DIR", str(tmp_path / "appdata"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdgconfig"))
    monkeypatch.delenv("MEMORY_DASHBOARD_DB", raising=False)
    monkeypatch.delenv("MEMORY_DASHBOARD_NOW", raising=False)


@pytest.fixture
def host_db(tmp_path: Path) -> Path:
    return build_host_db(tmp_path / "context.db")


@pytest.fixture
def host80(tmp_path: Path) -> Path:
    """A host file of the whole schema v80 (project memories too), empty."""
    return build_host80(tmp_path / "context.db")


@pytest.fixture
def seeded(host80: Path) -> Seeded:
    """`host80` with its projects and their memories (`tests.support.host80.seed_projects`)."""
    return seed_projects(host80)


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock(REVIEW_TIME)


@pytest.fixture
def store(host_db: Path, clock: ManualClock) -> Iterator[MemoryStore]:
    opened = MemoryStore.open(host_db, clock=clock)
    yield opened
    opened.close()


# -- PostgreSQL: a server for the whole run, a fresh database per test ---------------------------------

_postgres_opted_out: list[str] = []


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[str]:
    """The test server's URL: MEMORY_DASHBOARD_TEST_PG, else a throwaway cluster started for this run
    (`pg_cluster`). Never skipped quietly: without a server the PostgreSQL cases error with how to get
    one, unless MEMORY_DASHBOARD_NO_POSTGRES=1 opts out (the summary then says they did not run)."""
    given = os.environ.get(pg_cluster.URL_ENV)
    if given:
        yield given
        return
    if os.environ.get(pg_cluster.OPT_OUT_ENV) == "1":
        _postgres_opted_out.append("opted out")
        pytest.skip(f"{pg_cluster.OPT_OUT_ENV}=1: the PostgreSQL cases do NOT run")
    try:
        folder, url = pg_cluster.start()
    except RuntimeError as exc:
        pytest.fail(f"no PostgreSQL server for the PostgreSQL cases. {exc}", pytrace=False)
    try:
        yield url
    finally:
        pg_cluster.stop(folder)


@pytest.fixture
def postgres_db(postgres_server: str) -> Iterator[str]:
    """The URL of a new, empty database on the test server, dropped after the test."""
    url = fresh_database(postgres_server)
    yield url
    drop_database(postgres_server, url)


@pytest.fixture(params=["sqlite", "postgresql"])
def seeded_host(request: pytest.FixtureRequest, tmp_path: Path) -> HostDb:
    """`hostdb`'s seed on either engine: a host-shaped file, or the same rows in a PostgreSQL database
    (the tests of one feature run on both, as the conformance suite does)."""
    if request.param == "sqlite":
        return SqliteHostDb(build_host_db(tmp_path / "context.db"))
    return seed_postgres(request.getfixturevalue("postgres_db"), tmp_path)


@pytest.fixture
def seeded_store(seeded_host: HostDb, clock: ManualClock) -> Iterator[MemoryStore]:
    """A store on `seeded_host` (writable, the fixed clock)."""
    opened = MemoryStore.open(seeded_host.target, clock=clock)
    yield opened
    opened.close()


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if _postgres_opted_out:
        terminalreporter.write_sep(
            "!",
            f"PostgreSQL cases SKIPPED ({pg_cluster.OPT_OUT_ENV}=1): this run did not test PostgreSQL",
            red=True,
            bold=True,
        )


__all__ = ["PROMOTED_5", "REVIEW_TIME"]
