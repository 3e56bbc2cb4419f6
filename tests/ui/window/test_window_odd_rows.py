"""The window on host rows no writer of ours would make: every one is listed, painted and selectable,
and its history shows. The rows are written by plain sqlite3, as a host (or a damaged file) could."""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pytestqt.qtbot import QtBot

from app.core.clock import ManualClock
from app.store import MemoryStore
from tests.support.hostdb import build_host_db
from tests.ui.window_helpers import make_window, select
from ui.window.main_window import MainWindow

T = 1_790_000_000_000
INT64_MAX, INT64_MIN = 2**63 - 1, -(2**63)
LONG_LINE = "y" * (1 << 20)  # 1 MiB on one line, without a space
# id, content, status, promoted_at (= created_at), updated_at: as SQL, so any storage class fits.
ODD_ROWS = [
    (2**31 + 5, "'past a 32-bit signal'", "'active'", T, T),
    (2**62, "'far past a 32-bit signal'", "'active'", T, T),
    (9001, "'latest instant'", "'active'", INT64_MAX, INT64_MAX),
    (9002, "'earliest instant'", "'active'", INT64_MIN, INT64_MIN),
    (9003, "'updated yesterday'", "'active'", T, "'yesterday'"),
    (9004, "'a BLOB status'", "x'616374697665'", T, T),
    (9005, "x'626c6f6220636f6e74656e74'", "'active'", T, T),
    (9006, "CAST(x'ff' AS TEXT)", "'dismissed'", T, T),
    (9007, f"'{LONG_LINE}'", "'active'", T, T),
]
ODD_IDS = [row[0] for row in ODD_ROWS]


def insert_raw(conn: sqlite3.Connection, row: tuple[int, str, str, object, object]) -> None:
    memory_id, content, status, promoted, updated = row
    conn.execute(
        "INSERT INTO user_memories (id, content, status, promoted_at, source_candidate_ids,"
        f" source_candidate_provenance, created_at, updated_at) VALUES ({memory_id}, {content}, {status},"
        f" {promoted}, '[]', NULL, {promoted}, {updated})"
    )


@pytest.fixture
def odd_store(tmp_path: Path, clock: ManualClock) -> Iterator[MemoryStore]:
    path = build_host_db(tmp_path / "context.db")
    conn = sqlite3.connect(path)
    for row in ODD_ROWS:
        insert_raw(conn, row)
    conn.commit()
    conn.close()
    store = MemoryStore.open(path, clock=clock)
    yield store
    store.close()


def show_all_statuses(qtbot: QtBot, window: MainWindow, ids: list[int]) -> None:
    window.filters.set_status("all")
    qtbot.waitUntil(lambda: all(window.model.row_of(item) is not None for item in ids), timeout=10_000)


def ui_errors(caplog: pytest.LogCaptureFixture) -> list[str]:
    """What the window's guards caught: a paint or a model answer that raised (each a bug)."""
    return [record.getMessage() for record in caplog.records if record.name.startswith("memory_dashboard")]


def test_every_odd_row_is_painted_selected_and_shows_its_history(
    qtbot: QtBot, odd_store: MemoryStore, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.ERROR)
    window = make_window(qtbot, odd_store, tmp_path)
    show_all_statuses(qtbot, window, ODD_IDS)
    assert not window.grab().isNull()
    for memory_id in ODD_IDS:
        memory = select(qtbot, window, memory_id)  # waits for the history of this very id
        qtbot.waitUntil(lambda: window.panel.diff.settled, timeout=10_000)
        assert not window.grab().isNull()  # every card on screen and the panel, painted
        assert window.panel.title.text() == f"Memory #{memory_id}"
        if memory.oddities:
            assert "malformed" in window.panel.meta.text()
            assert window.panel.warning.text().startswith("⚠ Malformed row")
    assert ui_errors(caplog) == []


def test_a_one_mib_line_is_shown_cut_with_show_all(
    qtbot: QtBot, odd_store: MemoryStore, tmp_path: Path
) -> None:
    window = make_window(qtbot, odd_store, tmp_path)
    select(qtbot, window, 9007)
    box = window.panel.content_box
    assert not box.whole and box.show_all_button.isVisible()
    assert box.show_all_button.text() == "Show all (1.0 MiB)"
    assert len(window.panel.content.toPlainText()) < 40_000
    box.show_all_button.click()
    assert box.whole and not box.show_all_button.isVisible()
    assert window.panel.content.toPlainText().replace("\n", "") == LONG_LINE  # cut in display blocks only


# Any value SQLite can hold, in any column (NULL where the schema lets it): the window lists, paints and
# selects the row whatever it is.
not_null = st.one_of(
    st.integers(INT64_MIN, INT64_MAX),
    st.floats(allow_nan=False, allow_infinity=True),  # SQLite stores a NaN as NULL
    st.text(max_size=40),
    st.binary(max_size=40),
)
nullable = st.none() | not_null


def test_any_sqlite_values_in_a_row_are_painted(
    qtbot: QtBot, store: MemoryStore, host_db: Path, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.ERROR)
    window = make_window(qtbot, store, tmp_path)
    window.filters.set_status("all")

    @settings(max_examples=15, deadline=None)
    @given(
        memory_id=st.sampled_from([7, 2**31 + 1, INT64_MAX]),
        values=st.tuples(not_null, not_null, not_null, nullable, nullable, not_null, not_null),
    )
    def painted(memory_id: int, values: tuple[object, ...]) -> None:
        with sqlite3.connect(host_db) as conn:  # the host writes it, while the window is open
            conn.execute(
                "INSERT OR REPLACE INTO user_memories (id, content, status, promoted_at,"
                " source_candidate_ids, source_candidate_provenance, created_at, updated_at)"
                " VALUES (?,?,?,?,?,?,?,?)",
                (memory_id, *values),
            )
        conn.close()
        window.refresh()
        qtbot.waitUntil(lambda: window.model.row_of(memory_id) is not None, timeout=10_000)
        select(qtbot, window, memory_id)
        assert not window.grab().isNull()
        assert ui_errors(caplog) == []

    painted()
