"""The launch loads nothing of the project memories but their picker: the window's module, imported in a
fresh process, brings no project page, no project store module and no SQLAlchemy with it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
PROBE = """
import sys
import ui.window.main_window
loaded = sorted(m for m in sys.modules if m.startswith(("ui.project", "app.store.project", "sqlalchemy")))
print(" ".join(loaded))
"""


def test_the_window_module_imports_only_the_picker_of_the_projects() -> None:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-c", PROBE], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["ui.project", "ui.project.picker"]
