"""Names a package exports but imports only when first asked for (a module `__getattr__`, PEP 562).

`app.store` and `app.review` export their public names this way, so that importing one of their small
modules (an error, a filter, a model) does not import SQLAlchemy: a launch paints its first cards
before it loads. Type checkers see the names through the packages' `TYPE_CHECKING` imports.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Mapping
from typing import Any


def lazy_names(package: str, where: Mapping[str, str]) -> Callable[[str], Any]:
    """The `__getattr__` of `package`: each name of `where` imported from its module on first use."""

    def __getattr__(name: str) -> Any:
        module = where.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(module), name)
        setattr(sys.modules[package], name, value)  # asked once
        return value

    return __getattr__
