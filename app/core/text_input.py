"""Checks for what comes in from outside: text, numbers and JSON, each checked once where it enters.

Text a person or a verdict hands in must be storable and showable everywhere afterwards: no lone
surrogates (they cannot be encoded as UTF-8, so every later export would fail), no Unicode
non-characters, no NUL. Numbers must fit SQLite's 64-bit integers. JSON must have unique keys (a
duplicated key would silently drop one of the two values) and a bounded nesting depth (Python's parser
recurses). The tolerant side, reading what the host's tables hold, is `json_depth_ok` with a fallback.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

MAX_CONTENT_BYTES = 64 * 1024
INT64_MIN = -(2**63)
INT64_MAX = 2**63 - 1
MAX_JSON_DEPTH = 64

# Lone surrogates, the 66 non-characters (U+FDD0..U+FDEF and the last two code points of each plane) and NUL.
_BAD_CHARACTER = re.compile(
    "[\x00\ud800-\udfff\ufdd0-\ufdef"
    + "".join(f"{chr(plane * 0x10000 + 0xFFFE)}{chr(plane * 0x10000 + 0xFFFF)}" for plane in range(17))
    + "]"
)


def text_problem(text: str) -> str | None:
    """What makes `text` unfit to store, or None: the first bad character, named and placed."""
    found = _BAD_CHARACTER.search(text)
    if found is None:
        return None
    code = ord(found.group())
    if code == 0:
        kind = "a NUL character"
    elif 0xD800 <= code <= 0xDFFF:
        kind = f"a lone surrogate (U+{code:04X})"
    else:
        kind = f"a Unicode non-character (U+{code:04X})"
    return f"holds {kind} at character {found.start() + 1}"


def content_problem(content: str) -> str | None:
    """The one rule for a memory's content: not blank, storable text, at most 64 KiB of UTF-8."""
    if not content.strip():
        return "is empty"
    bad = text_problem(content)
    if bad is not None:
        return bad
    size = len(content.encode("utf-8"))
    if size > MAX_CONTENT_BYTES:
        return f"is {size:,} bytes; the limit is {MAX_CONTENT_BYTES:,} (64 KiB)"
    return None


_WHOLE_NUMBER = re.compile(r"[+-]?[0-9]+")  # ASCII only: int() takes other scripts' digits too
_INT64_DIGITS = 19  # digits of 2**63


def is_whole_number(text: str) -> bool:
    """An optional sign and ASCII digits, nothing else."""
    return _WHOLE_NUMBER.fullmatch(text) is not None


def whole_number_int64(text: str) -> int | None:
    """The 64-bit integer a whole number (`is_whole_number`) names; None for any other text and for a number
    past 64 bits. The digits are counted before int(), which refuses thousands of them with its own error."""
    if not is_whole_number(text) or len(text.lstrip("+-").lstrip("0")) > _INT64_DIGITS:
        return None
    value = int(text)
    return value if INT64_MIN <= value <= INT64_MAX else None


def int64_problem(value: int) -> str | None:
    """Whether `value` fits a 64-bit integer column (SQLite's INTEGER, PostgreSQL's BIGINT)."""
    if INT64_MIN <= value <= INT64_MAX:
        return None
    return f"{value} is out of range (at most {INT64_MAX})" if value > 0 else f"{value} is out of range"


_JSON_TOKEN = re.compile(rb'"(?:[^"\\]|\\.)*"|[\[\]{}]')


def json_depth(text: str | bytes, limit: int = MAX_JSON_DEPTH) -> int:
    """The nesting depth of a JSON text, counting brackets outside strings in one linear pass (strings
    are skipped by the regular expression engine); stops past `limit` (returns limit + 1). Cheap enough
    to run before `json.loads`, which recurses."""
    data = text.encode("utf-8", "surrogatepass") if isinstance(text, str) else text
    depth = deepest = 0
    for token in _JSON_TOKEN.finditer(data):
        first = token.group()[:1]
        if first in (b"[", b"{"):
            depth += 1
            if depth > deepest:
                deepest = depth
                if deepest > limit:
                    return deepest
        elif first in (b"]", b"}"):
            depth -= 1
    return deepest


def json_depth_ok(text: str | bytes, limit: int = MAX_JSON_DEPTH) -> bool:
    return json_depth(text, limit) <= limit


class DuplicateKeyError(ValueError):
    """A JSON object names the same key twice."""

    def __init__(self, key: str) -> None:
        super().__init__(f"the key {key!r} is given twice in one object")
        self.key = key


def _unique_object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result: dict[str, Any] = {}
    for key, value in pairs:
        if key in result:
            raise DuplicateKeyError(key)
        result[key] = value
    return result


def strict_json_loads(
    text: str | bytes, *, limit: int = MAX_JSON_DEPTH, parse_int: Callable[[str], Any] | None = None
) -> Any:
    """`json.loads` that refuses duplicate keys (DuplicateKeyError) and nesting deeper than `limit`
    (ValueError), checked before the parser recurses. Other errors are json.JSONDecodeError as usual."""
    if not json_depth_ok(text, limit):
        raise ValueError(f"nested more than {limit} levels deep")
    return json.loads(text, object_pairs_hook=_unique_object, parse_int=parse_int)


def tolerant_json_loads(text: str | bytes) -> Any:
    """What a host column's JSON holds, or None for anything unreadable (bad syntax, nesting too deep for
    the parser, which says so with RecursionError before it runs out of stack)."""
    try:
        return json.loads(text)
    except (ValueError, TypeError, RecursionError):
        return None
