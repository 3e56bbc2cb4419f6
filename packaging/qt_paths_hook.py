"""Runtime hook of the frozen app, run in place of PyInstaller's own for PySide6 (`pyi_rth_pyside6`,
dropped by the spec): where Qt finds its plugins, set before the entry script runs.

PyInstaller's hook also imports `PySide6.QtCore`, to register a `qt.conf` that the PyPI wheels' QtCore
registers by itself when imported. Run before the entry script, that import put PySide6's ~40 ms ahead of
the launch's fork (`ui.runtime.first_screen.read_aside`), and its import hook on every import after it,
the child's included: the first frame's reads ended ~60 ms later. Here nothing is imported beyond `os`
and `sys`.
"""

import os
import sys


def _qt_paths() -> None:
    base = getattr(sys, "_MEIPASS", os.path.dirname(sys.executable))
    windows = sys.platform.startswith("win")
    qt = os.path.join(base, "PySide6") if windows else os.path.join(base, "PySide6", "Qt")
    os.environ["QT_PLUGIN_PATH"] = os.path.join(qt, "plugins")
    if windows:  # as PyInstaller's hook does: DLLs collected beside the executable are found
        os.environ["PATH"] = os.pathsep.join(filter(None, [base, os.environ.get("PATH")]))


_qt_paths()
