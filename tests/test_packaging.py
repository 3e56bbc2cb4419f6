"""The packaging pieces that can break without a freeze: icon containers, bundled resources, the files the
PyInstaller spec collects, and the Linux install script (run against a fake unpacked build)."""

from __future__ import annotations

import importlib.util
import os
import shutil
import struct
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGING = ROOT / "packaging"


def load(name: str) -> ModuleType:
    """A module of packaging/ by path: that folder is no package, and a `packaging` import means PyPA's."""
    spec = importlib.util.spec_from_file_location(f"_packaging_{name}", PACKAGING / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


make_icons = load("make_icons")
buildkit = load("buildkit")


def test_ico_container_indexes_every_png() -> None:
    pngs = {16: b"\x89PNG-a", 256: b"\x89PNG-bbbb"}
    data = make_icons.ico_bytes(pngs)
    assert struct.unpack("<HHH", data[:6]) == (0, 1, 2)
    entries = [struct.unpack("<BBBBHHII", data[6 + 16 * i : 22 + 16 * i]) for i in range(2)]
    assert [(e[0], e[6]) for e in entries] == [(16, 6), (0, 9)]  # 0 means 256
    assert [data[e[7] : e[7] + e[6]] for e in entries] == [pngs[16], pngs[256]]


def test_icns_container_lengths_add_up() -> None:
    data = make_icons.icns_bytes([("ic07", b"abc"), ("ic10", b"defgh")])
    assert data[:4] == b"icns" and struct.unpack(">I", data[4:8])[0] == len(data)
    assert data[8:12] == b"ic07" and struct.unpack(">I", data[12:16])[0] == 8 + 3
    assert data[19:23] == b"ic10" and data[-5:] == b"defgh"


def test_rendered_icons_load_in_qt(tmp_path: Path, qapp: object) -> None:
    from PySide6.QtGui import QImage

    make_icons.write_icons(tmp_path)
    assert QImage(str(tmp_path / "png" / "memory-dashboard-16.png")).size().width() == 16
    assert not QImage(str(tmp_path / "memory-dashboard.ico")).isNull()
    assert (tmp_path / "memory-dashboard.icns").read_bytes()[:4] == b"icns"


def test_resources_are_read_through_the_package() -> None:
    import resources

    assert resources.read_bytes(resources.APP_ICON_PNG)[:8] == b"\x89PNG\r\n\x1a\n"
    assert b"<svg" in resources.read_bytes(resources.APP_ICON_SVG)
    entry = resources.read_bytes(resources.DESKTOP_ENTRY).decode()
    assert "Exec=memory-dashboard" in entry and "Icon=memory-dashboard" in entry


def test_files_the_spec_bundles_exist() -> None:
    store = ROOT / "app" / "store" / "schema"
    assert (store / "host_schema.sql").is_file()
    assert (store / "migrations" / "env.py").is_file()
    assert (store / "migrations" / "script.py.mako").is_file()
    assert list((store / "migrations" / "versions").glob("*.py"))
    assert (PACKAGING / "entry.py").is_file() and (PACKAGING / "memory-dashboard.spec").is_file()


def test_build_info_reads_pyproject() -> None:
    info = buildkit.BuildInfo.from_pyproject(ROOT)
    assert info.name == "memory-dashboard"
    assert info.artifact_stem("linux") == f"memory-dashboard-{info.version}-linux-{buildkit.machine_arch()}"


def fake_unpacked_build(folder: Path) -> Path:
    """What the tarball unpacks to, with a shell script standing in for the frozen executable."""
    folder.mkdir()
    (folder / "_internal").mkdir()
    exe = folder / "memory-dashboard"
    exe.write_text("#!/bin/sh\necho frozen\n")
    exe.chmod(0o755)
    shutil.copy2(PACKAGING / "linux" / "install.sh", folder / "install.sh")
    (folder / "share" / "applications").mkdir(parents=True)
    shutil.copy2(ROOT / "resources" / "memory-dashboard.desktop", folder / "share" / "applications")
    icons = folder / "share" / "icons" / "hicolor" / "48x48" / "apps"
    icons.mkdir(parents=True)
    (icons / "memory-dashboard.png").write_bytes(b"png")
    return folder


@pytest.mark.skipif(sys.platform == "win32" or shutil.which("sh") is None, reason="POSIX shell script")
def test_install_script_installs_and_uninstalls(tmp_path: Path) -> None:
    unpacked = fake_unpacked_build(tmp_path / "memory-dashboard-9.9.9")
    home = tmp_path / "home"
    env = {key: value for key, value in os.environ.items() if key != "XDG_DATA_HOME"}
    env["HOME"] = str(home)
    subprocess.run(["sh", str(unpacked / "install.sh")], env=env, check=True, capture_output=True)
    opt = home / ".local" / "opt" / "memory-dashboard"
    launcher = home / ".local" / "bin" / "memory-dashboard"
    desktop = home / ".local" / "share" / "applications" / "memory-dashboard.desktop"
    icon = home / ".local" / "share" / "icons" / "hicolor" / "48x48" / "apps" / "memory-dashboard.png"
    assert (opt / "memory-dashboard").is_file() and (opt / "_internal").is_dir()
    assert not (opt / "install.sh").exists()
    assert (
        launcher.is_symlink()
        and subprocess.run([launcher], capture_output=True, text=True).stdout == "frozen\n"
    )
    assert f'Exec="{opt}/memory-dashboard"' in desktop.read_text()
    assert icon.read_bytes() == b"png"

    subprocess.run(
        ["sh", str(unpacked / "install.sh"), "--uninstall"], env=env, check=True, capture_output=True
    )
    assert not opt.exists() and not launcher.exists() and not desktop.exists() and not icon.exists()


def test_nothing_the_frozen_build_leaves_out_is_imported_by_the_app() -> None:
    """The spec excludes `multiprocessing` (bundled, PyInstaller's runtime hook imported it at every
    start): an import of it in app/ or ui/ would be a ModuleNotFoundError in the frozen build only."""
    import ast

    spec = (PACKAGING / "memory-dashboard.spec").read_text(encoding="utf-8")
    assert '"multiprocessing",' in spec
    for path in [*(ROOT / "app").rglob("*.py"), *(ROOT / "ui").rglob("*.py")]:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = (
                [alias.name for alias in node.names]
                if isinstance(node, ast.Import)
                else [node.module or ""]
                if isinstance(node, ast.ImportFrom)
                else []
            )
            assert not any(name.split(".")[0] == "multiprocessing" for name in names), path


def test_the_frozen_apps_qt_hook_sets_the_plugin_path_and_imports_no_qt(tmp_path: Path) -> None:
    """`qt_paths_hook.py` runs before the entry script, in place of PyInstaller's PySide6 hook (which
    imported QtCore there, before the launch's fork): Qt's plugins under the bundle, on Windows where
    the DLLs are too, and nothing of Qt imported. Run as the bootloader runs it, in a fresh interpreter
    whose bundle folder is `tmp_path`."""

    def run_hook(platform: str) -> list[str]:
        script = (
            "import os, runpy, sys\n"
            f"sys._MEIPASS = {str(tmp_path)!r}\n"
            f"sys.platform = {platform!r}\n"
            f"runpy.run_path({str(PACKAGING / 'qt_paths_hook.py')!r})\n"
            "print(os.environ['QT_PLUGIN_PATH'])\n"
            "print(os.environ.get('PATH', '').split(os.pathsep)[0])\n"
            "print(sorted(name for name in sys.modules if name.split('.')[0] in ('PySide6', 'shiboken6')))\n"
        )
        env = {key: value for key, value in os.environ.items() if key != "QT_PLUGIN_PATH"}
        done = subprocess.run(
            [sys.executable, "-I", "-c", script], capture_output=True, text=True, env=env, check=True
        )
        return done.stdout.splitlines()

    plugins, _path, qt_modules = run_hook("linux")
    assert (Path(plugins), qt_modules) == (tmp_path / "PySide6" / "Qt" / "plugins", "[]")
    plugins, path, qt_modules = run_hook("win32")
    assert (Path(plugins), Path(path), qt_modules) == (tmp_path / "PySide6" / "plugins", tmp_path, "[]")


class _Spec:
    """The spec run with PyInstaller's build steps stood in for: what it hands them."""

    def __init__(self, tmp_path: Path, rthooks: list[str]) -> None:
        self.folder = tmp_path
        self.analysis: dict[str, object] = {}
        self.executables: list[list[tuple[str, str, str]]] = []
        scripts = [(name, str(tmp_path / f"{name}.py"), "PYSOURCE") for name in rthooks]
        self.scripts = [*scripts, ("entry", str(PACKAGING / "entry.py"), "PYSOURCE")]
        (tmp_path / "icons").mkdir()
        (tmp_path / "icons" / "memory-dashboard.ico").write_bytes(b"")  # no icons made

    def run(self, monkeypatch: pytest.MonkeyPatch) -> None:
        monkeypatch.setenv("MEMORY_DASHBOARD_ICON_DIR", str(self.folder / "icons"))
        spec = self

        class Analysis:
            def __init__(self, *_args: object, **kwargs: object) -> None:
                spec.analysis = kwargs
                self.scripts = list(spec.scripts)
                self.binaries: list[tuple[str, str, str]] = []
                self.datas: list[tuple[str, str, str]] = []
                self.pure: list[tuple[str, str, str]] = []

        def exe(_pyz: object, scripts: list[tuple[str, str, str]], *_args: object, **_kwargs: object) -> None:
            spec.executables.append(scripts)

        def step(*_args: object, **_kwargs: object) -> None:
            return None

        names: dict[str, object] = {"Analysis": Analysis, "PYZ": step, "EXE": exe, "COLLECT": step}
        names |= {"BUNDLE": step, "SPECPATH": str(PACKAGING), "workpath": str(self.folder / "work")}
        source = (PACKAGING / "memory-dashboard.spec").read_text(encoding="utf-8")
        exec(compile(source, "memory-dashboard.spec", "exec"), names)  # our own spec, as PyInstaller runs it


def test_the_spec_runs_our_qt_hook_instead_of_pyinstallers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    spec = _Spec(tmp_path, ["pyi_rth_inspect", "pyi_rth_pyside6", "pyi_rth_pkgutil"])
    spec.run(monkeypatch)
    assert spec.analysis["runtime_hooks"] == [str(PACKAGING / "qt_paths_hook.py")]
    assert spec.executables, "no executable built"
    for scripts in spec.executables:
        assert [name for name, _path, _kind in scripts] == ["pyi_rth_inspect", "pyi_rth_pkgutil", "entry"]


def test_the_spec_fails_when_pyinstallers_qt_hook_is_renamed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Dropping a hook by a name PyInstaller no longer uses would silently keep its slow import."""
    spec = _Spec(tmp_path, ["pyi_rth_inspect", "pyi_rth_qt6"])
    with pytest.raises(SystemExit, match="pyi_rth_pyside6 is gone"):
        spec.run(monkeypatch)
