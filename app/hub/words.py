"""How the hub window names what publishers wrote: machine names, statuses, lists of machines and copies.

Every one of them comes from a hub row any publisher may have written, of any length and with any
characters: each is shown on one line, cut (`app.present.card.shown_word`), hidden and bidi-control
characters made visible, and a list names its first few and counts the rest, so nothing a publisher
writes sizes a label, a pill or a window.
"""

from __future__ import annotations

from collections.abc import Sequence

from app.hub.cards import MachineCopy
from app.present.card import WORD_CHARS, shown_word

LISTED = 4  # names a list shows before "+N more"
SHOWN_CHARS = 60  # of a name or a status as shown (hidden characters shown as markers take room too)


def _bounded(text: str, limit: int = SHOWN_CHARS) -> str:
    """One line, cut, hidden characters visible, and then no longer than `limit` as shown."""
    shown = shown_word(text, min(WORD_CHARS, limit))
    return shown if len(shown) <= limit else shown[: limit - 1] + "…"


def machine_name(machine: str, limit: int = SHOWN_CHARS) -> str:
    """A machine's name as every view of the hub (the window, `hub status`, `hub list`) shows it."""
    return _bounded(machine, limit)


def copy_name(copy: MachineCopy) -> str:
    """`laptop #5`."""
    return f"{machine_name(copy.machine)} #{copy.memory_id}"


def copy_status(copy: MachineCopy) -> str:
    return _bounded(copy.shown_status)


def _listed(shown: list[str], total: int, separator: str = ", ") -> str:
    """`a, b, c, d +3 more`: the names shown, then how many of `total` are not."""
    more = total - len(shown)
    return f"{separator.join(shown)} +{more:,} more" if more > 0 else separator.join(shown)


def machine_list(machines: Sequence[str], first: int = LISTED, separator: str = ", ") -> str:
    """The first `first` machines' names and how many more."""
    return _listed([machine_name(machine) for machine in machines[:first]], len(machines), separator)


def copy_list(copies: Sequence[MachineCopy], first: int = LISTED) -> str:
    """The first `first` copies (`laptop #5`) and how many more."""
    return _listed([copy_name(copy) for copy in copies[:first]], len(copies))
