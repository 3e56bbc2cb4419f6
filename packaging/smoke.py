"""Smoke run of the frozen app: `--version`, `--smoke` and `--demo screenshot OUT.png`, offscreen.

Each run gets a fresh temporary data folder and XDG folders, so it never finds or touches a real
database of the person building. All checks run; the build fails afterwards if any of them failed.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from buildkit import BuildError, BuildInfo, step

TIMEOUT_S = 180
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


@dataclass(frozen=True, slots=True)
class Outcome:
    label: str
    ok: bool
    detail: str


def isolated_env(scratch: Path) -> dict[str, str]:
    env = {key: value for key, value in os.environ.items() if not key.startswith("MEMORY_DASHBOARD_")}
    env.update(
        QT_QPA_PLATFORM="offscreen",
        MEMORY_DASHBOARD_DATA_DIR=str(scratch / "data"),
        XDG_DATA_HOME=str(scratch / "xdg-data"),  # where the host's context.db would be looked for
        XDG_CONFIG_HOME=str(scratch / "xdg-config"),
        XDG_CACHE_HOME=str(scratch / "xdg-cache"),
    )
    return env


def launch(executable: Path, args: Sequence[str], env: dict[str, str]) -> tuple[int, str]:
    """Exit code and combined output (a timeout or a missing file reads as exit code -1)."""
    try:
        done = subprocess.run(
            [str(executable), *args], env=env, capture_output=True, text=True, timeout=TIMEOUT_S
        )
    except subprocess.TimeoutExpired:
        return -1, f"no exit after {TIMEOUT_S} s"
    except OSError as exc:
        return -1, str(exc)
    return done.returncode, (done.stdout or "") + (done.stderr or "")


def check_version(executable: Path, env: dict[str, str], version: str) -> Outcome:
    code, output = launch(executable, ["--version"], env)
    ok = code == 0 and version in output
    return Outcome("--version", ok, output if not ok else output.strip())


def check_smoke(executable: Path, env: dict[str, str]) -> Outcome:
    code, output = launch(executable, ["--smoke"], env)
    return Outcome(f"{executable.name} --smoke", code == 0, output if code else "window painted, exit 0")


def check_screenshot(executable: Path, env: dict[str, str], out: Path) -> Outcome:
    out.unlink(missing_ok=True)
    code, output = launch(executable, ["--demo", "screenshot", str(out)], env)
    written = out.is_file() and out.read_bytes()[:8] == PNG_MAGIC
    if code == 0 and written:
        return Outcome("--demo screenshot", True, f"{out} ({out.stat().st_size} bytes)")
    return Outcome("--demo screenshot", False, output + ("" if written else f"\nno PNG written at {out}"))


def starts_at_all(executable: Path, env: dict[str, str]) -> str:
    """After a failure: does the binary start and parse arguments (`--help`)? Tells a bad freeze from
    a missing option."""
    code, output = launch(executable, ["--help"], env)
    if code == 0:
        return (
            "the frozen binary starts (--help exits 0): the failing options are missing or broken "
            "in app/ or ui/ (ui.main, ui.cli_hooks)"
        )
    return f"the frozen binary does not start (--help exit {code}):\n{tail(output)}"


def tail(text: str, lines: int = 25) -> str:
    return "\n".join(text.rstrip().splitlines()[-lines:])


def gui_executables(info: BuildInfo) -> list[Path]:
    """The executables that open the window: on Windows the windowed one too."""
    found = [info.executable]
    if sys.platform == "win32":
        found.append(info.frozen_dir / "Memory Dashboard.exe")
    return found


def run_smoke(info: BuildInfo) -> None:
    step(f"smoke run of {info.executable}")
    with tempfile.TemporaryDirectory(prefix="mdash-smoke-") as tmp:
        env = isolated_env(Path(tmp))
        screenshot = info.build_dir / "smoke" / "screenshot.png"
        screenshot.parent.mkdir(parents=True, exist_ok=True)
        outcomes = [check_version(info.executable, env, info.version)]
        outcomes += [check_smoke(executable, env) for executable in gui_executables(info)]
        outcomes.append(check_screenshot(info.executable, env, screenshot))
        for outcome in outcomes:
            print(f"  {'ok  ' if outcome.ok else 'FAIL'} {outcome.label}: {tail(outcome.detail, 1)}")
        failed = [outcome for outcome in outcomes if not outcome.ok]
        if failed:
            details = "\n\n".join(f"--- {outcome.label}:\n{tail(outcome.detail)}" for outcome in failed)
            print(details)
            labels = ", ".join(outcome.label for outcome in failed)
            raise BuildError(f"smoke run failed ({labels}); {starts_at_all(info.executable, env)}")
