"""Before the window opens: is there a display, and does Qt's X11 platform have its libraries? (No Qt here.)

On Linux Qt draws through its `xcb` platform plugin, which links against X11 libraries a fresh desktop may
lack (`libxcb-icccm4`, `libxcb-keysyms1`, ...); Qt's own message then names the wrong library. So the
plugin in the installed PySide6 is loaded first, as Qt would load it (the work is not lost: Qt finds it
loaded); if that fails, `ldd` lists every library missing, and each becomes the exact `apt-get install`
line (with the dnf and pacman names). With no display at all (no `DISPLAY` nor
`WAYLAND_DISPLAY`) the window would open offscreen, invisible, and never exit: that is a message too.
Offscreen only when asked: `--offscreen` or `QT_QPA_PLATFORM` (and `--smoke`, which exits by itself).
"""

from __future__ import annotations

import importlib.util
import os
import sys
from collections.abc import Mapping, MutableMapping, Sequence
from pathlib import Path

from app.core.errors import EXIT_ERROR, StoreError

PLATFORM_ENV = "QT_QPA_PLATFORM"
# The library Qt's xcb plugin (or a library it loads) links against, and the packages holding it:
# (Debian/Ubuntu apt, Fedora dnf, Arch pacman).
PACKAGES: Mapping[str, tuple[str, str, str]] = {
    "libxcb-cursor.so.0": ("libxcb-cursor0", "xcb-util-cursor", "xcb-util-cursor"),
    "libxcb-icccm.so.4": ("libxcb-icccm4", "xcb-util-wm", "xcb-util-wm"),
    "libxcb-keysyms.so.1": ("libxcb-keysyms1", "xcb-util-keysyms", "xcb-util-keysyms"),
    "libxcb-image.so.0": ("libxcb-image0", "xcb-util-image", "xcb-util-image"),
    "libxcb-render-util.so.0": ("libxcb-render-util0", "xcb-util-renderutil", "xcb-util-renderutil"),
    "libxcb-util.so.1": ("libxcb-util1", "xcb-util", "xcb-util"),
    "libxcb-shape.so.0": ("libxcb-shape0", "libxcb", "libxcb"),
    "libxcb-randr.so.0": ("libxcb-randr0", "libxcb", "libxcb"),
    "libxcb-render.so.0": ("libxcb-render0", "libxcb", "libxcb"),
    "libxcb-shm.so.0": ("libxcb-shm0", "libxcb", "libxcb"),
    "libxcb-sync.so.1": ("libxcb-sync1", "libxcb", "libxcb"),
    "libxcb-xfixes.so.0": ("libxcb-xfixes0", "libxcb", "libxcb"),
    "libxcb-xinerama.so.0": ("libxcb-xinerama0", "libxcb", "libxcb"),
    "libxcb-xinput.so.0": ("libxcb-xinput0", "libxcb", "libxcb"),
    "libxcb-xkb.so.1": ("libxcb-xkb1", "libxcb", "libxcb"),
    "libxcb.so.1": ("libxcb1", "libxcb", "libxcb"),
    "libX11-xcb.so.1": ("libx11-xcb1", "libX11-xcb", "libx11"),
    "libX11.so.6": ("libx11-6", "libX11", "libx11"),
    "libxkbcommon-x11.so.0": ("libxkbcommon-x11-0", "libxkbcommon-x11", "libxkbcommon-x11"),
    "libxkbcommon.so.0": ("libxkbcommon0", "libxkbcommon", "libxkbcommon"),
    "libSM.so.6": ("libsm6", "libSM", "libsm"),
    "libICE.so.6": ("libice6", "libICE", "libice"),
    "libEGL.so.1": ("libegl1", "libglvnd-egl", "libglvnd"),
    "libGL.so.1": ("libgl1", "libglvnd-glx", "libglvnd"),
    "libOpenGL.so.0": ("libopengl0", "libglvnd-opengl", "libglvnd"),
    "libfontconfig.so.1": ("libfontconfig1", "fontconfig", "fontconfig"),
    "libfreetype.so.6": ("libfreetype6", "freetype", "freetype2"),
    "libdbus-1.so.3": ("libdbus-1-3", "dbus-libs", "dbus"),
    "libglib-2.0.so.0": ("libglib2.0-0", "glib2", "glib2"),
}
NO_DISPLAY = (
    "there is no display to open the window on (neither DISPLAY nor WAYLAND_DISPLAY is set).\n"
    "  Run it from a desktop session's terminal; over SSH, connect with `ssh -X` (X forwarding);\n"
    "  on a server, start it under a virtual display: `xvfb-run memory-dashboard` (apt-get install xvfb).\n"
    "  Without a window: `--offscreen` (or QT_QPA_PLATFORM=offscreen) renders invisibly, and\n"
    "  `memory-dashboard screenshot OUT.png` writes the window to an image; every other command needs none."
)


