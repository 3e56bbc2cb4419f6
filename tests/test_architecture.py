"""The tree is the architecture, and stays so: every module of `app/` and `ui/` read with `ast` (imports
under `TYPE_CHECKING` and inside functions included, and module names written as strings, as
`importlib.import_module` and the packages' lazy names take them), then checked for import cycles, for
packages that import upwards (the layers below, ARCHITECTURE.md; inside the store, its folders and the
modules that sit apart from theirs, such as its services over the `Database` unit), for Qt or the window
in `app/`, packages without a docstring, and timings in module docstrings (they go stale; measured
figures belong in tests/bench/RESULTS.md)."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.layering import LAYERING

ROOT = Path(__file__).resolve().parent.parent
LAYERS = ("app", "ui")
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


def _modules(root: Path = ROOT) -> dict[str, Path]:
    """Every module of the layers under `root` by its dotted name (a package by its own name)."""
    found: dict[str, Path] = {}
    for layer in LAYERS:
        for path in sorted((root / layer).rglob("*.py")):
            parts = path.relative_to(root).with_suffix("").parts
            if parts[-1] == "__init__":
                parts = parts[:-1]
            found[".".join(parts)] = path
    return found


MODULES = _modules()


def _tree(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"), filename=str(path))


def _is_package(name: str, modules: dict[str, Path] = MODULES) -> bool:
    return modules[name].name == "__init__.py"


MODULE_NAME = re.compile(r"^(?:app|ui|PySide6|shiboken6)(?:\.\w+)*$")


def imports(name: str, modules: dict[str, Path] = MODULES) -> Iterator[tuple[str, list[str]]]:
    """(module, names) for every import in module `name`, anywhere in its body: `import a.b` gives
    ("a.b", []), `from a import b, c` ("a", ["b", "c"]); relative imports resolved. A string that is a
    module's dotted name of the layers or of Qt (`importlib.import_module("ui.x")`, a lazy name's module)
    counts as an import of it."""
    for node in ast.walk(_tree(modules[name])):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and MODULE_NAME.match(node.value):
            if node.value in modules or node.value.split(".")[0] in ("PySide6", "shiboken6"):
                yield node.value, []
        elif isinstance(node, ast.Import):
            yield from ((alias.name, []) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                package = name if _is_package(name, modules) else name.rpartition(".")[0]
                for _ in range(node.level - 1):
                    package = package.rpartition(".")[0]
                base = f"{package}.{base}" if base else package
            yield base, [alias.name for alias in node.names]


def imported_modules(name: str, modules: dict[str, Path] = MODULES) -> set[str]:
    """The modules of the layers that module `name` imports. An import names its module only: the
    packages above it also run, but an edge to each would make every package whose `__init__` imports
    its own modules a cycle that Python never meets. `from a import b` names the module `a.b` when
    there is one, else `a`."""
    targets = set()
    for base, names in imports(name, modules):
        submodules = [f"{base}.{item}" for item in names if f"{base}.{item}" in modules]
        targets.update(submodules)
        if len(submodules) < len(names) or not names:
            targets.add(base)
    return {target for target in targets if target in modules and target != name}


def import_graph(modules: dict[str, Path] = MODULES) -> dict[str, set[str]]:
    """Module → the modules of the layers it imports."""
    return {name: imported_modules(name, modules) for name in modules}


def package_of(module: str) -> str:
    """The package whose rank a module has: the longest prefix `LAYERING` names."""
    parts = module.split(".")
    for length in range(len(parts), 0, -1):
        prefix = ".".join(parts[:length])
        if prefix in LAYERING:
            return prefix
    raise AssertionError(f"{module} belongs to no package of LAYERING: give its package a rank")


def upward_imports(graph: dict[str, set[str]]) -> list[str]:
    """Every import of a package from one of the same or a higher rank (each module pair once)."""
    found = []
    for name, targets in sorted(graph.items()):
        here = package_of(name)
        for target in sorted(targets):
            there = package_of(target)
            if there != here and LAYERING[there] >= LAYERING[here]:
                where = f"{name} ({here}, rank {LAYERING[here]})"
                found.append(f"{where} imports {target} ({there}, rank {LAYERING[there]})")
    return found


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
    # Strings included: `imports` counts a string naming a module of `ui` or Qt as an import of it.
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


def test_every_module_has_a_rank() -> None:
    assert {package_of(name) for name in MODULES} <= set(LAYERING)


def test_no_package_imports_upwards() -> None:
    found = upward_imports(import_graph())
    assert not found, "imports against the layering:\n" + "\n".join(found)


def _plant(root: Path, module: str, text: str) -> None:
    path = root.joinpath(*module.split(".")).with_suffix(".py")
    path.parent.mkdir(parents=True, exist_ok=True)
    for folder in [path.parent, *path.parent.parents]:
        if folder == root:
            break
        (folder / "__init__.py").touch()
    path.write_text(text, encoding="utf-8")


@pytest.mark.parametrize(
    "text",
    [
        "from app.store.reader import read\n",
        "def later():\n    import app.store.reader\n",
        "import importlib\nimportlib.import_module('app.store.reader')\n",
    ],
    ids=["at the top", "inside a function", "as a string"],
)
def test_a_planted_upward_import_is_found(tmp_path: Path, text: str) -> None:
    _plant(tmp_path, "app.store.reader", "def read(): ...\n")
    _plant(tmp_path, "app.core.clock", text)
    _plant(tmp_path, "ui.widgets.icon", "")
    modules = _modules(tmp_path)
    found = upward_imports(import_graph(modules))
    assert len(found) == 1 and found[0].startswith(
        "app.core.clock (app.core, rank 0) imports app.store.reader"
    )


def test_the_store_is_layered_inside() -> None:
    # Each part of the store has a rank of its own (none falls back to the facade's), so a knot among
    # them is an upward import somewhere.
    loose = sorted(
        name for name in MODULES if name.startswith("app.store.") and package_of(name) == "app.store"
    )
    assert not loose


WINDOW_READS_OF_THE_STORE = {"app.store"}  # the facade: nothing of the store's internals


def test_the_window_reads_the_store_through_its_facade() -> None:
    # The read models the window shows live in `app.core.models`, not in the store's internals.
    offending = sorted(
        f"{name} imports {target}"
        for name, targets in import_graph().items()
        if name.split(".")[0] == "ui"
        for target in targets
        if target.startswith("app.store") and target not in WINDOW_READS_OF_THE_STORE
    )
    assert not offending


def test_an_upward_import_inside_the_store_is_found(tmp_path: Path) -> None:
    _plant(tmp_path, "app.store.database", "class Database: ...\n")
    _plant(tmp_path, "app.store.read.rows", "from app.store.database import Database\n")
    _plant(tmp_path, "ui.widgets.icon", "")
    found = upward_imports(import_graph(_modules(tmp_path)))
    assert found == [
        "app.store.read.rows (app.store.read, rank 27) imports "
        "app.store.database (app.store.database, rank 34)"
    ]


def test_app_never_names_the_window_even_as_a_string(tmp_path: Path) -> None:
    _plant(tmp_path, "ui.cli_hooks", "")
    _plant(tmp_path, "app.cli.entry", "import importlib\nhooks = importlib.import_module('ui.cli_hooks')\n")
    modules = _modules(tmp_path)
    assert upward_imports(import_graph(modules)) == [
        "app.cli.entry (app.cli, rank 70) imports ui.cli_hooks (ui.cli_hooks, rank 180)"
    ]


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
