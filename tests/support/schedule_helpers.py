"""Helpers of the `schedule-sweep` tests: running the CLI, a stand-in `systemctl`, reading a unit's values
as systemd reads them."""

from __future__ import annotations

import os
import shlex
from pathlib import Path

import pytest

from app.cli import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def fake_systemctl(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A `systemctl` on PATH that logs its arguments, one call a line, and succeeds."""
    folder = tmp_path / "bin"
    folder.mkdir()
    log = tmp_path / "systemctl.log"
    script = folder / "systemctl"
    script.write_text(f'#!/bin/sh\necho "$@" >> {shlex.quote(str(log))}\n', encoding="utf-8")
    script.chmod(0o755)
    monkeypatch.setenv("PATH", f"{folder}{os.pathsep}{os.environ.get('PATH', '')}")
    return log


def unit_values(path: Path, key: str) -> list[str]:
    return [
        line.split("=", 1)[1]
        for line in path.read_text(encoding="utf-8").splitlines()
        if line.startswith(key + "=")
    ]


def systemd_words(value: str, *, variables: bool = True) -> list[str]:
    """The words systemd reads from one of our quoted values: shlex undoes the double quotes and the
    backslashes as systemd does, then `%%` (and in ExecStart=, `$$`) read as one character."""
    words = [word.replace("%%", "%") for word in shlex.split(value)]
    return [word.replace("$$", "$") for word in words] if variables else words


def service_command(service: Path) -> tuple[list[str], dict[str, str]]:
    """The installed service's command and the environment it adds, as systemd reads them."""
    argv = systemd_words(unit_values(service, "ExecStart")[0])
    environment = dict(
        systemd_words(item, variables=False)[0].split("=", 1) for item in unit_values(service, "Environment")
    )
    return argv, environment
