"""Toolbar icons: every toolbar action has one beside its text, drawn in the palette's button text colour
(light and dark), and Undo's toolbar text stays short while the menu and tooltip say what it undoes."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QColor, QIcon, QImage, QPalette
from pytestqt.qtbot import QtBot
from window_helpers import make_window

from app.store import MemoryStore
from ui.widgets.action_icons import action_svgs, tinted_icon
from ui.widgets.theme import dark_palette, light_palette


def ink(icon: QIcon, mode: QIcon.Mode = QIcon.Mode.Normal) -> set[str]:
    """The opaque colours an icon is drawn in (its strokes' antialiased edges left out)."""
    image = icon.pixmap(QSize(32, 32), 1.0, mode).toImage().convertToFormat(QImage.Format.Format_ARGB32)
    colours = {
        QColor(image.pixel(x, y)).name()
        for x in range(image.width())
        for y in range(image.height())
        if QColor.fromRgba(image.pixel(x, y)).alpha() == 255
    }
    return colours


def test_every_toolbar_action_has_an_icon_beside_its_text(
    qtbot: QtBot, store: MemoryStore, tmp_path: Path
) -> None:
    window = make_window(qtbot, store, tmp_path)
    assert window.toolbar.toolButtonStyle() == Qt.ToolButtonStyle.ToolButtonTextBesideIcon
    for action in action_svgs(window.acts):
        assert not action.icon().isNull(), action.text()
        assert window.toolbar.widgetForAction(action) is not None, action.text()


def test_icons_are_tinted_for_the_palette() -> None:
    for palette in (light_palette(), dark_palette()):
        for name in ("edit", "refresh", "run_review"):
            icon = tinted_icon(name, palette)
            text = palette.color(QPalette.ColorGroup.Active, QPalette.ColorRole.ButtonText).name()
            disabled = palette.color(QPalette.ColorGroup.Disabled, QPalette.ColorRole.ButtonText).name()
            assert ink(icon) == {text}, name
            assert ink(icon, QIcon.Mode.Disabled) == {disabled}, name
    assert tinted_icon("no-such-icon", light_palette()).isNull()


def test_undo_keeps_a_short_toolbar_text_and_says_what_it_undoes_elsewhere(
    qtbot: QtBot, store: MemoryStore, tmp_path: Path
) -> None:
    window = make_window(qtbot, store, tmp_path)
    window.acts.set_undo_label("Undo dismiss of #5")
    assert window.acts.undo.text() == "Undo dismiss of #5"
    assert window.acts.undo.iconText() == "Undo"
    assert window.acts.undo.toolTip().startswith("Undo dismiss of #5 (")
    window.acts.set_undo_label("")
    assert window.acts.undo.text() == "Undo" and window.acts.undo.toolTip().startswith("Undo the last action")
