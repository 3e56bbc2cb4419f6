"""A launch's first frame: the window is shown once, complete, and stays as it was shown (no action that
enables, no toolbar that reflows, no panel that fills) while the store's complete listing arrives; the
toolbar fits at 1024 and 1400 pixels in both themes; and the launch itself (one parser, one path)."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from PySide6.QtWidgets import QApplication, QToolButton
from pytestqt.qtbot import QtBot

from app.core.clock import ManualClock
from app.store import MemoryStore
from tests.conftest import REVIEW_TIME
from tests.support.first_frame import frame, launched_window
from tests.support.hostdb import query
from ui.widgets.theme import apply_theme
from ui.window.app import FIRST_CARDS
from ui.window.toolbar import toolbar_groups

ROOT = Path(__file__).resolve().parents[3]


def test_the_first_frame_is_the_window_as_it_stays(qtbot: QtBot, host_db: Path, tmp_path: Path) -> None:
    store = MemoryStore.open(host_db, clock=ManualClock(REVIEW_TIME))
    window, shown = launched_window(qtbot, store, tmp_path)
    controller = window.controller
    # Shown complete: the cards, the selected card's history and diff, the counts, a writable store.
    assert list(window.model.ids)[:4] == [5, 4, 3, 1]
    memory = window.selected_memory()
    assert memory is not None and window.panel.history_memory_id == memory.id
    assert window.panel.diff.settled and window.status.counts.text()
    assert controller.write_refusal is None
    assert window.acts.edit.isEnabled() and window.acts.new_memory.isEnabled()
    # The complete listing (observed), the candidates and everything else queued at start: nothing moves.
    qtbot.waitUntil(lambda: controller.candidates is not None and not controller.runner.busy, timeout=30_000)
    QApplication.processEvents()
    assert frame(window) == shown[0]
    store.close()


@pytest.mark.parametrize("theme", ["light", "dark"])
@pytest.mark.parametrize("width", [1024, 1400])
def test_the_toolbar_fits_without_an_overflow_menu(
    qtbot: QtBot, host_db: Path, tmp_path: Path, width: int, theme: str
) -> None:
    app = QApplication.instance()
    assert isinstance(app, QApplication)
    apply_theme(app, theme)
    store = MemoryStore.open(host_db, clock=ManualClock(REVIEW_TIME))
    try:
        window, _shown = launched_window(qtbot, store, tmp_path, width)
        toolbar = window.toolbar
        assert toolbar.width() <= width
        extension = toolbar.findChild(QToolButton, "qt_toolbar_ext_button")
        assert extension is None or not extension.isVisible()  # no » menu
        for group in toolbar_groups(window.acts):
            for action in group:
                button = toolbar.widgetForAction(action)
                assert button is not None and button.isVisible(), action.text()
                assert toolbar.rect().contains(button.geometry()), action.text()
        # Undo and the review stay one click away.
        for action in (window.acts.undo, window.acts.review_queue, window.acts.run_review):
            assert toolbar.widgetForAction(action).isVisible()
        window.close()
    finally:
        apply_theme(app, "light")
        store.close()


# -- the launch -------------------------------------------------------------------------------------


def _env(tmp_path: Path) -> dict[str, str]:
    return {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "QT_QPA_PLATFORM": "offscreen",
        "XDG_CONFIG_HOME": str(tmp_path / "config"),
        "MEMORY_DASHBOARD_DATA_DIR": str(tmp_path / "data"),
    }


def test_a_plain_launch_is_read_by_the_parser_without_its_commands(tmp_path: Path) -> None:
    script = (
        "import sys; from app.cli import parse; from ui.cli_hooks import HOOKS; "
        "args, _ = parse(['--db', 'x.db', '--smoke'], HOOKS); "
        "print(args.db, args.smoke, args.offscreen, args.command, "
        "any(name.startswith('app.cli.commands.') for name in sys.modules))"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, env=_env(tmp_path), cwd=ROOT
    )
    assert done.stdout.split() == ["x.db", "True", "False", "None", "False"], done.stderr


def test_the_smoke_run_paints_its_first_frame(host_db: Path, tmp_path: Path) -> None:
    args = [sys.executable, "-m", "ui", "--db", str(host_db), "--smoke"]
    started = time.perf_counter()
    done = subprocess.run(args, capture_output=True, text=True, timeout=120, env=_env(tmp_path), cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert query(host_db, "SELECT count(*) FROM mdash_seen") != [(0,)]  # the complete listing ran
    # It says when its first cards were painted (the frozen build's launch row reads this line), on
    # the monotonic clock `perf_counter` reads: after this process started it, before it ended.
    (line,) = [line for line in done.stdout.splitlines() if line.startswith(FIRST_CARDS)]
    assert started < float(line.split()[-1]) < time.perf_counter()
