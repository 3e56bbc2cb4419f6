"""Archives of the one-folder build (tar.gz for Linux, zip for Windows), owner-neutral and with modes kept.

Both unpack to one folder `<name>-<version>/` that runs in place and becomes portable when a file named
`portable.txt` is created beside the executable.
"""

from __future__ import annotations

import tarfile
import zipfile
from pathlib import Path


def _neutral_owner(member: tarfile.TarInfo) -> tarfile.TarInfo:
    member.uid = member.gid = 0
    member.uname = member.gname = ""
    return member


def make_tar_gz(folder: Path, archive: Path, top: str) -> Path:
    """`folder`'s contents under `top/` in a gzip tarball; symlinks stay symlinks."""
    with tarfile.open(archive, "w:gz", compresslevel=6) as tar:
        tar.add(folder, arcname=top, filter=_neutral_owner)
    return archive


def make_zip(folder: Path, archive: Path, top: str) -> Path:
    with zipfile.ZipFile(archive, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=6) as bundle:
        for path in sorted(folder.rglob("*")):
            if path.is_file():
                bundle.write(path, f"{top}/{path.relative_to(folder).as_posix()}")
    return archive