class DisplayError(StoreError):
    """The window cannot open here: no display, or libraries Qt needs are missing."""

    exit_code = EXIT_ERROR


def xcb_plugin() -> Path | None:
    """Qt's xcb platform plugin inside the installed PySide6 (found without importing Qt)."""
    spec = importlib.util.find_spec("PySide6")
    folders = (spec.submodule_search_locations or []) if spec is not None else []
    for folder in folders:
        for plugins in (Path(folder) / "Qt" / "plugins", Path(folder) / "plugins"):
            plugin = plugins / "platforms" / "libqxcb.so"
            if plugin.is_file():
                return plugin
    return None


def missing_libraries(ldd_output: str) -> list[str]:
    """The `NAME => not found` libraries of `ldd`'s output, each once, in its order."""
    found = []
    for line in ldd_output.splitlines():
        name, arrow, where = line.strip().partition("=>")
        if arrow and where.strip() == "not found":
            found.append(name.strip())
    return list(dict.fromkeys(found))


def _ldd(plugin: Path) -> str:
    import shutil
    import subprocess  # only when the plugin does not load

    ldd = shutil.which("ldd")
    if ldd is None:
        return ""
    try:
        done = subprocess.run([ldd, str(plugin)], capture_output=True, text=True, timeout=20, check=False)
    except (OSError, subprocess.SubprocessError):
        return ""  # no check possible: Qt's own message follows if something is missing
    return done.stdout


def plugin_problem(plugin: Path) -> str | None:
    """None when the plugin loads; else the advice: the libraries `ldd` finds missing, or the loader's
    own message when it names none."""
    import ctypes  # only when a display is about to be used

    try:
        ctypes.CDLL(str(plugin), mode=os.RTLD_LAZY)
    except OSError as exc:
        missing = missing_libraries(_ldd(plugin))
        if missing:
            return install_advice(missing)
        return f"the window cannot open: Qt's X11 (xcb) platform plugin {plugin} does not load ({exc})."
    return None


def install_advice(libraries: Sequence[str]) -> str:
    """The message for missing libraries: the exact `apt-get install` line, dnf and pacman names too."""
    known = [PACKAGES[name] for name in libraries if name in PACKAGES]
    unknown = [name for name in libraries if name not in PACKAGES]
    lines = [f"the window cannot open: Qt's X11 (xcb) platform needs {', '.join(libraries)}, missing here."]
    if known:
        apt, dnf, pacman = (sorted(dict.fromkeys(package[i] for package in known)) for i in range(3))
        lines += [
            "  Install with (Debian, Ubuntu):",
            f"    sudo apt-get install {' '.join(apt)}",
            f"  Fedora: sudo dnf install {' '.join(dnf)}",
            f"  Arch: sudo pacman -S {' '.join(pacman)}",
        ]
    if unknown:
        lines.append(f"  Install the package that provides {', '.join(unknown)} with your package manager.")
    lines.append("  Or run without a window: --offscreen, or `memory-dashboard screenshot OUT.png`.")
    return "\n".join(lines)


def display_problem(
    env: Mapping[str, str], *, offscreen: bool, smoke: bool = False, platform: str = sys.platform
) -> str | None:
    """Why the window cannot open here, or None. Offscreen (asked for) and a platform Qt was told to use
    are never second-guessed; `--smoke` without a display runs offscreen (it exits by itself)."""
    if offscreen or env.get(PLATFORM_ENV) or not platform.startswith("linux"):
        return None
    if not env.get("DISPLAY") and not env.get("WAYLAND_DISPLAY"):
        return None if smoke else NO_DISPLAY
    if env.get("WAYLAND_DISPLAY"):
        return None  # Qt draws through its wayland plugin, which the xcb libraries do not concern
    plugin = xcb_plugin()
    return plugin_problem(plugin) if plugin is not None else None


def require_display(
    *, offscreen: bool, smoke: bool = False, env: MutableMapping[str, str] | None = None
) -> None:
    """Raise DisplayError (exit 1) when the window cannot open; `--offscreen` sets QT_QPA_PLATFORM for Qt."""
    environment = os.environ if env is None else env
    problem = display_problem(environment, offscreen=offscreen, smoke=smoke)
    if problem is not None:
        raise DisplayError(problem)
    if offscreen:
        environment[PLATFORM_ENV] = "offscreen"
