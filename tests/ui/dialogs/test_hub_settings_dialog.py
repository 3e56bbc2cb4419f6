"""File → Hub…: the hub's URL and machine name (saved as `hub configure` saves them, a URL holding a
password refused with the reason), the password to the OS keyring only, Publish now off the GUI thread
with its result or error as a message, and publishing every N minutes while the window is open (off by
default, never two at once, the status bar saying when it last published)."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtWidgets import QMenu
from pytestqt.qtbot import QtBot
from sqlalchemy import make_url

from app.core import settings as saved
from app.core.models import MemoryStatus
from app.hub.password import SERVICE, keyring_user
from app.hub.requests import queue_dismiss
from app.store import MemoryStore
from tests.support import hub_host
from tests.support.hub_host import hub_query
from tests.support.memory_keyring import MemoryKeyring, memory_keyring
from tests.ui.window_helpers import make_window, settle
from ui.dialogs.hub_settings import HubSettingsDialog
from ui.runtime.hub_publishing import MINUTE_MS, HubPublishing
from ui.window.main_window import MainWindow

memory_keyring = memory_keyring  # the OS keyring, for the tests that ask for it
hub_db = hub_host.hub_db  # a hub set up by its administrator; the URL of an ordinary publisher
SECRET = "correct horse battery"


def open_dialog(qtbot: QtBot, window: MainWindow) -> HubSettingsDialog:
    window.acts.hub_settings.trigger()
    dialog = window.findChild(HubSettingsDialog)
    assert dialog is not None
    qtbot.waitExposed(dialog)
    return dialog


def publishing_of(window: MainWindow) -> HubPublishing:
    found = window.findChild(HubPublishing)
    assert found is not None
    return found


def down_hub(tmp_path: Path) -> str:
    return f"postgresql+psycopg://postgres@/hub?host={tmp_path / 'no-server-here'}"


def test_file_hub_opens_the_dialog_with_the_saved_settings_keyboard_ready(
    qtbot: QtBot, store: MemoryStore, tmp_path: Path
) -> None:
    url = "postgresql://me@hub.example/m?sslmode=require"
    saved.save_settings(saved.with_hub(saved.Settings(), url, "laptop", 10))
    window = make_window(qtbot, store, tmp_path)
    file_menu = window.menuBar().actions()[0].menu()
    assert isinstance(file_menu, QMenu) and window.acts.hub_settings in file_menu.actions()
    publishing = publishing_of(window)
    assert (publishing.timer.isActive(), publishing.timer.interval()) == (True, 10 * MINUTE_MS)
    assert publishing.label.text() == "Hub: publishing every 10 min"
    dialog = open_dialog(qtbot, window)
    assert dialog.url.text() == "postgresql://me@hub.example/m?sslmode=require"
    assert dialog.machine.text() == "laptop"
    assert (dialog.auto.isChecked(), dialog.every.value()) == (True, 10)
    assert dialog.password.echoMode() == dialog.password.EchoMode.Password and dialog.password.text() == ""
    assert "No OS keyring is available" in dialog.keyring.text()  # this machine: no keyring backend
    fields = (dialog.url, dialog.machine, dialog.password, dialog.auto, dialog.every, dialog.publish_button)
    for widget in fields:
        assert widget.accessibleName() and widget.toolTip()
    buddies = {label.buddy() for label in dialog.findChildren(type(dialog.keyring)) if label.buddy()}
    assert {dialog.url, dialog.machine, dialog.password} <= buddies  # Alt+U, Alt+M, Alt+W
    assert dialog.auto.text().count("&") == dialog.publish_button.text().count("&") == 1


def test_a_url_holding_a_password_is_refused_with_the_reason(
    qtbot: QtBot, store: MemoryStore, tmp_path: Path
) -> None:
    dialog = open_dialog(qtbot, make_window(qtbot, store, tmp_path))
    dialog.url.setText(f"postgresql://me:{SECRET}@hub/m")
    assert not dialog.problem.isHidden()
    assert "holds a password" in dialog.problem.text() and SECRET not in dialog.problem.text()
    assert not dialog.save_button.isEnabled() and not dialog.publish_button.isEnabled()
    dialog.url.setText("postgresql://me@hub/m")
    assert dialog.problem.isHidden() and dialog.save_button.isEnabled()
    dialog.url.clear()
    dialog.auto.setChecked(True)
    assert "needs a hub URL" in dialog.problem.text()


def test_save_keeps_the_settings_and_the_password_only_in_the_keyring(
    qtbot: QtBot, store: MemoryStore, tmp_path: Path, memory_keyring: MemoryKeyring
) -> None:
    window = make_window(qtbot, store, tmp_path)
    publishing = publishing_of(window)
    assert not publishing.timer.isActive()  # off by default
    assert publishing.label.isHidden()
    dialog = open_dialog(qtbot, window)
    dialog.url.setText("postgresql://me@hub.example/m")
    dialog.machine.setText("desk")
    dialog.password.setText(SECRET)
    dialog.auto.setChecked(True)
    dialog.every.setValue(20)
    with qtbot.waitSignal(dialog.saved):
        dialog.save_button.click()
    now = saved.load_settings()
    hub = saved.hub_url_setting(now), saved.hub_machine_setting(now), saved.hub_publish_every_setting(now)
    assert hub == (
        "postgresql://me@hub.example/m",
        "desk",
        20,
    )
    assert SECRET not in saved.settings_path().read_text(encoding="utf-8")
    assert memory_keyring.kept == {(SERVICE, keyring_user(make_url("postgresql://me@hub.example/m"))): SECRET}
    assert dialog.password.text() == ""
    assert (publishing.timer.isActive(), publishing.every_min) == (True, 20)


def test_without_a_keyring_a_typed_password_saves_nothing_and_says_why(
    qtbot: QtBot, store: MemoryStore, tmp_path: Path
) -> None:
    dialog = open_dialog(qtbot, make_window(qtbot, store, tmp_path))
    dialog.url.setText("postgresql://me@hub.example/m")
    dialog.password.setText(SECRET)
    dialog.save_button.click()
    assert "No OS keyring is available on this machine" in dialog.problem.text()
    assert "~/.pgpass" in dialog.problem.text()
    assert dialog.isVisible()
    assert not saved.settings_path().exists()


def test_publish_now_runs_off_the_gui_thread_and_says_what_it_did(
    qtbot: QtBot, store: MemoryStore, tmp_path: Path, hub_db: str
) -> None:
    window = make_window(qtbot, store, tmp_path)
    publishing = publishing_of(window)
    dialog = open_dialog(qtbot, window)
    dialog.url.setText(hub_db)
    dialog.machine.setText("laptop")
    steps: list[str] = []
    publishing.progressed.connect(steps.append)
    with qtbot.waitSignal(publishing.finished, timeout=30_000):
        assert dialog.publish_now()
        assert publishing.running and not dialog.publish_button.isEnabled()
        assert dialog.progress.isVisible()
        assert not dialog.publish_now()  # never two at once
        assert "running already" in dialog.outcome.text()
    assert "laptop" in dialog.outcome.text() and "first publish" in dialog.outcome.text()
    assert steps and "memories" in steps[-1]
    assert dialog.progress.isHidden() and dialog.publish_button.isEnabled()
    assert hub_query(hub_db, "SELECT count(*) FROM hub_memories WHERE machine = 'laptop'") == [(5,)]
    assert publishing.label.text().startswith("Hub: published ")
    assert not saved.settings_path().exists()  # Publish now saves nothing


def test_a_hub_that_is_down_is_a_message_never_a_traceback(
    qtbot: QtBot, store: MemoryStore, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    window = make_window(qtbot, store, tmp_path)
    publishing = publishing_of(window)
    dialog = open_dialog(qtbot, window)
    dialog.url.setText(down_hub(tmp_path))
    with qtbot.waitSignal(publishing.failed, timeout=30_000):
        dialog.publish_now()
    assert dialog.outcome.text().startswith("Not published: cannot use the PostgreSQL database")
    assert publishing.label.text().startswith("Hub: publish failed")
    assert "cannot use the PostgreSQL database" in publishing.label.toolTip()
    assert "Traceback" not in capsys.readouterr().err
    assert publishing.running is False and dialog.publish_button.isEnabled()


def test_publishing_when_due_uses_the_saved_settings_and_applies_the_hubs_dismissals(
    qtbot: QtBot, store: MemoryStore, tmp_path: Path, hub_db: str
) -> None:
    saved.save_settings(saved.with_hub(saved.Settings(), hub_db, "laptop", 5))
    window = make_window(qtbot, store, tmp_path)
    publishing = publishing_of(window)
    assert publishing.every_min == 5
    with qtbot.waitSignal(publishing.finished, timeout=30_000):
        assert publishing.publish_due()  # the timer's slot
        assert not publishing.publish_due()  # due again while it runs: not a second one
    assert publishing.label.text().startswith("Hub: published ")
    assert window.model.row_of(4) is not None  # active: listed
    queue_dismiss(hub_db, "laptop", 4, requested_on="desktop", now=store.now())
    with qtbot.waitSignal(publishing.finished, timeout=30_000) as done:
        publishing.timer.timeout.emit()
    assert done.args is not None and done.args[0].dismissed == (4,)
    settle(qtbot, window)
    qtbot.waitUntil(lambda: window.model.row_of(4) is None)  # the Active filter lists it no more
    assert store.get(4).status == MemoryStatus.DISMISSED
