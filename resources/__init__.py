"""The app's bundled files (icons, desktop entry), read through importlib.resources.

Reading through this package works the same from a source tree, an installed wheel and a PyInstaller
build, where these files sit in the bundle beside the frozen modules. Names are '/'-separated paths
relative to this folder, e.g. `read_bytes("icons/memory-dashboard-256.png")`.
"""

from __future__ import annotations

from importlib.resources import files
from importlib.resources.abc import Traversable

APP_ICON_PNG = "icons/memory-dashboard-256.png"
APP_ICON_SVG = "icons/memory-dashboard.svg"
DESKTOP_ENTRY = "memory-dashboard.desktop"


def resource_path(name: str) -> Traversable:
    """The bundled file `name` ('/'-separated, relative to this package)."""
    node = files(__name__)
    for part in name.split("/"):
        node = node.joinpath(part)
    return node


def read_bytes(name: str) -> bytes:
    """The contents of the bundled file `name`; FileNotFoundError when it is not bundled."""
    return resource_path(name).read_bytes()
