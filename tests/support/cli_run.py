"""Running the command line the way the hostile-input tests do: in process (usage errors as exit codes)
or in a real child process (arguments as bytes, resource limits), at a fixed instant."""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

import app
from ui.main import main

try:
    import resource
except ImportError:  # Windows: no resource limits
    resource = None  # type: ignore[assignment]

__all__ = ["NOW", "REPO", "child", "digest", "leftovers", "posix", "resource", "run", "tmpfs"]

NOW = "2026-10-21T03:13:32Z"
REPO = Path(app.__file__).resolve().parent.parent  # the tree under test, for the child processes
# Symbolic links, /dev, resource limits, permissions and arguments as bytes: what these tests use of POSIX.
posix = pytest.mark.skipif(sys.platform == "win32", reason="POSIX files, resource limits and byte arguments")


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """`main` in process; argparse's usage errors (exit 2) come back as codes too."""
    try:
        code = main(list(argv))
    except SystemExit as exc:
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def child(
    *argv: str | bytes, stdin: bytes | None = None, limits: dict[int, int] | None = None, timeout: float = 60
) -> subprocess.CompletedProcess[bytes]:
    """`python -m app ...` in a real process (arguments as bytes, resource limits applied in the child)."""

    def apply_limits() -> None:
        for which, value in (limits or {}).items():
            resource.setrlimit(which, (value, value))

    env = {**os.environ, "PYTHONPATH": str(REPO)}
    return subprocess.run(
        [sys.executable, "-m", "app", *argv],
        input=stdin,
        capture_output=True,
        env=env,
        timeout=timeout,
        preexec_fn=apply_limits if limits else None,
        check=False,
    )


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def leftovers(folder: Path) -> list[str]:
    return sorted(name for name in os.listdir(folder) if name.endswith(".tmp"))


def tmpfs(folder: Path, options: str, why_not: str) -> Iterator[Path]:
    """`folder` with a real tmpfs mounted on it while the test runs (root only), else the test skips."""
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", options, "tmpfs", str(folder)], capture_output=True, check=False
    )
    if mounted.returncode != 0:
        pytest.skip(f"{why_not}: {mounted.stderr.decode().strip()}")
    try:
        yield folder
    finally:
        subprocess.run(["umount", str(folder)], check=False)
