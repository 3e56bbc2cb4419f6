"""The installers offer the sweep: `install.sh --with-sweep` installs the job through the installed
executable, a plain install says how, `--uninstall` removes the job; the Windows setup has it as a task."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.test_packaging import PACKAGING, fake_unpacked_build


def logging_executable(folder: Path, log: Path) -> None:
    """The frozen executable's stand-in: it logs its arguments, and `--every` writes the timer as the
    real one would, so `--uninstall` finds it."""
    exe = folder / "memory-dashboard"
    exe.write_text(
        "#!/bin/sh\n"
        f'echo "$@" >> "{log}"\n'
        'if [ "$2" = --every ]; then d="${XDG_CONFIG_HOME:-$HOME/.config}/systemd/user"; mkdir -p "$d";'
        ' touch "$d/memory-dashboard-sweep.timer"; fi\n',
        encoding="utf-8",
    )
    exe.chmod(0o755)


@pytest.mark.skipif(sys.platform == "win32" or shutil.which("sh") is None, reason="POSIX shell script")
def test_install_sh_offers_installs_and_removes_the_sweep(tmp_path: Path) -> None:
    unpacked = fake_unpacked_build(tmp_path / "memory-dashboard-9.9.9")
    log = tmp_path / "calls.log"
    logging_executable(unpacked, log)
    home = tmp_path / "home"
    env = {k: v for k, v in os.environ.items() if k not in ("XDG_DATA_HOME", "XDG_CONFIG_HOME")}
    env["HOME"] = str(home)
    script = str(unpacked / "install.sh")
    plain = subprocess.run(["sh", script], env=env, check=True, capture_output=True, text=True)
    assert "memory-dashboard schedule-sweep --every 15m" in plain.stdout and not log.exists()
    subprocess.run(["sh", script, "--with-sweep"], env=env, check=True, capture_output=True)
    assert log.read_text(encoding="utf-8").splitlines() == ["schedule-sweep --every 15m"]
    subprocess.run(["sh", script, "--uninstall"], env=env, check=True, capture_output=True)
    assert log.read_text(encoding="utf-8").splitlines()[-1] == "schedule-sweep --off"
    assert not (home / ".local" / "opt" / "memory-dashboard").exists()


def test_the_windows_setup_offers_the_sweep_and_its_uninstaller_removes_it() -> None:
    script = (PACKAGING / "windows" / "memory-dashboard.iss").read_text(encoding="utf-8")
    assert 'Name: "sweep"; Description: "Dismiss expired memories every 15 minutes' in script
    assert (
        'Parameters: "schedule-sweep --every 15m"; Flags: runhidden waituntilterminated; Tasks: sweep'
        in script
    )
    assert "[UninstallRun]" in script and 'Parameters: "schedule-sweep --off"' in script
