"""Blame: the selected memory's sentences (or lines), each with the revision that wrote it in its
current form, who made it and its evidence; activating a row selects that revision in the history."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTreeWidget, QTreeWidgetItem, QWidget

from app.core.clock import format_instant
from app.core.screening import make_visible
from app.present.revision import revision_name
from app.present.timefmt import relative
from ui.history.revision_table import REVISION_ROLE
from ui.widgets.plain_tip import plain_tip

if TYPE_CHECKING:
    from app.core.models.blame import Blame, BlameLine

HEADERS = ("Revision", "When", "Who", "Text", "Evidence")
TEXT, EVIDENCE = 3, 4
ORIGIN_ROLE = Qt.ItemDataRole.UserRole + 2
SHOWN_TEXT = 300  # characters of a sentence or line shown in its row (the tooltip has more)
SHOWN_EVIDENCE = 40  # characters of the first candidate's words shown in a row (all in the tooltip)


def evidence_cell(blame: Blame, line: BlameLine) -> str:
    """`#151 "Runs tests with…" +2`: the first candidate the revision cites, with its words if known
    (its session and every candidate's words are in the tooltip)."""
    ids = line.origin.candidate_ids
    if not ids:
        return ""
    found = blame.evidence.get(ids[0])
    more = f" +{len(ids) - 1}" if len(ids) > 1 else ""
    if found is None:
        return f"#{ids[0]} (words not known){more}"
    words = make_visible(" ".join(found.content.split()))
    cut = words if len(words) <= SHOWN_EVIDENCE else words[: SHOWN_EVIDENCE - 1] + "…"
    return f'#{ids[0]} "{cut}"{more}'


def row_tip(blame: Blame, line: BlameLine) -> str:
    origin = line.origin
    when = format_instant(origin.at) if origin.at is not None else "unknown time"
    from app.core.models.blame import origin_label  # SQLAlchemy: only once a blame was read

    parts = [f"{origin_label(origin)} · {when}", "", line.text]
    if origin.candidate_ids:
        parts += ["", "Evidence:", *(blame.evidence_text(item) for item in origin.candidate_ids)]
    elif origin.revision_id is not None:
        parts += ["", "No candidates cited by this revision."]
    return plain_tip("\n".join(parts))


class BlameView(QTreeWidget):
    revisionActivated = Signal(object)  # revision id

    def __init__(self, now: Callable[[], int], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._now = now
        self.memory_id: int | None = None  # whose blame is shown
        self.setHeaderLabels(HEADERS)
        self.setRootIsDecorated(False)
        self.setUniformRowHeights(True)
        self.setAlternatingRowColors(True)
        self.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.setAccessibleName("Blame")
        self.setAccessibleDescription(
            "Each sentence or line of the memory with the revision that wrote it; Enter shows that revision"
        )
        header = self.header()
        header.setStretchLastSection(False)
        for column in range(TEXT):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(
            TEXT, QHeaderView.ResizeMode.Stretch
        )  # the text first, the evidence beside
        header.setSectionResizeMode(EVIDENCE, QHeaderView.ResizeMode.Interactive)
        header.resizeSection(EVIDENCE, self.fontMetrics().averageCharWidth() * 18)
        self.itemActivated.connect(self._activated)

    def show_message(self, text: str) -> None:
        self.clear()
        self.memory_id = None
        item = QTreeWidgetItem(["", "", "", text, ""])
        item.setFlags(Qt.ItemFlag.NoItemFlags)
        self.addTopLevelItem(item)

    def set_blame(self, blame: Blame) -> None:
        self.clear()
        from app.core.models.blame import origin_label  # SQLAlchemy: only once a blame was read

        self.memory_id = blame.memory_id
        now = self._now()
        for line in blame.lines:
            origin = line.origin
            text = make_visible(" ".join(line.text.split()))
            item = QTreeWidgetItem(
                [
                    revision_name(origin.revision_id) if origin.revision_id is not None else "—",
                    relative(origin.at, now) if origin.at is not None else "",
                    origin_label(origin) if origin.revision_id is not None else "as first seen",
                    text if len(text) <= SHOWN_TEXT else text[: SHOWN_TEXT - 1] + "…",
                    evidence_cell(blame, line),
                ]
            )
            item.setData(0, ORIGIN_ROLE, origin.revision_id)
            tip = row_tip(blame, line)
            for column in range(len(HEADERS)):
                item.setToolTip(column, tip)
            self.addTopLevelItem(item)
        if not blame.lines:
            self.show_message("This memory holds no text.")
            self.memory_id = blame.memory_id

    def revision_ids(self) -> list[int | None]:
        items = (self.topLevelItem(row) for row in range(self.topLevelItemCount()))
        return [item.data(0, ORIGIN_ROLE) for item in items if item is not None]

    def _activated(self, item: QTreeWidgetItem, _column: int) -> None:
        revision_id = item.data(0, ORIGIN_ROLE)
        if revision_id is not None:
            self.revisionActivated.emit(revision_id)


def select_revision(table: QTreeWidget, revision_id: int) -> bool:
    """Make the row of revision `revision_id` current in a revision table; whether it is listed."""
    for row in range(table.topLevelItemCount()):
        item = table.topLevelItem(row)
        listed = item.data(0, REVISION_ROLE) if item is not None else None
        if item is not None and getattr(listed, "id", None) == revision_id:
            table.setCurrentItem(item)
            table.scrollToItem(item)
            return True
    return False
