"""`ProjectDetail`: the selected project memory beside its cards: its content, its fields, its links both
ways (each id a link that selects that memory), the sources of a merge with their sessions, and its
history with the word diff of the selected revision (the user memories' revision table and diff), and
its blame beside the revisions (the user memories' blame view: each sentence with the revision that
wrote it, read when its tab is shown; Ctrl+B).

Everything here is untrusted text: plain labels, and the one rich-text label (the links) escapes every
piece of text it shows; only the ids it writes itself become anchors."""

from __future__ import annotations

import html
from collections.abc import Callable, Sequence

from PySide6.QtCore import QSize, Qt, Signal
from PySide6.QtWidgets import (
    QFrame,
    QLabel,
    QScrollArea,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from app.core.models import Revision
from app.core.models.blame import Blame
from app.core.screening import make_visible
from app.store import ProjectMemory, ProjectMemoryLinks
from ui.diff.slot import DiffSlot
from ui.history.blame_view import BlameView
from ui.history.history_tabs import HistoryTabs
from ui.history.revision_table import CANDIDATES, RUN, RevisionTable
from ui.history.revision_view import show_change, take_revision
from ui.project.texts import LinkLine, detail_lines, link_lines
from ui.widgets.labels import boxed, empty_or_details, plain_label, title_label
from ui.widgets.long_text import LongTextView
from ui.widgets.plain_tip import plain_tip

ANCHOR = "memory:"  # the links' anchors: memory:<id>
NOTHING_SELECTED = "Select a project memory to see its fields, links and history."
NO_REVISIONS = "No revisions recorded yet: this memory is as the dashboard first saw it."


def links_html(lines: Sequence[LinkLine]) -> str:
    """The link lines as rich text: each text piece escaped, each id an anchor `memory:<id>`."""
    shown = []
    for line in lines:
        parts = [
            html.escape(make_visible(piece))
            if isinstance(piece, str)
            else f'<a href="{ANCHOR}{piece}">#{piece}</a>'
            for piece in line.pieces
        ]
        text = "".join(parts)
        shown.append(f"<i>{text}</i>" if line.problem else text)
    return "<br>".join(shown)


class ContentBox(LongTextView):
    """The content, asking for no more than its minimum (it scrolls itself): the pane's field lines are
    laid out whole first, and the box takes whatever room they leave."""

    def sizeHint(self) -> QSize:
        return QSize(super().sizeHint().width(), self.minimumHeight())


class ProjectDetail(QWidget):
    linkClicked = Signal(object)  # memory id (a Python int: any 64-bit id)
    revisionWanted = Signal(object)  # revision id whose texts are not read yet
    blameWanted = Signal(object)  # memory id: the Blame tab is shown for it

    def __init__(self, now: Callable[[], int], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._now = now
        self.memory: ProjectMemory | None = None
        self.history_memory_id: int | None = None
        self._stack, self.empty = empty_or_details(self, NOTHING_SELECTED, self._build())

    def _build(self) -> QWidget:
        page = QWidget(self)
        self.title = title_label(elided=True)  # a long project path is cut, never widens the panel
        self.read_only = plain_label()
        self.read_only.hide()
        self.content_box = ContentBox(page)
        self.content_box.view.setAccessibleName("Project memory content")
        self.fields = plain_label()
        self.links = QLabel(page)
        self.links.setTextFormat(Qt.TextFormat.RichText)
        self.links.setWordWrap(True)
        self.links.setAccessibleName("Links")
        self.links.setTextInteractionFlags(
            Qt.TextInteractionFlag.LinksAccessibleByMouse | Qt.TextInteractionFlag.LinksAccessibleByKeyboard
        )
        self.links.linkActivated.connect(self._link_activated)
        self.revisions = RevisionTable(self._now, page)
        self.revisions.revisionSelected.connect(self._show_revision)
        for column in (RUN, CANDIDATES):  # a project memory's revisions have no run id nor candidates
            self.revisions.setColumnHidden(column, True)
        self.revision_summary = plain_label()
        self.diff = DiffSlot(page)
        top = QWidget(page)
        top_layout = QVBoxLayout(top)
        top_layout.setContentsMargins(0, 0, 0, 0)
        top_layout.addWidget(self.title)
        top_layout.addWidget(self._scrolled_fields(top), 1)
        splitter = QSplitter(Qt.Orientation.Vertical, page)
        splitter.setChildrenCollapsible(False)
        splitter.addWidget(top)
        splitter.addWidget(boxed("Links", self.links))
        splitter.addWidget(boxed("History", self._history_tabs(page)))
        splitter.addWidget(boxed("Change", self.revision_summary, self.diff))
        em = self.fontMetrics().height()
        splitter.setSizes([em * 14, em * 5, em * 6, em * 12])
        layout = QVBoxLayout(page)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(splitter)
        return page

    def _scrolled_fields(self, parent: QWidget) -> QScrollArea:
        """The read-only reason, the content and the field lines, in a pane that scrolls once they do
        not fit (a small window, a long reason): every line can be reached, none cut off."""
        inner = QWidget()
        layout = QVBoxLayout(inner)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.read_only)
        layout.addWidget(self.content_box, 1)
        layout.addWidget(self.fields)
        self.content_box.setMinimumHeight(self.fontMetrics().height() * 3)  # the least it is given
        area = QScrollArea(parent)
        area.setWidget(inner)
        area.setWidgetResizable(True)
        area.setFrameShape(QFrame.Shape.NoFrame)
        area.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        return area

    def _history_tabs(self, page: QWidget) -> HistoryTabs:
        """The revisions, and Blame (read when its tab is shown), as the user memories' panel has them."""
        self.blame = BlameView(self._now, page)
        self.history_tabs = HistoryTabs(
            self.revisions,
            self.blame,
            "Which revision wrote each sentence (Ctrl+B)",
            lambda: None if self.memory is None else self.memory.id,
            page,
        )
        self.history_tabs.blameWanted.connect(self.blameWanted)
        return self.history_tabs

    def show_blame(self) -> None:
        self.history_tabs.show_blame()

    def _want_blame(self) -> None:
        self.history_tabs.want_blame()

    def set_blame(self, memory_id: int, blame: Blame) -> None:
        self.history_tabs.set_blame(memory_id, blame)

    def show_memory(self, memory: ProjectMemory | None, read_only_reason: str | None = None) -> None:
        """Show `memory` (None: nothing selected); its links and history follow (`set_links`,
        `set_history`) when another memory than the one shown is selected."""
        other = memory is None or self.memory is None or memory.id != self.memory.id
        self.memory = memory
        self._stack.setCurrentIndex(0 if memory is None else 1)
        if memory is None:
            self.history_memory_id = None
            return
        self.title.setText(f"#{memory.id} · {make_visible(memory.project_path)}")
        self.title.setToolTip(plain_tip(self.title.text()))  # the host's path: never read as markup
        self.read_only.setText(f"Read-only: {read_only_reason}" if read_only_reason else "")
        self.read_only.setVisible(read_only_reason is not None)
        self.content_box.set_text(memory.content)
        self.fields.setText("\n".join(make_visible(line) for line in detail_lines(memory, self._now())))
        if other:
            self.links.setText("Reading its links…")
            self.revisions.set_revisions([])
            self.revision_summary.setText("Reading its history…")
            self.history_memory_id = None

    def set_links(self, memory_id: int, found: ProjectMemoryLinks | None) -> None:
        if self.memory is None or memory_id != self.memory.id:
            return  # another memory is selected now
        lines = link_lines(found) if found is not None else []
        self.links.setText(links_html(lines) if lines else "No links: nothing supersedes or merged it.")

    def set_history(self, memory_id: int, revisions: Sequence[Revision]) -> None:
        if self.memory is None or memory_id != self.memory.id:
            return
        self.history_memory_id = memory_id
        self.revisions.set_revisions(revisions)
        self._want_blame()  # the history moved (a write, a rewrite seen): so may the blame shown
        if not revisions:
            self.revision_summary.setText(NO_REVISIONS)
            self.diff.show_texts(self.memory.content, self.memory.content, "As first seen")

    def set_revision(self, revision: Revision) -> None:
        current = take_revision(self.revisions, revision)
        if current is not None:
            self._show_revision(current)

    def _show_revision(self, revision: Revision | None) -> None:
        if revision is None or self.memory is None:
            return
        show_change(revision, self.revision_summary, self.diff, self.memory.content, self.revisionWanted.emit)

    def _link_activated(self, href: str) -> None:
        if href.startswith(ANCHOR) and href[len(ANCHOR) :].lstrip("-").isdigit():
            self.linkClicked.emit(int(href[len(ANCHOR) :]))
