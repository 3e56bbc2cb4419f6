"""The card list model without a view: qtmodeltester while rows are inserted, changed and removed."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from PySide6.QtCore import QPersistentModelIndex
from pytestqt.modeltest import ModelTester
from pytestqt.qtbot import QtBot

from app.core.models import Memory
from app.store import MemoryFilter, MemoryStore
from ui.cards.model import HIGHLIGHT_ROLE, ID_ROLE, MEMORY_ROLE, STATUS_ROLE, MemoryListModel


def _memories(store: MemoryStore) -> list[Memory]:
    return store.get_many(store.list_ids(MemoryFilter()))


def test_model_passes_the_model_tester_through_inserts_changes_and_removals(
    store: MemoryStore, qtmodeltester: ModelTester
) -> None:
    model = MemoryListModel(page_size=2)
    qtmodeltester.check(model)
    rows = _memories(store)
    model.set_listing([m.id for m in rows[:3]], rows[:3])
    assert model.rowCount() == 3
    model.set_listing([m.id for m in rows], rows)  # insertions at the end
    model.set_listing([rows[0].id, rows[2].id, rows[4].id])  # removals in between
    assert list(model.ids) == [rows[0].id, rows[2].id, rows[4].id]
    model.set_listing([rows[4].id, rows[1].id, rows[0].id])  # a removal, a move and an insertion
    assert list(model.ids) == [rows[4].id, rows[1].id, rows[0].id]
    model.update_rows([replace(rows[1], content="changed")])
    assert model.data(model.index(1, 0)) == "changed"
    model.remove_id(rows[1].id)
    model.set_highlighted([rows[0].id])
    assert model.data(model.index(1, 0), HIGHLIGHT_ROLE) is True
    model.clear()
    assert model.rowCount() == 0


def test_one_changed_row_is_one_data_changed_with_roles(store: MemoryStore, qtbot: QtBot) -> None:
    model = MemoryListModel()
    rows = _memories(store)
    model.set_listing([m.id for m in rows], rows)
    resets: list[bool] = []
    model.modelReset.connect(lambda: resets.append(True))
    with qtbot.waitSignal(model.dataChanged) as blocker:
        model.update_rows([replace(rows[2], content="rewritten")])
    top, bottom, roles = blocker.args or []
    assert top.row() == bottom.row() == 2
    assert MEMORY_ROLE in roles and STATUS_ROLE in roles
    assert not resets
    with qtbot.assertNotEmitted(model.dataChanged):
        model.update_rows([replace(rows[3], as_of=rows[3].as_of + 1)])  # nothing really changed


def test_rows_are_fetched_lazily_in_pages(store: MemoryStore, qtbot: QtBot) -> None:
    model = MemoryListModel(page_size=2)
    ids = store.list_ids(MemoryFilter())
    model.set_listing(ids)
    assert model.data(model.index(0, 0), MEMORY_ROLE) is None
    assert model.data(model.index(0, 0), ID_ROLE) == ids[0]
    with qtbot.waitSignal(model.rowsWanted) as blocker:
        model.data(model.index(3, 0), MEMORY_ROLE)
    wanted = (blocker.args or [[]])[0]
    assert ids[0] in wanted and ids[2] in wanted and ids[3] in wanted
    model.update_rows(store.get_many(wanted))
    memory = model.data(model.index(3, 0), MEMORY_ROLE)
    assert isinstance(memory, Memory) and memory.id == ids[3]


def test_selection_survives_a_reorder(store: MemoryStore, qtbot: QtBot) -> None:
    from PySide6.QtCore import QItemSelectionModel

    model = MemoryListModel()
    ids = store.list_ids(MemoryFilter())
    model.set_listing(ids)
    selection = QItemSelectionModel(model)
    selection.setCurrentIndex(model.index(1, 0), QItemSelectionModel.SelectionFlag.ClearAndSelect)
    model.set_listing(list(reversed(ids)))
    assert selection.currentIndex().data(ID_ROLE) == ids[1]


def test_a_hundred_thousand_ids_without_loading_rows(tmp_path: Path, qtbot: QtBot) -> None:
    model = MemoryListModel(cache_limit=500)
    ids = list(range(1, 100_001))
    model.set_listing(ids)
    assert model.rowCount() == 100_000
    assert model.row_of(99_999) == 99_998
    with qtbot.waitSignal(model.rowsWanted) as blocker:
        model.data(model.index(50_123, 0), MEMORY_ROLE)
    assert len((blocker.args or [[]])[0]) == 200
    model.set_listing([*ids[:10], *ids[11:]])  # one removal, no reset
    assert model.rowCount() == 99_999


def _two_hundred_ids(qtmodeltester: ModelTester) -> tuple[MemoryListModel, list[object]]:
    """A checked model listing ids 1..200, and the row insertions and removals it emits from now on."""
    model = MemoryListModel()
    qtmodeltester.check(model)
    model.set_listing(list(range(1, 201)))
    granular: list[object] = []
    model.rowsInserted.connect(lambda *args: granular.append(args))
    model.rowsRemoved.connect(lambda *args: granular.append(args))
    return model, granular


def test_a_listing_differing_in_many_runs_is_one_layout_change_that_keeps_the_selection(
    qtbot: QtBot, qtmodeltester: ModelTester
) -> None:
    model, granular = _two_hundred_ids(qtmodeltester)
    kept = QPersistentModelIndex(model.index_of(100))
    gone = QPersistentModelIndex(model.index_of(101))
    with qtbot.waitSignal(model.layoutChanged):
        model.set_listing(list(range(2, 401, 2)))  # every odd id gone, ids past 200 new: 100+ runs
    assert not granular
    assert list(model.ids) == list(range(2, 401, 2))
    assert kept.isValid() and kept.row() == model.row_of(100)
    assert not gone.isValid()


def test_a_layout_change_to_a_listing_of_another_size_keeps_the_row_count_and_the_selection(
    qtbot: QtBot, qtmodeltester: ModelTester
) -> None:
    """The row count is the C++ source's: it follows the ids inside the one layout change."""
    model, granular = _two_hundred_ids(qtmodeltester)
    kept = QPersistentModelIndex(model.index_of(150))
    with qtbot.waitSignal(model.layoutChanged):
        model.set_listing(list(range(3, 901, 3)))  # 300 ids, two of every three old ones gone: many runs
    assert model.rowCount() == 300 and list(model.ids) == list(range(3, 901, 3))
    assert model.index(299, 0).data(ID_ROLE) == 900 and not model.index(300, 0).isValid()
    assert kept.isValid() and kept.row() == model.row_of(150) == 49
    gone = QPersistentModelIndex(model.index_of(9))
    with qtbot.waitSignal(model.layoutChanged):
        model.set_listing(list(range(6, 901, 6)))  # 150 ids, every other one gone: fewer rows
    assert not granular
    assert model.rowCount() == 150 and model.index(149, 0).data(ID_ROLE) == 900
    assert kept.isValid() and kept.row() == model.row_of(150) == 24
    assert not gone.isValid()


