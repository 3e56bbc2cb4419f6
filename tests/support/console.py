"""Running the real `memory-dashboard` console script, as a person types it, on this checkout's code."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path

import app

CHECKOUT = Path(app.__file__).resolve().parent.parent


def console_script() -> Path:
    """The `memory-dashboard` script installed beside this Python (the virtual environment's)."""
    folder = Path(sys.executable).parent
    for name in ("memory-dashboard", "memory-dashboard.exe"):
        if (folder / name).exists():
            return folder / name
    raise FileNotFoundError(f"no memory-dashboard console script in {folder}; install the app (make run)")


def dashboard(
    *args: str,
    env: Mapping[str, str] | None = None,
    drop: tuple[str, ...] = (),
    stdin: str | None = None,
    cwd: Path | None = None,
) -> subprocess.CompletedProcess[str]:
    """`memory-dashboard ARGS` with this checkout first on the path; `env` adds, `drop` removes variables."""
    environment = {key: value for key, value in os.environ.items() if key not in drop}
    environment["PYTHONPATH"] = os.pathsep.join([str(CHECKOUT), environment.get("PYTHONPATH", "")])
    environment.update(env or {})
    return subprocess.run(
        [str(console_script()), *args],
        input=stdin,
        capture_output=True,
        text=True,
        env=environment,
        cwd=cwd,
        check=False,
        timeout=120,
    )
