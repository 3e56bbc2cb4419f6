"""Toolbar icons: every toolbar action has one beside its text, drawn in the palette's button text colour
(light and dark), and Undo's toolbar text stays short while the menu and tooltip say what it undoes."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QColor, QIcon, QImage, QPalette
from pytestqt.qtbot import QtBot

from app.store import MemoryStore
from tests.ui.window_helpers import make_window
from ui.widgets.action_icons import action_svgs, tinted_icon
from ui.widgets.theme import dark_palette, light_palette
from ui.window.toolbar import toolbar_groups


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


def test_every_toolbar_action_is_an_icon_with_a_tooltip(
    qtbot: QtBot, store: MemoryStore, tmp_path: Path
) -> None:
    window = make_window(qtbot, store, tmp_path)
    assert window.toolbar.toolButtonStyle() == Qt.ToolButtonStyle.ToolButtonIconOnly
    for action in action_svgs(window.acts):
        assert not action.icon().isNull(), action.text()
    for group in toolbar_groups(window.acts):
        for action in group:
            assert action in action_svgs(window.acts) and action.toolTip(), action.text()
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


def test_an_icon_painted_on_a_2x_device_is_drawn_at_twice_its_size(qapp: object) -> None:
    """`QIcon.paint` (item views, some styles) asks the engine to paint a 16 px rectangle: on a 2x
    device it is drawn at 32 px, not stretched from 16."""
    from PySide6.QtCore import QRect
    from PySide6.QtGui import QPainter, QPixmap

    import resources
    from ui.widgets.action_icons import TintedSvg

    engine = TintedSvg(resources.read_bytes("icons/actions/edit.svg").decode(), "#101010", "#909090")
    device = QPixmap(64, 64)
    device.setDevicePixelRatio(2.0)
    device.fill(Qt.GlobalColor.transparent)
    painter = QPainter(device)
    engine.paint(painter, QRect(0, 0, 16, 16), QIcon.Mode.Normal, QIcon.State.Off)
    painter.end()
    assert set(engine.drawn) == {(32, 32, "#101010")}
