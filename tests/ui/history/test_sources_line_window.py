"""The side panel's sources line on real rows: a memory of unknown provenance, and one whose provenance
names an empty session, read as words, never as a dangling `unknown:` or `session:`."""

from __future__ import annotations

import json
from pathlib import Path

from pytestqt.qtbot import QtBot

from app.store import MemoryStore
from tests.support.hostdb import host_sql
from tests.ui.window_helpers import make_window, select, settle

EMPTY_SESSION = [
    {"candidate_id": 9, "session_id": "", "source_compartment_start": 1, "source_compartment_end": 2}
]


def test_sources_are_words_not_dangling_labels(
    qtbot: QtBot, store: MemoryStore, host_db: Path, tmp_path: Path
) -> None:
    host_sql(
        host_db,
        "UPDATE user_memories SET source_candidate_provenance = ? WHERE id = 4",
        (json.dumps(EMPTY_SESSION),),
    )
    window = make_window(qtbot, store, tmp_path)
    select(qtbot, window, 3)  # the seed's legacy row: no provenance recorded
    sources = window.panel.sources
    qtbot.waitUntil(lambda: "sources:" in sources.text(), timeout=10_000)
    assert sources.text() == "Semi-trusted · sources: provenance unknown"
    assert ":<br>provenance unknown<br>" in sources.toolTip()  # the list of sources, in words
    select(qtbot, window, 4)
    qtbot.waitUntil(lambda: "session (no id)" in sources.text(), timeout=10_000)
    assert "session:" not in sources.text()
    settle(qtbot, window)
