"""First run on Linux, through the real console script: no display is a message and exit 1, not
an invisible window; missing xcb libraries are the exact `apt-get install` line; offscreen when asked."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.console import CHECKOUT, dashboard
from ui.runtime.display import (
    PACKAGES,
    display_problem,
    install_advice,
    missing_libraries,
    xcb_plugin,
)

NO_DISPLAY = ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")
linux_only = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Qt's xcb platform is Linux's")

LDD_OUTPUT = """\
\tlinux-vdso.so.1 (0x00007ffc)
\tlibQt6XcbQpa.so.6 => /venv/PySide6/Qt/lib/libQt6XcbQpa.so.6 (0x00007f3a)
\tlibxcb-icccm.so.4 => not found
\tlibxcb-keysyms.so.1 => not found
\tlibxcb-icccm.so.4 => not found
\tlibmystery.so.7 => not found
\tlibc.so.6 => /lib/x86_64-linux-gnu/libc.so.6 (0x00007f39)
"""


def fake_ldd(folder: Path, output: str) -> dict[str, str]:
    """A PATH whose `ldd` prints `output`, as on a desktop lacking those libraries."""
    folder.mkdir()
    script = folder / "ldd"
    script.write_text(f"#!/bin/sh\ncat <<'EOF'\n{output}EOF\n", encoding="utf-8")
    script.chmod(0o755)
    return {"PATH": f"{folder}:/usr/bin:/bin"}


@linux_only
def test_no_display_is_a_message_and_exit_1(host_db: Path) -> None:
    done = dashboard("--db", str(host_db), drop=NO_DISPLAY)
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr.startswith("error: there is no display")
    for advice in ("ssh -X", "xvfb-run memory-dashboard", "--offscreen", "screenshot OUT.png"):
        assert advice in done.stderr
    assert "Traceback" not in done.stderr


@linux_only
def test_a_database_it_cannot_use_is_said_before_the_missing_display(tmp_path: Path, host_db: Path) -> None:
    """As every command says it: the database's problem (exit 3), or the clock's (exit 1), comes first."""
    done = dashboard("--db", str(tmp_path / "missing.db"), drop=NO_DISPLAY)
    assert (done.returncode, done.stderr) == (3, f"error: {tmp_path / 'missing.db'} does not exist.\n")
    done = dashboard("--db", str(host_db), drop=NO_DISPLAY, env={"MEMORY_DASHBOARD_NOW": "garbage"})
    assert done.returncode == 1 and done.stderr.startswith("error: MEMORY_DASHBOARD_NOW: "), done.stderr


@linux_only
def test_offscreen_when_asked(host_db: Path) -> None:
    for args, env in ((["--offscreen"], {}), ([], {"QT_QPA_PLATFORM": "offscreen"})):
        done = dashboard("--db", str(host_db), *args, "--smoke", drop=NO_DISPLAY, env=env)
        assert done.returncode == 0, done.stderr
    # --smoke (packaging's check) exits by itself: without a display it runs offscreen, as before.
    assert dashboard("--db", str(host_db), "--smoke", drop=NO_DISPLAY).returncode == 0


def fake_pyside(folder: Path) -> Path:
    """A PySide6 whose xcb plugin cannot load (as on a desktop lacking its libraries): the check must stop
    the window before Qt is imported at all."""
    platforms = folder / "PySide6" / "Qt" / "plugins" / "platforms"
    platforms.mkdir(parents=True)
    (folder / "PySide6" / "__init__.py").write_text(
        "raise ImportError('Qt must not load')\n", encoding="utf-8"
    )
    (platforms / "libqxcb.so").write_bytes(b"not a shared object")
    return folder


@linux_only
def test_missing_xcb_libraries_give_the_install_line(host_db: Path, tmp_path: Path) -> None:
    pyside = fake_pyside(tmp_path / "site")
    env = {"DISPLAY": ":77", "PYTHONPATH": f"{CHECKOUT}:{pyside}", **fake_ldd(tmp_path / "bin", LDD_OUTPUT)}
    done = dashboard("--db", str(host_db), drop=NO_DISPLAY, env=env)
    assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr
    lines = [line.strip() for line in done.stderr.splitlines()]
    assert "libxcb-icccm.so.4, libxcb-keysyms.so.1, libmystery.so.7" in lines[0]
    assert "sudo apt-get install libxcb-icccm4 libxcb-keysyms1" in lines
    assert "Fedora: sudo dnf install xcb-util-keysyms xcb-util-wm" in lines
    assert "Arch: sudo pacman -S xcb-util-keysyms xcb-util-wm" in lines
    assert any("libmystery.so.7 with your package manager" in line for line in lines)
    # When ldd names nothing, the loader's own message is shown.
    silent = {**env, **fake_ldd(tmp_path / "quiet", "\tlibc.so.6 => /lib/libc.so.6 (0x1)\n")}
    done = dashboard("--db", str(host_db), drop=NO_DISPLAY, env=silent)
    assert done.returncode == 1 and "platform plugin" in done.stderr and "does not load" in done.stderr


@linux_only
def test_the_installed_qt_plugin_is_checked_as_qt_loads_it() -> None:
    plugin = xcb_plugin()
    if plugin is None:
        pytest.skip("this PySide6 has no xcb platform plugin")
    problem = display_problem({"DISPLAY": ":77"}, offscreen=False, platform="linux")
    assert problem is None or problem.startswith("the window cannot open: Qt's X11 (xcb) platform")


def test_ldd_output_and_the_advice() -> None:
    assert missing_libraries(LDD_OUTPUT) == ["libxcb-icccm.so.4", "libxcb-keysyms.so.1", "libmystery.so.7"]
    assert missing_libraries("\tlibc.so.6 => /lib/libc.so.6 (0x1)\n") == []
    advice = install_advice(["libxcb-cursor.so.0", "libxkbcommon-x11.so.0", "libxcb-shape.so.0"])
    assert "sudo apt-get install libxcb-cursor0 libxcb-shape0 libxkbcommon-x11-0" in advice


def test_a_display_or_a_chosen_platform_is_never_second_guessed() -> None:
    assert display_problem({}, offscreen=False, platform="linux") is not None
    assert display_problem({}, offscreen=True, platform="linux") is None
    assert display_problem({"QT_QPA_PLATFORM": "xcb"}, offscreen=False, platform="linux") is None
    assert display_problem({"WAYLAND_DISPLAY": "wayland-0"}, offscreen=False, platform="linux") is None
    assert display_problem({}, offscreen=False, smoke=True, platform="linux") is None
    for platform in ("darwin", "win32"):
        assert display_problem({}, offscreen=False, platform=platform) is None


def test_the_readme_set_up_lists_the_libraries() -> None:
    readme = (CHECKOUT / "README.md").read_text(encoding="utf-8")
    set_up = readme.split("## Set up and run", 1)[1].split("\n## ", 1)[0]
    for library in (
        "libxcb-icccm.so.4",
        "libxcb-keysyms.so.1",
        "libxcb-cursor.so.0",
        "libxkbcommon-x11.so.0",
    ):
        apt, dnf, pacman = PACKAGES[library]
        assert apt in set_up and dnf in set_up and pacman in set_up, library
    assert "--offscreen" in set_up and "xvfb-run" in set_up


@linux_only
def test_a_plugin_that_loads_is_no_problem_and_qt_starts_after_the_check() -> None:
    """The check loads the plugin as Qt will (here the offscreen one, whose libraries are present):
    no problem reported, and Qt then starts in the same process."""
    plugin = xcb_plugin()
    if plugin is None:
        pytest.skip("this PySide6 has no platform plugins folder")
    offscreen = plugin.parent / "libqoffscreen.so"
    code = (
        "import sys\n"
        "from pathlib import Path\n"
        "from ui.runtime.display import plugin_problem\n"
        "assert plugin_problem(Path(sys.argv[1])) is None\n"
        "from PySide6.QtWidgets import QApplication\n"
        "app = QApplication([])\n"
        "print(app.platformName())\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, str(offscreen)],
        env={**os.environ, "PYTHONPATH": str(CHECKOUT), "QT_QPA_PLATFORM": "offscreen"},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0 and done.stdout.strip() == "offscreen", done.stderr