def test_the_row_count_is_answered_in_cpp() -> None:
    """A view lays out a listing by asking `rowCount` about twice per row: the model leaves it (and
    `index`, `parent`) to the C++ proxy rather than answering in Python."""
    assert not {"rowCount", "index", "parent"} & set(vars(MemoryListModel))


def test_a_listing_changing_many_rows_in_one_run_is_one_layout_change(
    qtbot: QtBot, qtmodeltester: ModelTester
) -> None:
    """A search's first page after a long listing: its hits are the first cards, the rest goes in one
    run; thousands of rows are not counted out one by one, and the selection follows its id."""
    model = MemoryListModel()
    qtmodeltester.check(model)
    model.set_listing(list(range(1, 5_001)))
    kept = QPersistentModelIndex(model.index_of(150))
    granular: list[object] = []
    model.rowsRemoved.connect(lambda *args: granular.append(args))
    model.rowsInserted.connect(lambda *args: granular.append(args))
    with qtbot.waitSignal(model.layoutChanged):
        model.set_listing(list(range(1, 201)))
    assert model.rowCount() == 200 and kept.isValid() and kept.row() == 149
    with qtbot.waitSignal(model.layoutChanged):
        model.set_listing(list(range(1, 3_001)))  # its complete listing: thousands of rows back
    assert not granular and model.rowCount() == 3_000 and kept.row() == 149
    model.set_listing([*range(1, 101), *range(102, 3_001)])  # one row gone: still granular
    assert len(granular) == 1 and kept.row() == 148
