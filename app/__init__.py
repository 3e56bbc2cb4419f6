"""Memory Dashboard: the product without a screen (storage, review, CLI). No Qt is imported here.

`__version__` is read from the installed package's metadata when first asked for (`importlib.metadata`
is not imported by a launch of the window before its first cards are painted).
"""

from __future__ import annotations

from typing import Any

FALLBACK_VERSION = "0.1.0"  # running from a source tree or a frozen build without metadata


def __getattr__(name: str) -> Any:
    if name != "__version__":
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from importlib.metadata import PackageNotFoundError, version

    try:
        found = version("memory-dashboard")
    except PackageNotFoundError:
        found = FALLBACK_VERSION
    globals()["__version__"] = found
    return found
