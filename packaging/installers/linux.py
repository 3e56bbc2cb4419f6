"""Linux: a tarball of the one-folder build with install.sh, and an AppImage when appimagetool exists.

The tarball unpacks to `memory-dashboard-<version>/`: the executable and _internal/ (runs in place; a
`portable.txt` beside the executable makes it portable), `install.sh` (per-user install into ~/.local, with
a menu entry and icons; `--uninstall` removes them) and `share/` (the .desktop entry and hicolor icons
that install.sh copies).
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from buildkit import PACKAGING, BuildInfo, machine_arch, run

from installers.archive import make_tar_gz

ICON_SIZES = (16, 24, 32, 48, 64, 128, 256, 512)
APPIMAGE_ARCH = {"x86_64": "x86_64", "aarch64": "aarch64", "arm64": "aarch64"}


def copy_share(info: BuildInfo, share: Path) -> None:
    """The desktop entry and the icon theme files, laid out as under /usr/share."""
    applications = share / "applications"
    applications.mkdir(parents=True, exist_ok=True)
    desktop = info.root / "resources" / f"{info.name}.desktop"
    shutil.copy2(desktop, applications / desktop.name)
    for size in ICON_SIZES:
        target = share / "icons" / "hicolor" / f"{size}x{size}" / "apps"
        target.mkdir(parents=True, exist_ok=True)
        shutil.copy2(info.icons_dir / "png" / f"{info.name}-{size}.png", target / f"{info.name}.png")
    scalable = share / "icons" / "hicolor" / "scalable" / "apps"
    scalable.mkdir(parents=True, exist_ok=True)
    shutil.copy2(info.root / "resources" / "icons" / f"{info.name}.svg", scalable / f"{info.name}.svg")


def stage_tarball(info: BuildInfo) -> Path:
    stage = info.build_dir / "linux" / f"{info.name}-{info.version}"
    shutil.rmtree(stage, ignore_errors=True)
    shutil.copytree(info.frozen_dir, stage, symlinks=True)
    shutil.copy2(PACKAGING / "linux" / "install.sh", stage / "install.sh")
    (stage / "install.sh").chmod(0o755)
    shutil.copy2(PACKAGING / "linux" / "README.txt", stage / "README.txt")
    copy_share(info, stage / "share")
    return stage


def make_appimage(info: BuildInfo) -> Path | None:
    tool = shutil.which("appimagetool")
    if tool is None:
        print("appimagetool is not on PATH: skipping the AppImage (the tarball is complete without it)")
        return None
    appdir = info.build_dir / "linux" / "AppDir"
    shutil.rmtree(appdir, ignore_errors=True)
    shutil.copytree(info.frozen_dir, appdir / "usr" / "lib" / info.name, symlinks=True)
    copy_share(info, appdir / "usr" / "share")
    shutil.copy2(info.root / "resources" / f"{info.name}.desktop", appdir / f"{info.name}.desktop")
    shutil.copy2(info.icons_dir / "png" / f"{info.name}-256.png", appdir / f"{info.name}.png")
    (appdir / ".DirIcon").symlink_to(f"{info.name}.png")
    apprun = appdir / "AppRun"
    shutil.copy2(PACKAGING / "linux" / "AppRun", apprun)
    apprun.chmod(0o755)
    target = info.release_dir / f"{info.artifact_stem('linux')}.AppImage"
    arch = APPIMAGE_ARCH.get(machine_arch(), machine_arch())
    env = {**os.environ, "ARCH": arch, "VERSION": info.version}
    run([tool, appdir, target], what="appimagetool", env=env)
    return target


def make(info: BuildInfo) -> list[Path]:
    stage = stage_tarball(info)
    tarball = info.release_dir / f"{info.artifact_stem('linux')}.tar.gz"
    artifacts = [make_tar_gz(stage, tarball, stage.name)]
    appimage = make_appimage(info)
    if appimage is not None:
        artifacts.append(appimage)
    return artifacts
