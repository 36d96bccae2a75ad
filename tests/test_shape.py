"""The code's shape stays as ARCHITECTURE.md draws it: small modules, screens that do not
reach into the app, and late imports only at the entry points."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).parent.parent / "c4tui"
SOURCES = sorted(PACKAGE.rglob("*.py"))
MAX_LINES = 450
#: Where an import may wait until it is needed, and why (ARCHITECTURE.md, "Loading late").
LATE_IMPORTS_ALLOWED = {
    "cli": "each command's run loads its own front end or service",
    "ui/screen_factory.py": "every screen but the menu loads when first shown",
    "ai/levels.py": "a level's search loads when the level first plays",
    "ai/solver/book.py": "the opening book is optional",
    "ai/solver/jit.py": "Numba is optional",
    "match/settings.py": "the driver loads when the first game starts",
    "match/backends/computer.py": "the process pool loads when the computer first plays",
    "match/backends/network/__init__.py": "the connection loads when the seat starts",
    "match/pool_worker.py": "the solver loads in the pool's processes only",
    "match/backends/program.py": "a program's machinery (outside/) loads when one is asked for",
    "server/process.py": "Redis's client loads only for a node of several (serve --bus)",
    "server/stores.py": "psycopg (the server extra) loads only for a PostgreSQL database",
    "server/ssh/service.py": "asyncssh (the ssh extra) loads only for serve --ssh-port",
    "console/editing.py": "readline (and ctypes, its redrawing) load only at a terminal",
    "outside/kaggle_runner.py": "NumPy loads in an agent's process only with --seed (to seed it)",
}


def relative(source: Path) -> str:
    return source.relative_to(PACKAGE).as_posix()


@pytest.mark.parametrize("source", SOURCES, ids=relative)
def test_no_module_is_longer_than_the_limit(source: Path) -> None:
    assert len(source.read_text(encoding="utf-8").splitlines()) <= MAX_LINES


@pytest.mark.parametrize("source", sorted((PACKAGE / "ui").rglob("*.py")), ids=relative)
def test_screens_and_widgets_never_reach_into_the_app(source: Path) -> None:
    text = source.read_text(encoding="utf-8")
    for reach in ('cast("C4App"', "getattr(self.app", "type: ignore[attr-defined]"):
        assert reach not in text


def late_imports(source: Path) -> list[int]:
    """Lines of import statements inside functions (not under TYPE_CHECKING)."""
    tree = ast.parse(source.read_text(encoding="utf-8"))
    functions = [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)]
    return sorted(
        node.lineno
        for function in functions
        for node in ast.walk(function)
        if isinstance(node, ast.Import | ast.ImportFrom)
    )


def allowed_to_import_late(source: Path) -> bool:
    name = relative(source)
    return any(name == place or name.startswith(place + "/") for place in LATE_IMPORTS_ALLOWED)


@pytest.mark.parametrize("source", SOURCES, ids=relative)
def test_imports_wait_only_at_the_entry_points(source: Path) -> None:
    if not allowed_to_import_late(source):
        assert late_imports(source) == []


def test_the_late_import_check_would_see_one(tmp_path: Path) -> None:
    module = tmp_path / "late.py"
    module.write_text("def f():\n    import json\n    return json\n", encoding="utf-8")
    assert late_imports(module) == [2]


#: What each package may import of c4tui (ARCHITECTURE.md's table): the layers point down.
CORE = {"engine", "numbers", "ai", "records", "storage", "tictactoe", "columns"}
MAY_IMPORT = {
    "engine": {"numbers"},
    "numbers": set(),
    "storage": set(),
    "ai": {"engine", "storage"},  # storage: where the shipped opening books are
    "records": {"engine", "numbers", "storage"},
    "tictactoe": {"numbers"},
    "columns": {"numbers", "storage"},
    "net": {"engine", "numbers"},
    "protocols": {"engine", "numbers", "tictactoe", "net"},
    "lobby": {"engine", "tictactoe", "protocols"},
    # the trainer rates with the lobby's Glicko-2; its maker (making.py, loaded late) solves
    "puzzles": {"engine", "ai", "lobby", "storage"},
    "client": CORE | {"net", "protocols"},
    # a game here keeps time with the lobby's pure clock (match/timing.py)
    # ... and its pool's workers find puzzles in a lobby's games (puzzles.making, there only)
    "match": CORE | {"net", "protocols", "lobby", "client", "puzzles"},
    "server": CORE | {"net", "protocols", "lobby", "match", "outside", "puzzles"},
    "console": CORE | {"net", "protocols", "client", "match", "puzzles"},
    "outside": CORE | {"net", "protocols", "match"},
    "bot": CORE | {"net", "protocols", "client", "match", "outside"},
    "tournament": CORE | {"net", "protocols", "match", "outside"},
    "ui": CORE | {"net", "protocols", "client", "match", "puzzles"},
    "web": {"ui", "storage"},
}


#: Single modules allowed one layer more than their package, late, and why.
LAYER_EXCEPTIONS = {
    # a program's seat is an opponent in the registry; its chooser (outside/, which uses
    # match's search pool) loads only when a program is asked for
    "match/backends/program.py": {"outside"},
    # the search pool explains a puzzle's wrong move: the solver's reply (puzzles.making),
    # loaded in the worker only, its answer's type named for the checker only
    "match/pool_worker.py": {"puzzles"},
    "match/pool.py": {"puzzles"},
}


def package_of(source: Path) -> str:
    return relative(source).split("/")[0].removesuffix(".py")


def c4tui_packages_imported(source: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(source.read_text(encoding="utf-8"))):
        modules = (
            [alias.name for alias in node.names]
            if isinstance(node, ast.Import)
            else [node.module]
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0
            else []
        )
        names.update(m.split(".")[1] for m in modules if m.startswith("c4tui.") and "." in m)
    return names - {package_of(source)}


@pytest.mark.parametrize(
    "source", [s for s in SOURCES if package_of(s) in MAY_IMPORT], ids=relative
)
def test_each_package_imports_only_the_layers_below_it(source: Path) -> None:
    allowed = MAY_IMPORT[package_of(source)] | LAYER_EXCEPTIONS.get(relative(source), set())
    assert c4tui_packages_imported(source) <= allowed
