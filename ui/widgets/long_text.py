"""Showing a text of any length or spacing in bounded time: the history panel's content, an oversized
memory in the editor, and the wrap mode every text layout of the window uses.

A host row can hold megabytes on one line. Three things made that freeze the window, each handled here:

- Qt's default wrapping (at a word boundary, else anywhere) looks for a word boundary up to the end of
  the run for every line it makes: quadratic in a run without spaces. A text with a run of `LONG_RUN`
  characters wraps anywhere instead, which is linear.
- A QPlainTextEdit lays out only the blocks (lines) on screen, but each of them whole: one 10 MiB line
  was laid out whole to show it, and again at every resize. Longer lines are cut into display blocks;
  the breaks are the view's only, and copying leaves them out.
- Marking hidden characters and building the document costs time per character, so at first only
  `SHOWN_CHARS` are shown, with a `Show all (N KiB)` button that loads the rest when asked.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass

from PySide6.QtCore import QMimeData
from PySide6.QtGui import QTextOption
from PySide6.QtWidgets import QHBoxLayout, QPlainTextEdit, QPushButton, QVBoxLayout, QWidget

from app.core.screening import make_visible
from ui.widgets.focus_ring import show_focus

LONG_RUN = 500
BLOCK_CHARS = 4096
SHOWN_CHARS = 32 * 1024
# Each pattern can only start at the start of a run (or line), so a search never rescans a run from
# every character in it (which would be quadratic again on runs just under the length).
_LONG_RUN = re.compile(rf"(?<!\S)\S{{{LONG_RUN}}}")
_LONG_LINE = re.compile(rf"^[^\n]{{{BLOCK_CHARS + 1},}}", re.MULTILINE)
# What a QTextDocument takes as the end of a block besides "\n": shown as "\n" (as Qt's own copy gives
# them), so that every block of the document is a line of the display text.
_OTHER_BREAKS = re.compile("\r\n?|\u2029")
_FRAME_MARKS = re.compile("[\ufdd0\ufdd1]")  # Qt's frame markers: a block break in a document


def wrap_mode(text: str) -> QTextOption.WrapMode:
    """How a text layout of `text` wraps in linear time: anywhere once a run is too long for words."""
    if _LONG_RUN.search(text):
        return QTextOption.WrapMode.WrapAnywhere
    return QTextOption.WrapMode.WrapAtWordBoundaryOrAnywhere


def size_label(chars: int) -> str:
    """`12 KiB`, `1.5 MiB` for a count of characters (about bytes for the texts that get this long)."""
    if chars < 1024 * 1024:
        return f"{max(1, round(chars / 1024)):,} KiB"
    return f"{chars / (1024 * 1024):,.1f} MiB"


@dataclass(frozen=True, slots=True)
class DisplayText:
    """What a view shows of a text: `text` (hidden characters marked, overlong lines cut into blocks)
    and the numbers of the blocks that go on a line the view cut (the break before them is not there)."""

    text: str
    continued_blocks: tuple[int, ...]

    @classmethod
    def of(cls, text: str) -> DisplayText:
        shown = _FRAME_MARKS.sub(lambda match: f"⟦U+{ord(match.group()):04X}⟧", make_visible(text))
        return _in_blocks(_OTHER_BREAKS.sub("\n", shown))

    def copied(self, selected: str, first_block: int) -> str:
        """The text of a selection (`QTextCursor.selectedText`, blocks joined by U+2029, starting in
        block `first_block`) without the breaks the view added."""
        lines = selected.split("\u2029")
        low = bisect.bisect_right(self.continued_blocks, first_block)
        high = bisect.bisect_left(self.continued_blocks, first_block + len(lines))
        glued = [block - first_block for block in self.continued_blocks[low:high]]
        starts = [0, *glued]
        ends = [*glued, len(lines)]
        return "".join("\n".join(lines[start:end]) for start, end in zip(starts, ends, strict=True))


def _in_blocks(text: str) -> DisplayText:
    """`text` with lines over `BLOCK_CHARS` cut, after a blank in a block's second half if there is one."""
    pieces: list[str] = []
    continued: list[int] = []
    last = 0
    blocks = 0  # line breaks so far in `text[:last]` plus the breaks added
    for match in _LONG_LINE.finditer(text):
        start, end = match.span()
        pieces.append(text[last:start])
        blocks += text.count("\n", last, start)
        at = start
        while end - at > BLOCK_CHARS:
            cut = text.rfind(" ", at + BLOCK_CHARS // 2, at + BLOCK_CHARS) + 1 or at + BLOCK_CHARS
            pieces.append(text[at:cut])
            pieces.append("\n")
            blocks += 1
            continued.append(blocks)
            at = cut
        pieces.append(text[at:end])
        last = end
    pieces.append(text[last:])
    return DisplayText("".join(pieces), tuple(continued))


class DisplayedTextEdit(QPlainTextEdit):
    """A read-only plain text view of a `DisplayText`: copying leaves out the breaks it added."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setReadOnly(True)
        self.setTabChangesFocus(True)  # read-only: Tab moves on to the next panel, as in a form
        show_focus(self)  # read-only, it shows no cursor: nothing else says it holds the focus
        self.shown = DisplayText("", ())

    def show_text(self, shown: DisplayText) -> None:
        self.shown = shown
        self.setWordWrapMode(wrap_mode(shown.text))
        self.setPlainText(shown.text)

    def createMimeDataFromSelection(self) -> QMimeData:
        cursor = self.textCursor()
        first_block = self.document().findBlock(cursor.selectionStart()).blockNumber()
        data = QMimeData()
        data.setText(self.shown.copied(cursor.selectedText(), first_block))
        return data


class LongTextView(QWidget):
    """A text shown read-only, at first only its start, with `Show all (N KiB)` when that is not all."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.view = DisplayedTextEdit(self)
        self.show_all_button = QPushButton(self)
        self.show_all_button.setToolTip("Load the whole text (it is long: this can take a moment)")
        self.show_all_button.clicked.connect(self.show_all)
        self.show_all_button.hide()
        self._text = ""
        self._whole = True
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        buttons.addWidget(self.show_all_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.view, 1)
        layout.addLayout(buttons)

    @property
    def text(self) -> str:
        """The whole text, however much of it is shown."""
        return self._text

    @property
    def whole(self) -> bool:
        """Whether all of the text is shown."""
        return self._whole

    def set_text(self, text: str) -> None:
        """Show the start of `text` (all of it when short); the same text again keeps the view as it is."""
        if text == self._text and self.view.shown.text:
            return
        self._text = text
        self._whole = len(text) <= SHOWN_CHARS
        self.view.show_text(DisplayText.of(text if self._whole else text[:SHOWN_CHARS]))
        self.show_all_button.setText(f"Show all ({size_label(len(text))})")
        self.show_all_button.setVisible(not self._whole)

    def show_all(self) -> None:
        if not self._whole:
            self._whole = True
            self.view.show_text(DisplayText.of(self._text))
            self.show_all_button.hide()


__all__ = [
    "BLOCK_CHARS",
    "LONG_RUN",
    "SHOWN_CHARS",
    "DisplayText",
    "DisplayedTextEdit",
    "LongTextView",
    "size_label",
    "wrap_mode",
]
