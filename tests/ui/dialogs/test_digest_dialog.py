"""The digest dialog on its own: groups by who made a change, which changes open a card, the watermark it
marks seen, and a long digest listed up to its newest changes."""

from __future__ import annotations

from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from app.core.models import ChangeKind, RevisionSource
from app.core.models.digest import BY_HOST, Digest, DigestChange, Watermark
from ui.dialogs.digest import MAX_SHOWN, DigestDialog

NOW = 1_800_000_000_000
UPTO = Watermark(NOW, 99)


def change(memory_id: int | None, kind: str, by: str, **extra: object) -> DigestChange:
    return DigestChange(kind=kind, at=NOW - 60_000, by=by, memory_id=memory_id, **extra)  # type: ignore[arg-type]


def dialog_for(qtbot: QtBot, changes: list[DigestChange]) -> DigestDialog:
    dialog = DigestDialog(Digest(NOW - 3_600_000, tuple(changes), UPTO), lambda: NOW)
    qtbot.addWidget(dialog)
    return dialog


def select(dialog: DigestDialog, group: int, row: int) -> None:
    top = dialog.tree.topLevelItem(group)
    assert top is not None
    item = top.child(row)
    assert item is not None
    dialog.tree.setCurrentItem(item)


def test_groups_and_what_opens_a_card(qtbot: QtBot) -> None:
    dialog = dialog_for(
        qtbot,
        [
            change(
                4,
                ChangeKind.REWRITTEN,
                RevisionSource.REVIEW,
                run_id="run-7",
                previous_content="a",
                new_content="b",
            ),
            change(3, ChangeKind.DELETED, RevisionSource.OBSERVED, previous_content="gone"),
            change(None, ChangeKind.CANDIDATE, BY_HOST, candidate_id=141, new_content="Prefers pnpm"),
        ],
    )
    tops = [dialog.tree.topLevelItem(i) for i in range(dialog.tree.topLevelItemCount())]
    assert [t.text(0) for t in tops if t is not None] == [
        "Review run run-7 (1)",
        "Another process (seen from outside) (1)",
        "The host's sessions (new candidates) (1)",
    ]
    assert dialog.open_button.isEnabled()  # the first change is selected: a rewrite opens its card
    with qtbot.waitSignal(dialog.openMemory) as opened:
        dialog.open_button.click()
    assert opened.args == [4]
    dialog.show()
    dialog.tree.setFocus()
    marked_too: list[object] = []
    dialog.markSeen.connect(marked_too.append)
    with qtbot.waitSignal(dialog.openMemory) as by_key:
        qtbot.keyClick(dialog.tree, Qt.Key.Key_Return)
    assert by_key.args == [4] and dialog.isVisible() and not marked_too  # Enter opens, never marks seen
    select(dialog, 1, 0)
    assert not dialog.open_button.isEnabled()  # a deleted memory has no card
    select(dialog, 2, 0)
    assert not dialog.open_button.isEnabled()  # nor has a candidate
    with qtbot.waitSignal(dialog.markSeen) as marked:
        dialog.seen_button.click()
    assert marked.args == [UPTO]


def test_a_long_digest_lists_its_newest_changes(qtbot: QtBot) -> None:
    many = [
        change(i, ChangeKind.NEW, RevisionSource.IMPORT, new_content=f"m{i}")
        for i in range(1, MAX_SHOWN + 501)
    ]
    dialog = dialog_for(qtbot, many)
    top = dialog.tree.topLevelItem(0)
    assert top is not None and top.childCount() == MAX_SHOWN
    first = top.child(0)
    assert first is not None and first.text(0).startswith("#501 new")
    assert "memory-dashboard digest` lists all" in dialog.header.text()
