"""What the command line hands in, checked once where it enters: argument types and text inputs.

Ids, limits and other whole numbers go through `int64` (or `positive_int64`), an argparse `type=`, so a
number SQLite's 64-bit integers cannot hold is a usage error naming its option, never an OverflowError
from the driver. Text read from a file or standard input (`read_text_input`) is read bounded, so
`/dev/zero` returns at once, and decoded as strict UTF-8. Arguments themselves must be UTF-8: on POSIX,
Python hands undecodable bytes in as lone surrogates, which no later encoding survives.
"""

from __future__ import annotations

import argparse
import math
import re
import sys
from collections.abc import Sequence
from pathlib import Path

from app.core.clock import instant_problem, parse_instant
from app.core.errors import InvalidInputError
from app.core.text_input import (
    INT64_MAX,
    INT64_MIN,
    MAX_CONTENT_BYTES,
    is_whole_number,
    text_problem,
    whole_number_int64,
)
from app.core.trust import parse_source
from app.present.timefmt import parse_duration

_LONE_SURROGATE = re.compile("[\ud800-\udfff]")
_ESCAPED_BYTE = range(0xDC80, 0xDD00)  # how os.fsdecode's surrogateescape carries an undecodable byte
MAX_TIMEOUT_S = 24 * 60 * 60


def int64(text: str) -> int:
    """An argparse type: a whole number that fits SQLite's 64-bit integers."""
    number = text.strip()
    if not is_whole_number(number):
        raise argparse.ArgumentTypeError(f"not a whole number: {text[:40]!r}")
    value = whole_number_int64(number)
    if value is None:
        shown = number if len(number) <= 40 else number[:40] + "..."
        raise argparse.ArgumentTypeError(f"{shown} is out of range ({INT64_MIN} to {INT64_MAX})")
    return value


def positive_int64(text: str) -> int:
    """An argparse type: a whole number from 1 to 2**63 - 1 (a limit, a count)."""
    value = int64(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {value}")
    return value


def seconds(text: str) -> float:
    """An argparse type: a finite, positive number of seconds, at most a day (a timeout)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text[:40]!r}") from None
    if not math.isfinite(value) or not 0 < value <= MAX_TIMEOUT_S:
        raise argparse.ArgumentTypeError(f"must be more than 0 and at most {MAX_TIMEOUT_S:,} seconds")
    return value


def argument_problem(argv: Sequence[str]) -> str | None:
    """Which argument is not text (an undecodable byte or a lone surrogate), or None."""
    for position, argument in enumerate(argv, start=1):
        found = _LONE_SURROGATE.search(argument)
        if found is None:
            continue
        code, where = ord(found.group()), found.start() + 1
        if code in _ESCAPED_BYTE:
            what = f"the byte 0x{code - 0xDC00:02X} at character {where} is not UTF-8"
        else:
            what = f"it holds a lone surrogate (U+{code:04X}) at character {where}"
        return f"argument {position} ({argument[:40]!r}) is refused: {what}; arguments must be UTF-8 text"
    return None


def read_text_input(name: str, limit: int = MAX_CONTENT_BYTES) -> str:
    """The UTF-8 text of file `name`, or of standard input for `-`: at most `limit` bytes. One byte more
    is read to tell a larger input, so an endless source (`/dev/zero`, `yes |`) returns at once."""
    label = "standard input" if name == "-" else name
    if name != "-":
        from app.store.connect.held_files import held_part  # (not on the launch's path)

        part = held_part(Path(name))  # never opened: a close would drop that database's locks
        if part is not None:
            raise InvalidInputError(f"{label} is {part}, not a text to read; nothing was changed")
    try:
        if name == "-":
            data = _read_stdin(limit + 1)
        else:
            with Path(name).open("rb") as handle:
                data = handle.read(limit + 1)
    except OSError as exc:
        raise InvalidInputError(f"cannot read {label}: {exc.strerror or exc}") from exc
    if len(data) > limit:
        raise InvalidInputError(f"{label} is larger than the limit of {limit:,} bytes; nothing was changed")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InvalidInputError(
            f"{label} is not UTF-8 text (the byte 0x{data[exc.start]:02X} at offset {exc.start})"
        ) from exc


def _read_stdin(size: int) -> bytes:
    """Up to `size` bytes of standard input; a replaced text stream (a test, a host) is read as text and
    its undecodable characters kept as such, for the decoding to name."""
    stream = sys.stdin
    if stream is None:
        return b""
    binary = getattr(stream, "buffer", None)
    if binary is not None:
        data: bytes = binary.read(size)
        return data
    return str(stream.read(size)).encode("utf-8", "surrogateescape")


def source_name(text: str) -> str:
    """An argparse type: a source (`session:ses_abc`, a scheme `session:`, a bare session id)."""
    problem = text_problem(text)
    if problem is not None:
        raise argparse.ArgumentTypeError(f"the source {problem}")
    try:
        return parse_source(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def instant(text: str) -> int:
    """An argparse type: epoch milliseconds or an ISO 8601 date/time (naive means UTC)."""
    try:
        return parse_instant(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def parse_when(text: str, now: int) -> int:
    """An instant as `--since` takes it: epoch milliseconds or ISO 8601 (as `--at`), or a duration back from
    `now` (`2d` is two days ago); InvalidInputError with a message otherwise."""
    try:
        return parse_instant(text)
    except ValueError as exc:
        first = exc
    try:
        at = now - parse_duration(text)
    except ValueError:
        raise InvalidInputError(f"{first}; or give a duration back from now, like 2d or 12h") from None
    problem = instant_problem(at)
    if problem is not None:
        raise InvalidInputError(f"{text.strip()[:30]} ago is too far back: {problem}")
    return at


def as_of_instant(text: str) -> int:
    """`--as-of WHEN`: epoch milliseconds or ISO 8601 (as `--at`); a time that cannot be read is an error
    the person can fix (exit 1, with the reason), not a usage error."""
    try:
        return parse_instant(text)
    except ValueError as exc:
        raise InvalidInputError(f"--as-of: {exc}") from exc


KINDS = ("user", "project")  # `--kind`: the host's user memories, or its project memories


def plain_text(text: str) -> str:
    """An argparse type for a name or a filter value that is stored nowhere (`--project`, a status or
    category to list): storable text (`app.core.text_input.text_problem`), else a usage error."""
    problem = text_problem(text)
    if problem is not None:
        raise argparse.ArgumentTypeError(f"the text {problem}")
    return text


def add_kind_options(parser: argparse.ArgumentParser, *, project: bool = False) -> None:
    """`--kind {user,project}` (user by default) and, with `project`, `--project P`: the options every
    reading and writing command shares for project memories."""
    parser.add_argument(
        "--kind", choices=KINDS, default="user", help="user memories (default) or the host's project memories"
    )
    if project:
        parser.add_argument(
            "--project",
            type=plain_text,
            metavar="P",
            help="with --kind project: a project, by its identity (git:…, dir:…) or its display name",
        )
