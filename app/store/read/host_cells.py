"""Reading one cell of a host row, whatever SQLite value it holds, as a value every reader can show.

The host's tables have no CHECKs: a cell may hold text (also text that is not UTF-8: the connections'
text factory, `decode_text`, reads it as `UndecodableText` instead of failing the whole query), a blob,
any 64-bit integer, any real, or NULL. `time_value`, `text_value` and `status_value` turn any of them into
what the column means (epoch ms within `TIME_MIN..TIME_MAX`, text); the `*_note` functions say, for the
row's `oddities`, what the cell held, escaped and cut (`describe`). `app.store.read.rows` puts them together.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

# TIME_MIN..TIME_MAX: the instants every reader can show (`app.core.clock`), read by the rest of the store
# from here.
from app.core.clock import TIME_MAX as TIME_MAX
from app.core.clock import TIME_MIN as TIME_MIN
from app.core.clock import format_instant
from app.core.screening import make_visible

SHOWN_CHARS = 40  # of a raw text in a note: a 10 MiB text in a timestamp column makes no 10 MiB note
SHOWN_BYTES = 16  # of a raw blob in a note
STATUS_BYTES = 64  # of a blob status shown as a literal


class UndecodableText(str):
    """A TEXT value that was not valid UTF-8, decoded with U+FFFD in place of each bad byte sequence."""

    __slots__ = ()


def decode_text(raw: bytes) -> str:
    """The connections' text factory: UTF-8 as sqlite3 decodes it, but text that is not valid UTF-8
    comes back marked (`UndecodableText`) instead of failing the query and every listing with it."""
    try:
        return raw.decode()
    except UnicodeDecodeError:
        return UndecodableText(raw.decode("utf-8", "replace"))


def blob_literal(value: bytes, limit: int) -> str:
    """`x'6163…'`: a blob as SQL writes it, cut after `limit` bytes."""
    return f"x'{value[:limit].hex()}{'…' if len(value) > limit else ''}'"


def _quoted(text: str) -> str:
    """A raw text for a note: cut, on one line (control characters as JSON escapes), hidden ones visible."""
    cut = text[:SHOWN_CHARS]
    escaped = make_visible(json.dumps(cut, ensure_ascii=False)[1:-1])
    return f"'{escaped}{'…' if len(text) > SHOWN_CHARS else ''}'"


def describe(value: object) -> str:
    """A raw value with its SQLite type, escaped and short: `text 'yesterday'`, `a blob x'00ff' (2 bytes)`."""
    if isinstance(value, UndecodableText):
        return f"text that is not valid UTF-8 {_quoted(value)}"
    if isinstance(value, str):
        return f"text {_quoted(value)}"
    if isinstance(value, bytes):
        return f"a blob {blob_literal(value, SHOWN_BYTES)} ({len(value):,} bytes)"
    if isinstance(value, float):
        return f"the real number {value!r}"
    if isinstance(value, int):
        return f"the integer {value}"
    return "NULL" if value is None else f"a {type(value).__name__}"


def time_value(value: object) -> int:
    """A timestamp column as epoch ms every reader can show: clamped into TIME_MIN..TIME_MAX; a value
    that is no number at all (text, blob, NULL) reads as TIME_MIN."""
    if type(value) is int and TIME_MIN <= value <= TIME_MAX:
        return value
    if isinstance(value, float) and value == value:  # NaN (never stored by SQLite) is no number either
        return int(max(TIME_MIN, min(TIME_MAX, value)))
    if isinstance(value, int) and not isinstance(value, bool):
        return max(TIME_MIN, min(TIME_MAX, value))
    return TIME_MIN


def time_note(column: str, value: object) -> str | None:
    """The oddity of a timestamp cell (None for epoch ms in range)."""
    if type(value) is int and TIME_MIN <= value <= TIME_MAX:
        return None
    shown_as = format_instant(time_value(value))
    return f"{column} is {describe(value)}, not epoch milliseconds in range: shown as {shown_as}"


def text_value(value: object) -> str:
    """A text column as plain text: a blob decoded as UTF-8 (U+FFFD for bad bytes), a number written out."""
    if type(value) is str:
        return value
    if isinstance(value, str):
        return str(value)  # an UndecodableText: a plain str from here on
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace")
    return "" if value is None else str(value)


def status_value(value: object) -> str:
    """The status as shown: text as it is; a blob as its literal, so a blob 'active' (which the host's
    `status = 'active'` does not select) never reads as active."""
    if isinstance(value, bytes):
        return blob_literal(value, STATUS_BYTES)
    return text_value(value)


def notes_column(oddities: Sequence[str], column: str) -> bool:
    """Whether a row's oddities (each made here, starting with its column's name) include `column`'s:
    its cell held something the model shows in another form than the host wrote."""
    return any(note.startswith(f"{column} ") for note in oddities)


def text_note(column: str, value: object) -> str | None:
    """The oddity of a text cell (None for UTF-8 text)."""
    if type(value) is str:
        return None
    if isinstance(value, UndecodableText):
        return f"{column} is not valid UTF-8: the undecodable bytes are shown as U+FFFD"
    return f"{column} is {describe(value)}, not text"


def optional_text(column: str, value: object) -> tuple[str | None, str | None]:
    """A nullable text column (the JSON ones): NULL stays NULL, anything else becomes text."""
    if value is None:
        return None, None
    return text_value(value), text_note(column, value)


def sound_time(value: object) -> bool:
    """An optional instant as our own tables should hold it: NULL or epoch ms in range."""
    return value is None or (type(value) is int and TIME_MIN <= value <= TIME_MAX)


def optional_integer(column: str, value: object) -> tuple[int | None, str | None]:
    """A nullable INTEGER column that is no instant (a count, an id, a score): an integer as it is, NULL
    as None, anything else read as unknown (None) with its oddity."""
    if value is None or (isinstance(value, int) and not isinstance(value, bool)):
        return value, None
    return None, f"{column} is {describe(value)}, not an integer: read as unknown"


def optional_time(column: str, value: object) -> tuple[int | None, str | None]:
    """A nullable timestamp column: NULL stays None, anything else as `time_value` shows it."""
    if value is None:
        return None, None
    return time_value(value), time_note(column, value)
