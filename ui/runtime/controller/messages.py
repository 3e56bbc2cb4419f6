"""The words the controller hands the window for what went wrong: an error (`describe_error`), and a
refusal followed by what it meant (`refused_saying`: "…; nothing was changed." not said twice)."""

from __future__ import annotations

import sys
import traceback

from app.core.errors import StoreError, is_sqlalchemy_error


def describe_error(exc: BaseException) -> str:
    """A message fit for the person; unexpected exceptions also go to stderr with their traceback."""
    if isinstance(exc, StoreError):
        return exc.message
    if is_sqlalchemy_error(exc):
        original = getattr(exc, "orig", None)
        return f"The database failed: {original or exc}"
    traceback.print_exception(exc, file=sys.stderr)
    return f"Unexpected error: {exc}"


def refused_saying(reason: str, outcome: str) -> str:
    """`reason` (why a write is refused, as said elsewhere: a refusal's own words often end "nothing was
    changed.") then `outcome` ("Nothing was changed."), one sentence after the other, never said twice."""
    said = reason.rstrip().rstrip(".")
    if said.lower().endswith(outcome.rstrip(".").lower()):
        return f"{said}."
    return f"{said}. {outcome}"
