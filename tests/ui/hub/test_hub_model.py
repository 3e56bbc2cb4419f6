"""The hub window's list model without a view or a database: Qt's model checks, a page of texts replacing
cards in place (no reset), the text filter, and the words a card says for screen readers."""

from __future__ import annotations

from PySide6.QtCore import Qt
from pytestqt.modeltest import ModelTester
from pytestqt.qtbot import QtBot

from app.hub.cards import HubCard, MachineCopy, group_cards, with_texts
from ui.hub.model import CARD_ROLE, HubCardModel, card_summary


def _cards() -> list[HubCard]:
    copies = [
        MachineCopy("laptop", 1, "active", 30, "x"),
        MachineCopy("desktop", 4, "active", 20, "x"),
        MachineCopy("desktop", 5, "dismissed", 10, "y"),
        MachineCopy("laptop", 2, "active", 40, "z", dismiss_pending=True),
    ]
    return group_cards(copies, [(("desktop", 5), ("laptop", 2))], ["desktop", "laptop", "devbox"])


def test_the_model_passes_qts_checks_and_pages_replace_cards_in_place(
    qtbot: QtBot, qtmodeltester: ModelTester
) -> None:
    model = HubCardModel()
    model.set_cards(_cards())
    qtmodeltester.check(model)
    assert model.rowCount() == 2
    first = model.card(0)
    assert first is not None and first.key == ("desktop", 5)  # laptop #2's card: updated last (40)
    assert model.data(model.index(0), Qt.ItemDataRole.DisplayRole) == "loading…"
    resets: list[object] = []
    model.modelReset.connect(lambda: resets.append(None))
    with qtbot.waitSignal(model.dataChanged) as changed:
        model.update_cards([with_texts(first, {("desktop", 5): "old text", ("laptop", 2): "new text"})])
    assert changed.args is not None and changed.args[2] == [CARD_ROLE]
    assert resets == [] and model.data(model.index(0), Qt.ItemDataRole.DisplayRole) == "new text"
    assert model.row_of(("laptop", 1)) == 1 and model.row_of(("desktop", 4)) == 1
    qtmodeltester.check(model)


def test_filter_and_summary() -> None:
    model = HubCardModel()
    model.set_cards(_cards())
    model.filter_to({("desktop", 4)})
    assert model.rowCount() == 1 and model.row_of(("laptop", 1)) == 0 and model.row_of(("laptop", 2)) is None
    model.filter_to(None)
    assert model.rowCount() == 2
    card = model.card(0)
    assert card is not None
    assert card_summary(card) == (
        "desktop #5: dismissed; laptop #2: active, dismiss requested; not on devbox; 2 different texts"
    )
