"""The tree is the architecture, and stays so: every module of `app/` and `ui/` read with `ast` (imports
under `TYPE_CHECKING` and inside functions included), then checked for import cycles, Qt in `app/`,
packages without a docstring, crowded folders and timings in module docstrings (they go stale; measured
figures belong in tests/bench/RESULTS.md)."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
LAYERS = ("app", "ui")
MAX_MODULES_PER_FOLDER = 12
# Alembic's revision scripts: loaded by path from their folder, not imported as a package.
NOT_PACKAGES = {Path("app/store/schema/migrations/versions")}
QT_AND_UI = ("PySide6", "shiboken6", "ui")

# A measured duration: a figure, then a unit of time ("0.2 s", "190 ms", "16 µs", "20-240 ms"). Durations
# in words are left alone: in this tree they are facts and settings ("a lease's two minutes", "two writes
# within one millisecond"), not measurements.
DURATION = re.compile(
    r"(?<![\w.])\d+(?:[.,_]\d+)*\s?(?:ms|µs|us|ns|s|secs?|seconds?|milliseconds?|minutes?|hours?)\b",
    re.IGNORECASE,
)
# A setting is no measurement: "the busy timeout is at least 5 s" says what the code asks for.
SETTING = re.compile(r"\b(?:timeout|interval)\b[^.]*$", re.IGNORECASE)


def _modules() -> dict[str, Path]:
    """Every module of the layers by its dotted name (a package by its own name)."""
    found: dict[str, Path] = {}
    for layer in LAYERS:
        for path in sorted((ROOT / layer).rglob("*.py")):
            parts = path.relative_to(ROOT).with_suffix("").parts
            if parts[-1] == "__init__":
                parts = parts[:-1]
            found[".".join(parts)] = path
    return found


MODULES = _modules()


def _tree(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"), filename=str(path))


def _is_package(name: str) -> bool:
    return MODULES[name].name == "__init__.py"


def imports(name: str) -> Iterator[tuple[str, list[str]]]:
    """(module, names) for every import in module `name`, anywhere in its body: `import a.b` gives
    ("a.b", []), `from a import b, c` ("a", ["b", "c"]); relative imports resolved."""
    for node in ast.walk(_tree(MODULES[name])):
        if isinstance(node, ast.Import):
            yield from ((alias.name, []) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                package = name if _is_package(name) else name.rpartition(".")[0]
                for _ in range(node.level - 1):
                    package = package.rpartition(".")[0]
                base = f"{package}.{base}" if base else package
            yield base, [alias.name for alias in node.names]


def imported_modules(name: str) -> set[str]:
    """The modules of the layers that module `name` imports. An import names its module only: the
    packages above it also run, but an edge to each would make every package whose `__init__` imports
    its own modules a cycle that Python never meets. `from a import b` names the module `a.b` when
    there is one, else `a`."""
    targets = set()
    for base, names in imports(name):
        submodules = [f"{base}.{item}" for item in names if f"{base}.{item}" in MODULES]
        targets.update(submodules)
        if len(submodules) < len(names) or not names:
            targets.add(base)
    return {target for target in targets if target in MODULES and target != name}


def import_graph() -> dict[str, set[str]]:
    """Module → the modules of the layers it imports."""
    return {name: imported_modules(name) for name in MODULES}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """One cycle through each group of modules that import each other (Tarjan's strongly connected
    components, then a shortest way round within each)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []

    def connect(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(graph[node]):
            if target not in index:
                connect(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            connect(node)
    return [_shortest_cycle(graph, group) for group in groups]


def _shortest_cycle(graph: dict[str, set[str]], group: list[str]) -> list[str]:
    start, members = group[0], set(group)
    paths = {start: [start]}
    frontier = [start]
    while frontier:
        following = []
        for node in frontier:
            for target in sorted(graph[node] & members):
                if target == start:
                    return [*paths[node], start]
                if target not in paths:
                    paths[target] = [*paths[node], target]
                    following.append(target)
        frontier = following
    raise AssertionError(f"no cycle through {group}")


def test_the_graph_sees_every_kind_of_import() -> None:
    # The window imports its parts at the top; what is imported under TYPE_CHECKING or inside a
    # function counts as well (a cycle through them is a cycle the moment either one runs).
    graph = import_graph()
    assert "ui.window.commands" in graph["ui.window.main_window"]
    assert "app.demo.build" in graph["ui.window.commands"]  # imported inside a method


def test_the_cycle_finder_reports_a_cycle() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a", "d"}, "d": set(), "e": {"e"}}
    assert cycles(graph) == [["a", "b", "c", "a"]]


def test_no_import_cycles() -> None:
    found = cycles(import_graph())
    assert not found, "import cycles, one way round each: " + "; ".join(" → ".join(cycle) for cycle in found)


def test_app_never_imports_qt_or_the_ui() -> None:
    offending = sorted(
        f"{name} imports {imported}"
        for name in MODULES
        if name.startswith("app.")
        for imported, _names in imports(name)
        if imported.split(".")[0] in QT_AND_UI
    )
    assert not offending


@pytest.mark.parametrize("layer", LAYERS)
def test_every_package_says_what_lives_there(layer: str) -> None:
    folders = {path.parent for path in (ROOT / layer).rglob("*.py")}
    without_package = [
        folder.relative_to(ROOT)
        for folder in folders
        if not (folder / "__init__.py").exists() and folder.relative_to(ROOT) not in NOT_PACKAGES
    ]
    assert not without_package
    undocumented = sorted(
        name for name in MODULES if name.split(".")[0] == layer and _is_package(name) and not _docstring(name)
    )
    assert not undocumented


# The crowding rule holds for the tests, the benchmarks and the packaging too: they mirror the layers.
@pytest.mark.parametrize("layer", (*LAYERS, "tests", "packaging"))
def test_no_folder_holds_more_than_a_dozen_modules(layer: str) -> None:
    crowded = {}
    for folder in {path.parent for path in (ROOT / layer).rglob("*.py")}:
        modules = list(folder.glob("*.py"))  # a package's `__init__` counted too
        if len(modules) > MAX_MODULES_PER_FOLDER:
            crowded[str(folder.relative_to(ROOT))] = len(modules)
    assert not crowded


def _docstring(name: str) -> str:
    return ast.get_docstring(_tree(MODULES[name])) or ""


def timings(text: str) -> list[str]:
    """The durations in `text` that read as measurements (a timeout or an interval is a setting)."""
    return [
        match.group()
        for match in DURATION.finditer(text)
        if not SETTING.search(text[max(0, match.start() - 80) : match.start()])
    ]


def test_the_timing_pattern() -> None:
    assert timings("a 64 KiB diff took 0.2 s; rows 16 µs each, 20-240 ms a page, 1,200 ms, 3 seconds") == [
        "0.2 s",
        "16 µs",
        "240 ms",
        "1,200 ms",
        "3 seconds",
    ]
    assert timings("the busy timeout is at least 5 s") == []
    assert timings("100,000 memories, 2 sides, 64 KiB, 30 days, 5 stores, 1.5 MiB, v1.2s") == []
    assert timings("a lease's two minutes; two writes within one millisecond") == []


def test_module_docstrings_carry_no_timings() -> None:
    found = {name: timings(_docstring(name)) for name in MODULES}
    assert not {name: spans for name, spans in found.items() if spans}
