"""Toolbar icons for the window's actions: small stroke SVGs under resources/icons/actions, drawn in
`currentColor` and tinted here from the palette (button text; the disabled colour for disabled actions),
so they follow a light or dark theme. A missing or unreadable icon leaves its action text-only.

Each icon is drawn when Qt first paints it, at the size and in the mode it is painted in (`TintedSvg`,
an icon engine keeping what it drew): the window is built without drawing the sizes and modes a
screen never shows.
"""

from __future__ import annotations

from PySide6.QtCore import QByteArray, QRect, QRectF, QSize, Qt
from PySide6.QtGui import QAction, QIcon, QIconEngine, QPainter, QPalette, QPixmap
from PySide6.QtSvg import QSvgRenderer

import resources
from ui.actions.window import WindowActions

Group = QPalette.ColorGroup
Role = QPalette.ColorRole


def action_svgs(acts: WindowActions) -> dict[QAction, str]:
    """Each toolbar action and its SVG's name under icons/actions."""
    return {
        acts.new_memory: "new_memory",
        acts.edit: "edit",
        acts.dismiss: "dismiss",
        acts.reactivate: "reactivate",
        acts.delete: "delete",
        acts.expiry: "expiry",
        acts.undo: "undo",
        acts.review_queue: "review_queue",
        acts.run_review: "run_review",
        acts.refresh: "refresh",
    }


def _pixmap(svg: str, color: str, size: QSize) -> QPixmap:
    renderer = QSvgRenderer(QByteArray(svg.replace("currentColor", color).encode("utf-8")))
    pixmap = QPixmap(size)
    pixmap.fill(Qt.GlobalColor.transparent)
    if renderer.isValid():
        painter = QPainter(pixmap)
        renderer.render(painter, QRectF(0, 0, size.width(), size.height()))
        painter.end()
    return pixmap


class TintedSvg(QIconEngine):
    """One toolbar SVG in the button text colour of its palette (the disabled one in Disabled mode),
    drawn at each size and mode when first asked for, then kept."""

    def __init__(self, svg: str, normal: str, disabled: str) -> None:
        super().__init__()
        self.svg, self.normal, self.disabled = svg, normal, disabled
        self.drawn: dict[tuple[int, int, str], QPixmap] = {}

    def clone(self) -> QIconEngine:
        return TintedSvg(self.svg, self.normal, self.disabled)

    def pixmap(self, size: QSize, mode: QIcon.Mode, state: QIcon.State) -> QPixmap:
        color = self.disabled if mode == QIcon.Mode.Disabled else self.normal
        key = (size.width(), size.height(), color)
        found = self.drawn.get(key)
        if found is None:
            found = self.drawn[key] = _pixmap(self.svg, color, size)
        return found

    def paint(self, painter: QPainter, rect: QRect, mode: QIcon.Mode, state: QIcon.State) -> None:
        ratio = painter.device().devicePixelRatioF() if painter.device() is not None else 1.0
        pixmap = self.pixmap(rect.size() * ratio, mode, state)  # sharp on a 2x screen
        painter.drawPixmap(rect, pixmap)


def tinted_icon(name: str, palette: QPalette) -> QIcon:
    """The icon `name` in the palette's button text colours; an empty icon if it cannot be read."""
    try:
        svg = resources.read_bytes(f"icons/actions/{name}.svg").decode("utf-8")
    except (FileNotFoundError, OSError, UnicodeDecodeError):
        return QIcon()
    if not QSvgRenderer(QByteArray(svg.encode("utf-8"))).isValid():
        return QIcon()
    normal = palette.color(Group.Active, Role.ButtonText).name()
    disabled = palette.color(Group.Disabled, Role.ButtonText).name()
    return QIcon(TintedSvg(svg, normal, disabled))


def apply_action_icons(acts: WindowActions, palette: QPalette) -> None:
    """Give the toolbar actions their icons, tinted for `palette` (call again when the palette changes)."""
    for action, name in action_svgs(acts).items():
        action.setIcon(tinted_icon(name, palette))
