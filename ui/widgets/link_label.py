"""A line of a memory's links ("merged from #7, #9; supersedes #3") whose ids are links: a click on one
asks for that memory (`linkOpened`). The phrases are the app's own words around ids (`grouped_phrases`),
escaped all the same; the rich text is built here, never from memory content."""

from __future__ import annotations

import html
import re
from collections.abc import Sequence

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QLabel, QWidget

_ID = re.compile(r"#(\d+)")
_SCHEME = "memory:"


def linked_html(phrases: Sequence[str]) -> str:
    """The phrases joined by "; ", each "#N" a link to memory N."""
    escaped = html.escape("; ".join(phrases))
    return _ID.sub(lambda found: f'<a href="{_SCHEME}{found.group(1)}">#{found.group(1)}</a>', escaped)


class LinkLabel(QLabel):
    linkOpened = Signal(object)  # memory id (a Python object: host ids are 64-bit)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setTextFormat(Qt.TextFormat.RichText)
        self.setWordWrap(True)
        self.setTextInteractionFlags(Qt.TextInteractionFlag.LinksAccessibleByMouse)
        self.linkActivated.connect(self._activated)
        self.phrases: tuple[str, ...] = ()

    def set_phrases(self, phrases: Sequence[str]) -> None:
        self.phrases = tuple(phrases)
        self.setText(linked_html(self.phrases))
        self.setVisible(bool(self.phrases))

    def plain(self) -> str:
        """What it says, without the links' markup."""
        return "; ".join(self.phrases)

    def _activated(self, href: str) -> None:
        if href.startswith(_SCHEME) and href[len(_SCHEME) :].isdigit():
            self.linkOpened.emit(int(href[len(_SCHEME) :]))
