"""Opening a hub window: File → Open hub… (the URL from the settings, editable), in the main window and
in a hub window (`ui.hub.app` runs one on its own, for `--db URL` of a hub and `hub open`).

The URL typed may hold no password: libpq reads it from its own sources (`PGPASSFILE`, `~/.pgpass`, a
service file); nothing typed here is saved. Copy to this machine writes to `local`: the database the main
window has open, else the one the app would open by default.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtWidgets import QDialog, QInputDialog, QWidget

from app.core.clock import clock_from_env
from app.core.paths import DatabaseChoice
from app.core.settings import hub_url_setting, load_settings
from app.hub.browse import FirstScreen
from ui.hub.session import HubSession
from ui.hub.window import HubWindow
from ui.widgets.dialog_keys import DialogKeys
from ui.widgets.focus_ring import show_button_focus

ASK = (
    "The hub's PostgreSQL URL, e.g. postgresql://me@hub.example/memories?sslmode=verify-full\n"
    "Leave the password out: libpq reads it from ~/.pgpass, PGPASSFILE or a service file.\n"
    "(Saved hub: `hub configure --url`, or File → Hub….)"
)


def ask_hub_url(parent: QWidget, then: Callable[[str], object], given: str | None = None) -> QInputDialog:
    """Ask for a hub's URL (the saved hub's at first); `then(url)` once one is accepted, never when
    cancelled or left empty. The dialog is opened, not run: no nested event loop holds the caller's
    stack while a person types (every other dialog of the app is opened the same way)."""
    default = given or hub_url_setting(load_settings()) or "postgresql://"
    dialog = QInputDialog(parent)
    dialog.setWindowTitle("Open hub")
    dialog.setLabelText(ASK)
    dialog.setTextValue(default)
    DialogKeys(dialog, lambda: dialog.textValue() != default)  # Ctrl+Enter opens; Esc asks first
    show_button_focus(dialog)  # Fusion paints a focused OK as the default OK it already is

    def answered(result: int) -> None:
        text = dialog.textValue().strip()
        if result == QDialog.DialogCode.Accepted and text and text != "postgresql://":
            then(text)

    dialog.finished.connect(answered)
    dialog.open()
    return dialog


def open_hub_window(
    url: str, local: DatabaseChoice | None, parent: QWidget | None = None, *, first: FirstScreen | None = None
) -> HubWindow:
    """A hub window on `url`, shown and reading (from `first` where its first screen is being read
    already); Copy to this machine writes to `local`."""
    session = HubSession(url, local, first=first)
    window = HubWindow(session, clock_from_env().now_ms)
    if parent is not None:
        window.setParent(parent, window.windowFlags())  # closes with its main window, on top of it
    window.resize(1300, 850)
    window.acts.open_hub.triggered.connect(lambda: _open_another(window))
    window.show()
    session.load()
    return window


def _open_another(window: HubWindow) -> None:
    """The hub window's File → Open hub…: another hub, copying to the same local database."""
    ask_hub_url(
        window,
        lambda url: open_hub_window(url, window.session.local, window.parentWidget()),
        window.session.url,
    )
