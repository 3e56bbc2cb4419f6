"""The hub window on its own: `--db URL` of a hub and `hub open` (`run_hub_window`, with `--smoke`), and
rendered offscreen to a PNG for `screenshot` (`hub_screenshot`).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QEvent, QObject, QTimer
from PySide6.QtWidgets import QApplication

from app.core.paths import DatabaseChoice
from app.hub.browse import FirstScreen
from ui.hub.opening import open_hub_window
from ui.hub.window import HubWindow
from ui.runtime.qt_app import application, smoke_deadline, wait_until
from ui.widgets.theme import apply_theme


def run_hub_window(
    url: str,
    local: DatabaseChoice | None,
    *,
    smoke: bool = False,
    offscreen: bool = False,
    first: FirstScreen | None = None,
) -> int:
    """The hub window on its own (`--db URL` of a hub, `hub open`); `smoke`: exit 0 at the first card
    painted with its text, 1 when the hub cannot be read."""
    app = application(offscreen=offscreen or smoke)
    apply_theme(app, "system")
    window = open_hub_window(url, local, first=first)
    if smoke:
        window.session.failed.connect(lambda _text: app.exit(1))
        watch_first_card(window, lambda: app.exit(0))
        smoke_deadline(app, window)
    code = app.exec()
    window.close()
    window.deleteLater()  # its timers (the smoke deadline) with it
    return code


class FirstCardPaint(QObject):
    """Calls `then` once, at the first paint of the card list after the first card's text arrived (or
    after the listing, for a hub without memories)."""

    def __init__(self, window: HubWindow, then: Callable[[], None]) -> None:
        super().__init__(window)
        self.window, self.then, self.done = window, then, False
        window.list.viewport().installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if not self.done and event.type() == QEvent.Type.Paint:
            card = self.window.model.card(0)
            if self.window.listing is not None and (card is None or card.loaded):
                self.done = True
                QTimer.singleShot(0, self.then)
        return False


def watch_first_card(window: HubWindow, then: Callable[[], None]) -> FirstCardPaint:
    return FirstCardPaint(window, then)


def hub_screenshot(
    url: str, out_path: str | Path, *, select: int | None, size: tuple[int, int], theme: str
) -> None:
    """Render the hub window offscreen to a PNG: the card holding memory `select` (on any machine; the
    first card where None) selected, its panel and diff shown."""
    app = application(offscreen=True)
    apply_theme(app, theme)
    window = open_hub_window(url, None)
    window.resize(*size)
    errors: list[str] = []
    window.session.failed.connect(errors.append)
    wait_until(app, lambda: window.listing is not None or bool(errors))
    if select is not None and window.listing is not None:
        card = next((c for c in window.listing.cards if any(k.memory_id == select for k in c.copies)), None)
        if card is not None:
            window.select_key(card.key)
    wait_until(app, lambda: _settled(window) or bool(errors))
    image = window.grab()
    window.close()
    if not image.save(str(out_path), "PNG"):
        raise OSError(f"cannot write {out_path}")
    QApplication.processEvents()


def _settled(window: HubWindow) -> bool:
    """The selected card's texts read and shown in the side panel (its diff too), and every card on
    screen painted with its text."""
    card = window.current_card()
    shown = card is None or (card.loaded and window.detail.card is card)
    return shown and not window.model.unloaded(*window.visible_rows()) and window.detail.diff.settled
