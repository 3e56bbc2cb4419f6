"""Toolbar icons for the window's actions: small stroke SVGs under resources/icons/actions, drawn in
`currentColor` and tinted here from the palette (button text; the disabled colour for disabled actions),
so they follow a light or dark theme. A missing or unreadable icon leaves its action text-only.
"""

from __future__ import annotations

from PySide6.QtCore import QByteArray, QRectF, Qt
from PySide6.QtGui import QAction, QIcon, QPainter, QPalette, QPixmap
from PySide6.QtSvg import QSvgRenderer

import resources
from ui.window.actions import WindowActions

SIZES = (16, 32)  # the toolbar's 16 px, at 1x and 2x (drawn before the first cards: no more sizes)
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


def _pixmap(svg: str, color: str, size: int) -> QPixmap:
    renderer = QSvgRenderer(QByteArray(svg.replace("currentColor", color).encode("utf-8")))
    pixmap = QPixmap(size, size)
    pixmap.fill(Qt.GlobalColor.transparent)
    if renderer.isValid():
        painter = QPainter(pixmap)
        renderer.render(painter, QRectF(0, 0, size, size))
        painter.end()
    return pixmap


def tinted_icon(name: str, palette: QPalette) -> QIcon:
    """The icon `name` in the palette's button text colours; an empty icon if it cannot be read."""
    try:
        svg = resources.read_bytes(f"icons/actions/{name}.svg").decode("utf-8")
    except (FileNotFoundError, OSError, UnicodeDecodeError):
        return QIcon()
    if not QSvgRenderer(QByteArray(svg.encode("utf-8"))).isValid():
        return QIcon()
    icon = QIcon()
    for mode, group in ((QIcon.Mode.Normal, Group.Active), (QIcon.Mode.Disabled, Group.Disabled)):
        color = palette.color(group, Role.ButtonText).name()
        for size in SIZES:
            icon.addPixmap(_pixmap(svg, color, size), mode)
    return icon


def apply_action_icons(acts: WindowActions, palette: QPalette) -> None:
    """Give the toolbar actions their icons, tinted for `palette` (call again when the palette changes)."""
    for action, name in action_svgs(acts).items():
        action.setIcon(tinted_icon(name, palette))
