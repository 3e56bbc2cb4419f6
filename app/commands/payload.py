"""Reading a command's payload back from the log, strictly.

The log holds JSON this app wrote, but the database file is shared: anyone may have edited a row. Every
value is checked for its type here, and a payload that is not what its kind writes is refused with a
message (`PayloadError`, an `InvalidInputError`): an undo never acts on a guess.
"""

from __future__ import annotations

from typing import Any

from app.core.errors import InvalidInputError
from app.core.text_input import int64_problem, strict_json_loads, text_problem

MAX_PAYLOAD_CHARS = 64_000_000  # a bulk change of 100,000 memories, with their texts, fits


class PayloadError(InvalidInputError):
    """A log entry whose payload is not what its kind writes."""


def parse_payload(text: object, entry: str) -> dict[str, Any]:
    """The payload of log entry `entry` ("#12"), a JSON object, or `PayloadError`."""
    if not isinstance(text, str) or len(text) > MAX_PAYLOAD_CHARS:
        raise PayloadError(f"command log entry {entry} holds no readable payload; nothing was changed")
    try:
        data = strict_json_loads(text)
    except ValueError as exc:  # bad syntax, a repeated key, too deep
        raise PayloadError(
            f"command log entry {entry} holds malformed JSON ({exc}); nothing was changed"
        ) from exc
    return as_dict(data, f"entry {entry}")


def as_dict(value: object, where: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise PayloadError(f"{where} is not an object")
    return value


def as_list(value: object, where: str) -> list[Any]:
    if not isinstance(value, list):
        raise PayloadError(f"{where} is not a list")
    return value


def as_int(value: object, where: str) -> int:
    if type(value) is not int or int64_problem(value) is not None:
        raise PayloadError(f"{where} is not a 64-bit integer")
    return value


def as_opt_int(value: object, where: str) -> int | None:
    return None if value is None else as_int(value, where)


def as_str(value: object, where: str) -> str:
    if not isinstance(value, str):
        raise PayloadError(f"{where} is not text")
    problem = text_problem(value)
    if problem is not None:
        raise PayloadError(f"{where} {problem}")
    return value


def as_opt_str(value: object, where: str) -> str | None:
    return None if value is None else as_str(value, where)


def as_ids(value: object, where: str) -> list[int]:
    return [as_int(item, f"{where}[{index}]") for index, item in enumerate(as_list(value, where))]


def exact_keys(data: dict[str, Any], keys: set[str], where: str) -> None:
    if set(data) != keys:
        raise PayloadError(f"{where} must hold exactly {', '.join(sorted(keys))}")
