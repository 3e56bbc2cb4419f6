"""One build command for the current OS: `python packaging/build.py [--skip-tests] [--skip-smoke]`.

Steps, each stopping the build with a clear message when it fails: run the tests (offscreen), render the
icons, freeze with PyInstaller (packaging/memory-dashboard.spec), report the bundle's size, smoke-run the
frozen binary, then make this OS's installers in dist/release/ (see packaging/README.md).
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
from pathlib import Path

from buildkit import PACKAGING, BuildError, BuildInfo, run, step
from installers import make_installers
from smoke import run_smoke

PYTEST_NO_TESTS = 5


def check_tag(info: BuildInfo) -> None:
    """On a tag build in CI, the tag must name the version in pyproject.toml."""
    if os.environ.get("GITHUB_REF_TYPE") == "tag":
        tag = os.environ.get("GITHUB_REF_NAME", "")
        if tag != f"v{info.version}":
            raise BuildError(f"tag {tag!r} does not match pyproject.toml's version {info.version!r}")


def run_tests(info: BuildInfo) -> None:
    step("tests (pytest, QT_QPA_PLATFORM=offscreen)")
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    command = [sys.executable, "-m", "pytest", "-q"]
    try:
        code = run(command, what="tests", env=env, cwd=info.root, ok_codes=(0, PYTEST_NO_TESTS))
    except BuildError:
        raise BuildError("tests failed: nothing was frozen (use --skip-tests to freeze anyway)") from None
    if code == PYTEST_NO_TESTS:
        print("warning: pytest collected no tests", flush=True)


def render_icons(info: BuildInfo) -> None:
    step("icons")
    run([sys.executable, PACKAGING / "make_icons.py", "--out", info.icons_dir], what="icon rendering")


def freeze(info: BuildInfo) -> None:
    step("freeze (PyInstaller, one-folder)")
    shutil.rmtree(info.frozen_dir, ignore_errors=True)
    env = {**os.environ, "MEMORY_DASHBOARD_ICON_DIR": str(info.icons_dir)}
    command: list[str | Path] = [sys.executable, "-m", "PyInstaller", "--noconfirm", "--log-level", "WARN"]
    command += ["--distpath", info.dist_dir, "--workpath", info.build_dir / "pyinstaller"]
    run([*command, PACKAGING / "memory-dashboard.spec"], what="PyInstaller", env=env, cwd=info.root)
    if not info.executable.is_file():
        raise BuildError(f"PyInstaller finished but {info.executable} is missing")


def report_size(folder: Path, top: int = 15) -> None:
    """Total size of the bundle and its biggest files, to see what else could be excluded."""
    files = [path for path in folder.rglob("*") if path.is_file() and not path.is_symlink()]
    sizes = sorted(((path.stat().st_size, path) for path in files), reverse=True)
    total = sum(size for size, _ in sizes)
    step(f"bundle: {total / 2**20:.1f} MiB in {len(files)} files; biggest:")
    for size, path in sizes[:top]:
        print(f"  {size / 2**20:7.1f} MiB  {path.relative_to(folder)}")


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description="Build Memory Dashboard's installers for this OS.")
    parser.add_argument("--skip-tests", action="store_true", help="freeze without running the tests first")
    parser.add_argument("--skip-smoke", action="store_true", help="do not smoke-run the frozen binary")
    return parser.parse_args(argv)


def build(args: argparse.Namespace) -> list[Path]:
    info = BuildInfo.from_pyproject()
    print(f"Memory Dashboard {info.version}: building for {sys.platform}")
    check_tag(info)
    if not args.skip_tests:
        run_tests(info)
    render_icons(info)
    freeze(info)
    report_size(info.frozen_dir)
    if not args.skip_smoke:
        run_smoke(info)
    return make_installers(info)


def main(argv: list[str] | None = None) -> int:
    try:
        artifacts = build(parse_args(argv))
    except BuildError as exc:
        print(f"\nBUILD FAILED: {exc}", file=sys.stderr)
        return 1
    step("done; installers:")
    for artifact in artifacts:
        print(f"  {artifact}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
