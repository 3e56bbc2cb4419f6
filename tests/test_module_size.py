"""No module of the product, its tests or its packaging is over 400 lines: a file that long holds more
than one job (split it by role, as the controller and the main window are)."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FOLDERS = ("app", "ui", "tests", "packaging")
MAX_LINES = 400


def long_modules(root: Path, folders: tuple[str, ...]) -> dict[str, int]:
    """Each module over `MAX_LINES` under `root`'s `folders`, with its line count."""
    return {
        str(path.relative_to(root)): lines
        for folder in folders
        for path in (root / folder).rglob("*.py")
        if (lines := len(path.read_text(encoding="utf-8").splitlines())) > MAX_LINES
    }


def test_no_module_is_over_400_lines() -> None:
    long = long_modules(ROOT, FOLDERS)
    assert not long, f"modules over {MAX_LINES} lines (split them by role): {long}"


def test_a_planted_long_module_is_found(tmp_path: Path) -> None:
    (tmp_path / "app").mkdir()
    (tmp_path / "app" / "long.py").write_text("x = 1\n" * (MAX_LINES + 1), encoding="utf-8")
    (tmp_path / "app" / "short.py").write_text("x = 1\n" * MAX_LINES, encoding="utf-8")
    assert long_modules(tmp_path, ("app",)) == {"app/long.py": MAX_LINES + 1}
