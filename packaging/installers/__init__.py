"""Per-OS installers made from the frozen one-folder build; one small module per OS.

`make_installers(info)` picks the module for the OS the build runs on and returns the files it wrote
into dist/release/.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

from buildkit import BuildInfo, step


def make_installers(info: BuildInfo) -> list[Path]:
    shutil.rmtree(info.release_dir, ignore_errors=True)
    info.release_dir.mkdir(parents=True)
    step(f"installers for {sys.platform} into {info.release_dir}")
    if sys.platform == "win32":
        from installers import windows

        return windows.make(info)
    if sys.platform == "darwin":
        from installers import macos

        return macos.make(info)
    from installers import linux

    return linux.make(info)
