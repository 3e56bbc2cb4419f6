"""The app's bundled files (icons, desktop entry), read through this package's own loader.

Reading through this package works the same from a source tree, an installed wheel and a PyInstaller
build, where these files sit in the bundle beside the frozen modules: the loader that imported this
package reads them (`loader.get_data`, as `pkgutil.get_data` does), so the window's first paint does
not wait for `importlib.resources` and what it imports. Names are '/'-separated paths relative to this
folder, e.g. `read_bytes("icons/memory-dashboard-256.png")`.
"""

from __future__ import annotations

import os

APP_ICON_PNG = "icons/memory-dashboard-256.png"
APP_ICON_SVG = "icons/memory-dashboard.svg"
DESKTOP_ENTRY = "memory-dashboard.desktop"


def read_bytes(name: str) -> bytes:
    """The contents of the bundled file `name`; an OSError (FileNotFoundError from a plain or frozen
    install) when it is not bundled."""
    loader = __spec__.loader if __spec__ is not None else None
    get_data = getattr(loader, "get_data", None)
    path = os.path.join(os.path.dirname(__file__), *name.split("/"))
    if get_data is None:  # a loader that cannot read files beside the module
        raise FileNotFoundError(path)
    data = get_data(path)
    if not isinstance(data, bytes):
        raise FileNotFoundError(path)
    return data
