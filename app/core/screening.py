"""Hidden characters: find invisible, bidi-control and tag characters in untrusted text, and show them.

A memory is injected into every session; a zero-width or bidi-control character can hide instructions
from the person reading the dashboard. Such content is flagged, and shown with each hidden character
made visible as `⟦U+200B⟧`.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

_BIDI_CONTROLS = frozenset([0x061C, 0x200E, 0x200F, *range(0x202A, 0x202F), *range(0x2066, 0x206A)])
_INVISIBLE = frozenset(
    [
        0x00AD,
        0x034F,
        0x115F,
        0x1160,
        0x17B4,
        0x17B5,
        0x180E,
        0x3164,
        0xFFA0,
        0xFEFF,
        *range(0x200B, 0x200E),
        *range(0x2060, 0x2065),
        *range(0xFE00, 0xFE10),
        *range(0xFFF9, 0xFFFC),
    ]
)


@dataclass(frozen=True, slots=True)
class HiddenCharacter:
    index: int
    codepoint: int
    kind: str  # "invisible" | "bidi" | "tag" | "control"

    @property
    def label(self) -> str:
        name = unicodedata.name(chr(self.codepoint), "")
        return f"U+{self.codepoint:04X}" + (f" {name}" if name else "")


def classify(char: str) -> str | None:
    """The kind of hidden character `char` is, or None for an ordinary visible one."""
    code = ord(char)
    if (code < 0x20 and char not in "\t\n\r") or 0x7F <= code <= 0x9F:
        return "control"  # ESC and friends can rewrite a terminal or hide text
    if 0xE0000 <= code <= 0xE007F:
        return "tag"
    if code in _BIDI_CONTROLS:
        return "bidi"
    if code in _INVISIBLE or unicodedata.category(char) == "Cf":
        return "invisible"
    return None


_ASCII_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


def _is_plain_ascii(text: str) -> bool:
    """ASCII without control characters (tab and line breaks aside): nothing hidden, checked fast."""
    return text.isascii() and _ASCII_CONTROL.search(text) is None


def hidden_characters(text: str) -> list[HiddenCharacter]:
    """Every hidden character in `text`, in order."""
    if _is_plain_ascii(text):
        return []
    found = []
    for index, char in enumerate(text):
        kind = classify(char)
        if kind is not None:
            found.append(HiddenCharacter(index, ord(char), kind))
    return found


def has_hidden_characters(text: str) -> bool:
    return not _is_plain_ascii(text) and any(classify(char) is not None for char in text)


def hidden_problem(text: str, *, named: int = 3) -> str | None:
    """Why `text` is refused where hidden characters are not allowed (a verdict's content, a copy from the
    hub; `--allow-hidden` lets them in), or None: how many there are and the first `named` kinds."""
    hidden = hidden_characters(text)
    if not hidden:
        return None
    shown = ", ".join(sorted({h.label for h in hidden})[:named])
    return f"holds {len(hidden)} hidden character(s) ({shown}); not allowed"


def make_visible(text: str) -> str:
    """`text` with each hidden character replaced by a visible `⟦U+XXXX⟧` marker."""
    if _is_plain_ascii(text):
        return text
    return "".join(f"⟦U+{ord(c):04X}⟧" if classify(c) is not None else c for c in text)
