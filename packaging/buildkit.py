"""Shared pieces of the build: what is being built (name, version, folders) and how a step runs a command.

Used by build.py, smoke.py and the per-OS installer modules; nothing here knows about one OS in particular.
"""

from __future__ import annotations

import os
import platform
import subprocess
import sys
import tomllib
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGING = ROOT / "packaging"
TITLE = "Memory Dashboard"  # the name a person sees (menus, .app, Start menu)


class BuildError(Exception):
    """A build step failed; the message says which and why (no traceback is shown for it)."""


@dataclass(frozen=True, slots=True)
class BuildInfo:
    name: str  # memory-dashboard: executable, folder, icon and desktop-entry name
    version: str
    root: Path

    @classmethod
    def from_pyproject(cls, root: Path = ROOT) -> BuildInfo:
        project = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))["project"]
        return cls(name=str(project["name"]), version=str(project["version"]), root=root)

    @property
    def dist_dir(self) -> Path:
        return self.root / "dist"

    @property
    def build_dir(self) -> Path:
        return self.root / "build"

    @property
    def icons_dir(self) -> Path:
        return self.build_dir / "icons"

    @property
    def frozen_dir(self) -> Path:
        """PyInstaller's one-folder output: the executable(s) and _internal/."""
        return self.dist_dir / self.name

    @property
    def release_dir(self) -> Path:
        """Where the installers go: the files a release publishes."""
        return self.dist_dir / "release"

    @property
    def app_bundle(self) -> Path:
        return self.dist_dir / f"{TITLE}.app"

    @property
    def executable(self) -> Path:
        """The frozen command-line executable (the console one on Windows, inside the .app on macOS)."""
        if sys.platform == "darwin":
            return self.app_bundle / "Contents" / "MacOS" / self.name
        suffix = ".exe" if sys.platform == "win32" else ""
        return self.frozen_dir / f"{self.name}{suffix}"

    def artifact_stem(self, os_name: str) -> str:
        return f"{self.name}-{self.version}-{os_name}-{machine_arch()}"


def machine_arch() -> str:
    machine = platform.machine().lower()
    return {"amd64": "x86_64", "x64": "x86_64"}.get(machine, machine)


def step(title: str) -> None:
    print(f"\n==> {title}", flush=True)


def run(
    command: Sequence[str | Path],
    *,
    what: str,
    env: Mapping[str, str] | None = None,
    cwd: Path = ROOT,
    timeout: float | None = None,
    ok_codes: Collection[int] = (0,),
    redact: Collection[str] = (),
) -> int:
    """Run `command`, streaming its output; raise BuildError naming `what` unless it exits with one of
    `ok_codes`. Returns the exit code. Values in `redact` (passwords) are not echoed."""
    args = [str(part) for part in command]
    shown = " ".join(args)
    for value in redact:
        shown = shown.replace(value, "***")
    print("$ " + shown, flush=True)
    try:
        completed = subprocess.run(args, cwd=cwd, env=dict(env) if env is not None else None, timeout=timeout)
    except FileNotFoundError as exc:
        raise BuildError(f"{what}: {args[0]} not found") from exc
    except subprocess.TimeoutExpired as exc:
        raise BuildError(f"{what}: no result after {timeout:.0f} s") from exc
    if completed.returncode not in ok_codes:
        raise BuildError(f"{what} failed (exit code {completed.returncode})")
    return completed.returncode


def secret(name: str) -> str | None:
    """An environment variable holding a signing secret, or None when unset or empty."""
    value = os.environ.get(name, "").strip()
    return value or None
