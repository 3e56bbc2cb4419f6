"""The provenance table sizes its columns to their contents once per memory shown (and once when the
candidates' words arrive), not at every cell: what it shows and how the columns fit stay as they were."""

from __future__ import annotations

from pytestqt.qtbot import QtBot

from app.store import MemoryFilter, MemoryStore
from ui.history.provenance_table import WORDS_COLUMN, ProvenanceTable

FITTED = (0, 2, 3, 4)


def test_columns_fit_their_contents_after_each_memory_and_keep_their_modes(
    qtbot: QtBot, store: MemoryStore
) -> None:
    table = ProvenanceTable(store.now)
    qtbot.addWidget(table)
    table.resize(900, 300)
    table.show()
    header = table.horizontalHeader()
    memories = sorted(
        store.get_many(store.list_ids(MemoryFilter(status="all"))), key=lambda m: -len(m.provenance or ())
    )
    widest = memories[0]
    assert len(widest.provenance or ()) >= 2
    for memory in (widest, memories[-1], widest):
        table.set_memory(memory)
        assert table.rowCount() == len(table.candidate_ids)
        for column in FITTED:
            assert header.sectionResizeMode(column) == header.ResizeMode.ResizeToContents
            assert header.sectionSize(column) >= table.sizeHintForColumn(column)
        assert (
            header.sectionResizeMode(1) == header.sectionResizeMode(WORDS_COLUMN) == header.ResizeMode.Stretch
        )
    first = table.item(0, 0)
    assert first is not None and first.text() == f"#{table.candidate_ids[0]}"
