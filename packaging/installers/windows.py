"""Windows: a portable-capable zip of the one-folder build, and an Inno Setup installer when `iscc` exists.

Signing runs only when WINDOWS_CERTIFICATE (a base64 .pfx) and WINDOWS_CERTIFICATE_PASSWORD are set:
signtool signs both executables before they are packed, and Inno Setup signs the installer and its
uninstaller through the same command.
"""

from __future__ import annotations

import base64
import glob
import os
import shutil
from pathlib import Path

from buildkit import PACKAGING, TITLE, BuildInfo, run, secret

from installers.archive import make_zip

DEFAULT_TIMESTAMP_URL = "http://timestamp.digicert.com"
ISCC_GUESSES = (r"C:\Program Files (x86)\Inno Setup 6\ISCC.exe", r"C:\Program Files\Inno Setup 6\ISCC.exe")
SIGNTOOL_GLOB = r"C:\Program Files (x86)\Windows Kits\10\bin\*\x64\signtool.exe"


def find_iscc() -> str | None:
    return shutil.which("iscc") or next((path for path in ISCC_GUESSES if Path(path).is_file()), None)


def find_signtool() -> str | None:
    found = shutil.which("signtool")
    if found:
        return found
    kits = sorted(glob.glob(SIGNTOOL_GLOB))
    return kits[-1] if kits else None  # the newest SDK sorts last


def signing_command(info: BuildInfo) -> list[str] | None:
    """signtool's arguments up to the file to sign, or None when no certificate is configured."""
    certificate, password = secret("WINDOWS_CERTIFICATE"), secret("WINDOWS_CERTIFICATE_PASSWORD")
    if certificate is None or password is None:
        print("signing skipped: WINDOWS_CERTIFICATE / WINDOWS_CERTIFICATE_PASSWORD are not set")
        return None
    signtool = find_signtool()
    if signtool is None:
        print("signing skipped: signtool.exe not found (install the Windows SDK)")
        return None
    pfx = info.build_dir / "windows" / "signing.pfx"
    pfx.parent.mkdir(parents=True, exist_ok=True)
    pfx.write_bytes(base64.b64decode(certificate))
    timestamp = secret("WINDOWS_TIMESTAMP_URL") or DEFAULT_TIMESTAMP_URL
    return [
        signtool,
        "sign",
        "/f",
        str(pfx),
        "/p",
        password,
        "/fd",
        "SHA256",
        "/tr",
        timestamp,
        "/td",
        "SHA256",
    ]


def passwords() -> list[str]:
    password = secret("WINDOWS_CERTIFICATE_PASSWORD")
    return [password] if password else []


def make_setup(info: BuildInfo, sign: list[str] | None) -> Path | None:
    iscc = find_iscc()
    if iscc is None:
        print("iscc (Inno Setup 6) not found: skipping the installer (the zip is complete without it)")
        return None
    stem = f"{info.artifact_stem('windows')}-setup"
    command = [iscc, "/Q", f"/DAppVersion={info.version}", f"/DSourceDir={info.frozen_dir}"]
    command += [f"/DOutputDir={info.release_dir}", f"/DOutputBaseFilename={stem}"]
    command += [f"/DIconFile={info.icons_dir / (info.name + '.ico')}", f"/DAppExeName={TITLE}.exe"]
    if sign is not None:
        escaped = [part.replace("$", "$$") for part in sign]  # Inno reads $f, $q, $$ in /S commands
        quoted = " ".join(f"$q{part}$q" if " " in part else part for part in escaped)
        command += [f"/Smdsign={quoted} $f", "/DUseSignTool"]
    script = PACKAGING / "windows" / "memory-dashboard.iss"
    run([*command, script], what="Inno Setup", redact=passwords())
    return info.release_dir / f"{stem}.exe"


def make(info: BuildInfo) -> list[Path]:
    try:
        return package(info, signing_command(info))
    finally:
        (info.build_dir / "windows" / "signing.pfx").unlink(missing_ok=True)


def package(info: BuildInfo, sign: list[str] | None) -> list[Path]:
    if sign is not None:
        executables = sorted(info.frozen_dir.glob("*.exe"))
        run([*sign, *executables], what="signtool", redact=passwords())
    zipped = info.release_dir / f"{info.artifact_stem('windows')}.zip"
    artifacts = [make_zip(info.frozen_dir, zipped, f"{info.name}-{info.version}")]
    setup = make_setup(info, sign)
    if setup is not None:
        artifacts.append(setup)
    if os.environ.get("CI") and setup is None:
        print("warning: a CI build without the installer; only the zip will be published")
    return artifacts
