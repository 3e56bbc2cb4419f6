"""Qt overrides that never raise: one odd row must not take the window down with it.

An exception escaping a Python override that Qt calls (a delegate's `paint` or `sizeHint`, a model's
`data`) is printed by PySide and Qt carries on with a garbage result; inside a paint it can leave the
painter in a state that crashes the process a moment later (a host row with a timestamp of 2^63−1 did).
`never_raises` catches at that boundary, logs each failure once per place and error type (a row painted
60 times a second must not flood the log), and answers with a fallback instead.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable
from typing import ParamSpec, TypeVar, cast

P = ParamSpec("P")
R = TypeVar("R")

log = logging.getLogger("memory_dashboard.ui")
_reported: set[tuple[str, str]] = set()


def report_once(where: str, error: BaseException) -> None:
    """Log `error` with its traceback the first time `where` fails with an error of its type."""
    key = (where, type(error).__name__)
    if key in _reported:
        return
    _reported.add(key)
    log.error("%s failed (shown as unreadable instead): %s", where, error, exc_info=error)


def never_raises(fallback: Callable[P, R]) -> Callable[[Callable[P, R]], Callable[P, R]]:
    """Decorate a Qt override: when it raises, `fallback` (called with the same arguments) answers.

    A fallback that raises as well is logged too and answers None: nothing escapes to Qt.
    """

    def decorate(method: Callable[P, R]) -> Callable[P, R]:
        where = method.__qualname__

        @functools.wraps(method)
        def guarded(*args: P.args, **kwargs: P.kwargs) -> R:
            try:
                return method(*args, **kwargs)
            except Exception as error:
                report_once(where, error)
            try:
                return fallback(*args, **kwargs)
            except Exception as error:
                report_once(f"{where} (fallback)", error)
                return cast(R, None)

        return guarded

    return decorate


def answer(value: R) -> Callable[..., R]:
    """A fallback that ignores its arguments and answers `value` (None for a model's `data`)."""
    return lambda *_args, **_kwargs: value


__all__ = ["answer", "never_raises", "report_once"]
