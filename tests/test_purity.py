"""The core stays pure: no UI, no sockets, no event loop in the engine or the AI.

Two checks, because each misses what the other sees: a scan of every import
statement (catches imports hidden inside functions) and a real import in a fresh
interpreter (catches modules pulled in indirectly).
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).parent.parent / "c4tui"
PURE_PACKAGES = ["engine", "ai", "protocols", "lobby", "tictactoe"]
#: The transport's pure part, which the codecs import (the line limit, framings, errors).
PURE_NET_MODULES = ["net.wire", "net.errors"]
FORBIDDEN = {"textual", "socket", "asyncio", "rich", "selectors", "ssl"}
# The adapter awaits backends (asyncio) but must never know about the UI.
UI_FREE_PACKAGES = ["match", "client", "console", "net", "server", "outside"]
UI_MODULES = {"textual", "rich"}


def imported_top_level_names(source: Path) -> set[str]:
    tree = ast.parse(source.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
    return names


def pure_sources() -> list[Path]:
    packages = [path for name in PURE_PACKAGES for path in (PACKAGE / name).rglob("*.py")]
    net = [PACKAGE / f"{name.replace('.', '/')}.py" for name in PURE_NET_MODULES]
    return sorted(packages + net)


def imported_modules(source: Path) -> set[str]:
    """Every module ``source`` imports, by its full name (absolute imports only)."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(source.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


@pytest.mark.parametrize("source", pure_sources(), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_pure_module_imports_nothing_forbidden(source: Path) -> None:
    assert imported_top_level_names(source) & FORBIDDEN == set()


@pytest.mark.parametrize(
    "source",
    sorted(path for name in UI_FREE_PACKAGES for path in (PACKAGE / name).rglob("*.py")),
    ids=lambda p: str(p.relative_to(PACKAGE)),
)
def test_adapter_and_console_never_import_the_ui(source: Path) -> None:
    names = imported_top_level_names(source)
    assert names & UI_MODULES == set()
    assert not any(
        node.module.startswith("c4tui.ui")
        for node in ast.walk(ast.parse(source.read_text(encoding="utf-8")))
        if isinstance(node, ast.ImportFrom) and node.module
    )


@pytest.mark.parametrize(
    "source", sorted((PACKAGE / "net").rglob("*.py")), ids=lambda p: str(p.relative_to(PACKAGE))
)
def test_the_transport_never_imports_the_protocols_above_it(source: Path) -> None:
    """``net/`` is below ``protocols/``: the codecs may use the transport's words, never back."""
    assert not any(
        name == "c4tui.protocols" or name.startswith("c4tui.protocols.")
        for name in imported_modules(source)
    )


def test_the_scan_would_catch_a_forbidden_import(tmp_path: Path) -> None:
    sneaky = tmp_path / "sneaky.py"
    sneaky.write_text("def f():\n    import socket\n    from textual.app import App\n")
    assert imported_top_level_names(sneaky) & FORBIDDEN == {"socket", "textual"}


def test_importing_the_core_loads_no_forbidden_module() -> None:
    modules = ", ".join(f"c4tui.{name}" for name in PURE_PACKAGES + PURE_NET_MODULES)
    code = (
        f"import sys, {modules}\n"
        f"print(','.join(sorted(m for m in sys.modules if m.split('.')[0] in {FORBIDDEN!r})))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    assert result.stdout.strip() == ""
