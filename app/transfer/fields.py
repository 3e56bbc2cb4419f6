"""Reading an export file's JSON objects: typed reads of each field, every failure naming the field's path
(`memories[3].revisions[0].changed_at`) and refusing the whole file (`ExportError`, nothing imported).

Shared by the user-memory part of the format (`export_format`) and its project-memory section
(`project_format`), so both check a type, a 64-bit whole number or a time the same way.
"""

from __future__ import annotations

from typing import Any

from app.core.clock import TIME_MAX, TIME_MIN
from app.core.errors import InvalidInputError
from app.core.incoming_checks import TIMES
from app.core.text_input import int64_problem


class ExportError(InvalidInputError):
    """The file is not an export this version can read; nothing was imported."""


class Fields:
    """Typed reads of one JSON object's fields, each error naming the field's path."""

    def __init__(self, data: object, path: str, consequence: str = "nothing was imported") -> None:
        if not isinstance(data, dict):
            raise ExportError(f"{path} is not an object; {consequence}")
        self.data: dict[str, Any] = data
        self.path = path
        self.consequence = consequence  # what a failure means, said after it

    def fail(self, key: str, what: str) -> ExportError:
        return ExportError(f"{self.path}.{key} {what}; {self.consequence}")

    def _value(self, key: str, optional: bool, accepted: type, what: str) -> Any:
        value = self.data.get(key)
        if value is None and optional:
            return None
        if not isinstance(value, accepted) or (accepted is int and isinstance(value, bool)):
            raise self.fail(key, what)
        return value

    def integer(self, key: str, *, optional: bool = False) -> Any:
        value = self._value(key, optional, int, "is not a whole number")
        if value is not None and int64_problem(value) is not None:
            raise self.fail(key, "does not fit 64 bits")
        return value

    def time(self, key: str, *, optional: bool = False) -> Any:
        value = self.integer(key, optional=optional)
        if value is not None and not TIME_MIN <= value <= TIME_MAX:
            raise self.fail(key, f"is {value}, not {TIMES}")
        return value

    def text(self, key: str, *, optional: bool = False) -> Any:
        return self._value(key, optional, str, "is not text")

    def items(self, key: str, *, optional: bool = False) -> list[Any] | None:
        found: list[Any] | None = self._value(key, optional, list, "is not a list")
        return found

    def ids(self, key: str) -> tuple[int, ...]:
        found = self.items(key) or []
        if any(not is_id(item) for item in found):
            raise self.fail(key, "holds something other than ids (positive 64-bit whole numbers)")
        return tuple(found)


def is_id(value: object) -> bool:
    """A candidate id as the host makes them: a positive whole number of 64 bits."""
    return type(value) is int and value > 0 and int64_problem(value) is None
