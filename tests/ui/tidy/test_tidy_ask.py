"""The Tidy dialog's "Ask the reviewer…": offered only with a reviewer command set, the answer previewed
(nothing changed until Apply), applied as a tidy run under the lease; a bad answer or Cancel is said in
the dialog, which stays usable, and nothing changes."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from app.core.settings import Settings, save_settings
from app.store import MemoryStore
from tests.review.review_helpers import lease_rows
from tests.support.hostdb import host_dump, host_sql
from tests.support.tidy_memories import tidy_db
from tests.tidy.ask_helpers import MERGED, answer, fake_reviewer, merge_and_settle
from tests.ui.runtime_helpers import dispose
from ui.runtime.controller import Controller
from ui.tidy.ask import CHANGE_ROLE, AskReviewerDialog
from ui.tidy.dialog import TidyDialog


@pytest.fixture
def path(tmp_path: Path) -> Path:
    return tidy_db(tmp_path / "context.db")


@pytest.fixture
def controller(path: Path) -> Iterator[Controller]:
    store = MemoryStore.open(path)
    made = Controller(store)
    yield made
    dispose(made)
    store.close()


def listed(qtbot: QtBot, controller: Controller) -> TidyDialog:
    dialog = TidyDialog(controller)
    qtbot.addWidget(dialog)
    with qtbot.waitSignal(dialog.finished_listing, timeout=10_000):
        dialog.start()
    return dialog


def asked(qtbot: QtBot, dialog: TidyDialog) -> AskReviewerDialog:
    assert dialog.ask_button.isEnabled()
    dialog.ask_button.click()
    asking = dialog.asking
    assert isinstance(asking, AskReviewerDialog)
    qtbot.waitUntil(asking.bar.isHidden, timeout=30_000)  # hidden once answered, failed or cancelled
    return asking


def use_reviewer(command: str) -> None:
    save_settings(Settings(reviewer_command=command, reviewer_timeout_s=60))


def test_without_a_reviewer_the_button_says_how_to_set_one(qtbot: QtBot, controller: Controller) -> None:
    dialog = listed(qtbot, controller)
    assert not dialog.ask_button.isEnabled()
    assert "No reviewer command is set" in dialog.ask_button.toolTip()
    assert "reviewer_command" in dialog.ask_button.toolTip()


def test_the_answer_is_previewed_then_applied_as_a_run(
    qtbot: QtBot, controller: Controller, path: Path, tmp_path: Path
) -> None:
    use_reviewer(fake_reviewer(tmp_path, answer(merge_and_settle()), expect="MAY CONTRADICT"))
    dialog = listed(qtbot, controller)
    before = host_dump(path)
    asking = asked(qtbot, dialog)
    assert asking.changes.topLevelItemCount() == 3, asking.status.text()
    first = asking.changes.topLevelItem(0)
    assert first is not None and first.data(0, CHANGE_ROLE).new == MERGED
    assert first.text(0) == "Rewrite" and first.text(1).startswith("#1  Prefers pnpm over npm")
    second = asking.changes.topLevelItem(1)
    assert second is not None and second.text(0) == "Dismiss (merged into #1)"
    assert (
        "#2 merged into #1" in asking.status.text()
        and "Nothing is changed until Apply" in asking.status.text()
    )
    qtbot.waitUntil(lambda: asking.diff.settled, timeout=10_000)
    assert host_dump(path) == before  # the preview changed nothing
    assert asking.apply_button.isEnabled()

    with qtbot.waitSignal(asking.applied, timeout=30_000) as applied:
        asking.apply_button.click()
    result = applied.args[0]
    qtbot.waitUntil(lambda: not controller.runner.busy, timeout=10_000)  # the window's repaint, read
    assert result.origin == "tidy" and (result.updated, result.dismissed) == (1, 2)
    assert result.run_id in asking.status.text() and not asking.apply_button.isEnabled()
    assert lease_rows(path) == {"generation": "1"}
    store = controller.store
    assert store.get(1).content == MERGED and store.get(2).status == "dismissed"
    assert [run.label for run in store.runs()] == ["tidy review"]


def test_a_garbage_answer_is_said_and_nothing_changes(
    qtbot: QtBot, controller: Controller, path: Path, tmp_path: Path
) -> None:
    use_reviewer(fake_reviewer(tmp_path, "Sure! These look fine to me."))
    dialog = listed(qtbot, controller)
    before = host_dump(path)
    asking = asked(qtbot, dialog)
    assert "not used; nothing was changed" in asking.status.text()
    assert "not verdict JSON" in asking.status.text()
    assert not asking.apply_button.isEnabled() and asking.close_button.isEnabled()
    assert asking.changes.topLevelItemCount() == 0
    assert host_dump(path) == before


def test_cancel_stops_the_reviewer_and_nothing_changes(
    qtbot: QtBot, controller: Controller, path: Path, tmp_path: Path
) -> None:
    started = tmp_path / "started"
    script = tmp_path / "slow.py"
    script.write_text(
        "import pathlib, sys, time\nsys.stdin.read()\n"
        f"pathlib.Path({str(started)!r}).touch()\ntime.sleep(600)\n",
        encoding="utf-8",
    )
    use_reviewer(f"{sys.executable} {script}")
    dialog = listed(qtbot, controller)
    before = host_dump(path)
    dialog.ask_button.click()
    asking = dialog.asking
    assert isinstance(asking, AskReviewerDialog)
    qtbot.waitUntil(started.exists, timeout=30_000)
    with qtbot.waitSignal(asking.answered, timeout=30_000):
        asking.cancel_button.click()
    assert asking.status.text() == "Review cancelled; nothing was changed."
    assert not asking.apply_button.isEnabled()
    assert host_dump(path) == before


def test_an_apply_refused_as_out_of_date_offers_asking_again(
    qtbot: QtBot, controller: Controller, path: Path, tmp_path: Path
) -> None:
    use_reviewer(fake_reviewer(tmp_path, answer(merge_and_settle()), expect="MAY CONTRADICT"))
    dialog = listed(qtbot, controller)
    asking = asked(qtbot, dialog)
    assert asking.apply_button.isEnabled() and not asking.ask_again_button.isVisible()
    host_sql(path, "UPDATE user_memories SET content = 'Prefers pnpm over npm, always' WHERE id = 1")
    before = host_dump(path)
    with qtbot.waitSignal(asking.applyFailed, timeout=30_000) as refused:
        asking.apply_button.click()
    assert "#1 changed since the preview" in str(refused.args[0])
    # Applying again would fail the same way: Apply stays off, Ask again is offered.
    assert not asking.apply_button.isEnabled()
    assert asking.ask_again_button.isVisible() and asking.ask_again_button.isEnabled()
    assert host_dump(path) == before

    with qtbot.waitSignal(asking.answered, timeout=30_000):
        asking.ask_again_button.click()
    assert not asking.ask_again_button.isVisible()
    assert asking.proposal is not None and asking.apply_button.isEnabled()
    first = asking.changes.topLevelItem(0)
    assert first is not None and first.data(0, CHANGE_ROLE).old == "Prefers pnpm over npm, always"
