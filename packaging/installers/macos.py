"""macOS: sign the `.app` bundle (the spec's BUNDLE) when a signing identity is set, pack it into a `.dmg`
with hdiutil, and notarise and staple the dmg when the Apple account secrets are set.

Secrets (environment variables): MACOS_SIGNING_IDENTITY ("Developer ID Application: ..."), and in CI
MACOS_CERTIFICATE (base64 .p12) with MACOS_CERTIFICATE_PASSWORD, imported into a throwaway keychain;
APPLE_ID, APPLE_TEAM_ID and APPLE_APP_PASSWORD (an app-specific password) for notarytool.
"""

from __future__ import annotations

import base64
import secrets
import shutil
from pathlib import Path

from buildkit import PACKAGING, TITLE, BuildError, BuildInfo, run, secret

ENTITLEMENTS = PACKAGING / "macos" / "entitlements.plist"


def import_certificate(info: BuildInfo) -> None:
    """Put MACOS_CERTIFICATE into a new keychain that codesign can use without a prompt."""
    certificate, password = secret("MACOS_CERTIFICATE"), secret("MACOS_CERTIFICATE_PASSWORD")
    if certificate is None:
        return  # the identity is expected in the login keychain (a developer's Mac)
    folder = info.build_dir / "macos"
    folder.mkdir(parents=True, exist_ok=True)
    p12, keychain = folder / "signing.p12", folder / "signing.keychain-db"
    p12.write_bytes(base64.b64decode(certificate))
    key = secrets.token_hex(16)
    hidden = [key, password or "\0"]
    run(["security", "create-keychain", "-p", key, keychain], what="keychain", redact=hidden)
    run(["security", "unlock-keychain", "-p", key, keychain], what="keychain", redact=hidden)
    run(
        ["security", "import", p12, "-k", keychain, "-P", password or "", "-T", "/usr/bin/codesign"],
        what="certificate import",
        redact=hidden,
    )
    partition = ["security", "set-key-partition-list", "-S", "apple-tool:,apple:", "-s", "-k", key]
    run([*partition, keychain], what="keychain", redact=hidden)
    run(["security", "list-keychains", "-d", "user", "-s", keychain, "login.keychain-db"], what="keychain")
    p12.unlink()


def sign(target: Path, identity: str) -> None:
    command = ["codesign", "--force", "--timestamp", "--options", "runtime", "--sign", identity]
    if target.suffix == ".app":
        command += ["--deep", "--entitlements", str(ENTITLEMENTS)]
    run([*command, target], what=f"codesign {target.name}")
    run(
        ["codesign", "--verify", "--strict", "--verbose=2", target], what=f"verify signature of {target.name}"
    )


def make_dmg(info: BuildInfo) -> Path:
    stage = info.build_dir / "macos" / "dmg"
    shutil.rmtree(stage, ignore_errors=True)
    stage.mkdir(parents=True)
    run(["ditto", info.app_bundle, stage / info.app_bundle.name], what="copy the .app")
    (stage / "Applications").symlink_to("/Applications")  # drag-to-install target
    dmg = info.release_dir / f"{info.artifact_stem('macos')}.dmg"
    volume = f"{TITLE} {info.version}"
    run(
        ["hdiutil", "create", "-volname", volume, "-srcfolder", stage, "-ov", "-format", "UDZO", dmg],
        what="hdiutil",
    )
    return dmg


def notarise(dmg: Path) -> None:
    apple_id, team, password = secret("APPLE_ID"), secret("APPLE_TEAM_ID"), secret("APPLE_APP_PASSWORD")
    if not (apple_id and team and password):
        print("notarisation skipped: APPLE_ID / APPLE_TEAM_ID / APPLE_APP_PASSWORD are not set")
        return
    submit: list[str | Path] = [
        "xcrun",
        "notarytool",
        "submit",
        dmg,
        "--apple-id",
        apple_id,
        "--team-id",
        team,
    ]
    run([*submit, "--password", password, "--wait"], what="notarisation", redact=[password])
    run(["xcrun", "stapler", "staple", dmg], what="stapling")


def make(info: BuildInfo) -> list[Path]:
    if not info.app_bundle.is_dir():
        raise BuildError(f"{info.app_bundle} is missing: the spec's BUNDLE step did not run")
    identity = secret("MACOS_SIGNING_IDENTITY")
    if identity is None:
        print("signing and notarisation skipped: MACOS_SIGNING_IDENTITY is not set")
    else:
        import_certificate(info)
        sign(info.app_bundle, identity)
    dmg = make_dmg(info)
    if identity is not None:
        sign(dmg, identity)
        notarise(dmg)
    return [dmg]
