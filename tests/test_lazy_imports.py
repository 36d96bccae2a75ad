"""Start-up loads only what the first screen needs (issue 15: start under 0.3 s).

Each check runs a fresh interpreter and looks at ``sys.modules``: the menu must not
pull in the AI's search, the solver, the server, the network protocols or the other
screens, and ``c4tui --help`` and ``c4tui console`` must not load Textual at all.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

import pytest

from c4tui.match.backends.network import CLIENT_PROTOCOLS
from c4tui.match.backends.network.session import GAMES
from c4tui.protocols import c4n, cfsp, i32cfsp, limits
from c4tui.server import limits as server_limits
from c4tui.server.core import ServerConfig

ROOT = Path(__file__).resolve().parent.parent

#: Modules the menu must not load: what only a game, a server or another screen needs.
NOT_FOR_THE_MENU = [
    # the AI's search and the solver (with NumPy and Numba)
    "c4tui.ai.search",
    "c4tui.ai.analysis",
    "c4tui.ai.perfect",
    "c4tui.ai.solver",
    "c4tui.ai.solver.core",
    "c4tui.ai.solver.book",
    "numpy",
    "numba",
    # the server
    "c4tui.server.core",
    "c4tui.server.accounts",
    "c4tui.server.lobby",
    "c4tui.server.dialects",
    "c4tui.server.protocols",
    "c4tui.server.context",
    "c4tui.server.ai_game",
    "c4tui.server.metrics",
    "bcrypt",
    "prometheus_client",  # serve's metrics (§7)
    # the protocols and the network
    "c4tui.protocols.common",
    "c4tui.protocols.registry",
    "c4tui.protocols.i32cfsp",
    "c4tui.protocols.cfsp",
    "c4tui.protocols.c4n",
    "c4tui.protocols.lobby",
    "c4tui.net.connection",
    "c4tui.net.framing",
    "c4tui.client.link",
    "c4tui.match.backends.network.session",
    "c4tui.match.backends.room_seat",
    "c4tui.lobby",
    # a match being played (the AI's worker processes, started with the first game)
    "c4tui.match.pool",
    "c4tui.match.pool_worker",
    "multiprocessing",
    "concurrent.futures.process",
    "c4tui.match.driver",
    "c4tui.match.events",
    # the other front ends and games
    "c4tui.console",
    "c4tui.web.server",
    "c4tui.columns",
    # the other screens (help brings Markdown)
    "c4tui.ui.screens.game",
    "c4tui.ui.screens.lobby",
    "c4tui.ui.screens.login",
    "c4tui.ui.screens.connect",
    "c4tui.ui.screens.help",
    "c4tui.ui.screens.open",
    "c4tui.ui.screens.columns",
    "c4tui.ui.screens.puzzles",
    "c4tui.puzzles.collection",
    "c4tui.ui.widgets.board",
    "markdown_it",
]


def loaded_modules(code: str, *, stdin: str = "", timeout: float = 60) -> tuple[set[str], str]:
    """The modules loaded once ``code`` ran in a fresh interpreter (even if it exits), and
    what it printed."""
    probe = textwrap.dedent(
        """
        import atexit, json, os, sys

        def report():
            with open(os.environ["MODULES_REPORT"], "w") as file:
                json.dump(sorted(sys.modules), file)

        atexit.register(report)
        """
    )
    with tempfile.TemporaryDirectory() as folder:
        report = Path(folder) / "modules.json"
        env = {**os.environ, "MODULES_REPORT": str(report), "PYTHONPATH": str(ROOT)}
        done = subprocess.run(
            [sys.executable, "-c", probe + textwrap.dedent(code)],
            input=stdin,
            capture_output=True,
            text=True,
            cwd=ROOT,
            env=env,
            timeout=timeout,
            check=False,
        )
        return set(json.loads(report.read_text())), done.stdout + done.stderr


def run_command(*args: str) -> str:
    """Code that runs ``python -m c4tui args`` (as __main__, exit status ignored)."""
    return f"""
    import runpy, sys
    sys.argv = ["c4tui", *{list(args)!r}]
    try:
        runpy.run_module("c4tui", run_name="__main__", alter_sys=True)
    except SystemExit:
        pass
    """


def test_the_probe_sees_what_a_module_loads() -> None:
    """The check itself works: the server does load the protocols (so absences mean something)."""
    modules, _ = loaded_modules("import c4tui.server.core")
    assert {"c4tui.server.core", "c4tui.protocols.common", "c4tui.net.framing"} <= modules


def test_importing_the_app_and_the_command_line_loads_nothing_the_menu_does_not_need() -> None:
    modules, _ = loaded_modules("import c4tui.cli, c4tui.ui.app")
    assert "c4tui.ui.screens.menu" in modules
    assert "textual.app" in modules
    assert sorted(modules.intersection(NOT_FOR_THE_MENU)) == []


def test_the_puzzles_screen_and_its_record_load_no_solver() -> None:
    """The app's puzzles judge moves without the solver: only the pool's workers load it."""
    modules, _ = loaded_modules(
        """
        import c4tui.ui.screens.puzzles, c4tui.puzzles.keeping
        from c4tui.puzzles.collection import shipped_puzzles
        shipped_puzzles()
        """
    )
    assert "c4tui.ui.screens.puzzles" in modules
    solver = {"c4tui.puzzles.making", "c4tui.ai.perfect", "c4tui.ai.solver", "numpy", "numba"}
    assert sorted(modules & solver) == []


def test_the_menu_up_to_its_first_frame_loads_nothing_it_does_not_need() -> None:
    """The real start (``c4tui``, no arguments), headless, until the menu is drawn.

    (The data folder is the test's own: conftest sets XDG_DATA_HOME for child processes.)
    """
    code = """
    from textual.app import App

    shown = []
    display = App._display

    def first_frame(self, screen, renderable):
        display(self, screen, renderable)
        if renderable is not None and not shown:
            shown.append(type(self.screen).__name__)
            print("frame of", shown[0], flush=True)
            self.exit()

    App._display = first_frame
    run = App.run
    App.run = lambda self, **kw: run(self, headless=True, size=(80, 24))
    from c4tui.cli import main

    main([])
    print("shown:", shown)
    """
    modules, output = loaded_modules(code)
    assert "frame of MenuScreen" in output
    assert "c4tui.ui.app" in modules
    assert sorted(modules.intersection(NOT_FOR_THE_MENU)) == []


@pytest.mark.parametrize(
    ("args", "stdin"),
    [
        (["--help"], ""),
        (["console", "--help"], ""),
        (["console"], ""),  # standard input closed at once: the first prompt, then goodbye
        (["console", "--columns", "7", "--rows", "6", "--opponent", "random"], "4\n"),
    ],
    ids=["help", "console-help", "console-no-input", "console-a-move"],
)
def test_the_command_line_and_the_console_never_load_textual(args: list[str], stdin: str) -> None:
    modules, output = loaded_modules(run_command(*args), stdin=stdin)
    assert "c4tui.cli" in modules
    if "--help" in args:
        assert "usage: c4tui" in output
    else:
        assert "goodbye" in output  # it ran, and ended at the end of its input
    assert sorted(name for name in modules if name.split(".")[0] == "textual") == []


def test_help_loads_no_server_and_no_protocol() -> None:
    modules, _ = loaded_modules(run_command("--help"))
    assert "c4tui.cli" in modules
    assert sorted(modules.intersection(NOT_FOR_THE_MENU)) == []


#: What only ``c4tui admin``'s acts load: the store and its engines (§7).
THE_STORE = [
    "c4tui.server.admin",
    "c4tui.server.store",
    "c4tui.server.stores",
    "c4tui.server.sql_store",
    "c4tui.server.sqlite_store",
    "c4tui.server.sql_public",
    "bcrypt",
    "sqlite3",
    "psycopg",
]


@pytest.mark.parametrize("args", [["--help"], ["admin", "--help"], ["admin", "ban", "--help"]])
def test_help_loads_no_store(args: list[str]) -> None:
    modules, output = loaded_modules(run_command(*args))
    assert "usage: c4tui" in output
    assert sorted(modules.intersection(THE_STORE)) == []


def test_the_probe_sees_the_store_that_admin_loads() -> None:
    """The check itself works: an act of ``c4tui admin`` does load the store."""
    modules, output = loaded_modules(run_command("admin", "--db", "/nonexistent", "reports"))
    assert "no database at /nonexistent" in output
    assert {"c4tui.server.admin", "c4tui.server.store", "sqlite3"} <= modules


# ----- what the lazy declarations repeat must agree with the protocols ----------------


def test_client_protocol_declarations_agree_with_their_protocols() -> None:
    """Forms describe the protocols without loading them; the numbers are the protocols' own."""
    assert CLIENT_PROTOCOLS["c4n"].only_size == (c4n.COLUMNS, c4n.ROWS)
    assert CLIENT_PROTOCOLS["cfsp"].rules == (cfsp.RULES,)
    assert {key: game.protocol for key, game in GAMES.items()} == CLIENT_PROTOCOLS
    specs = {key: GAMES[key].spec for key in CLIENT_PROTOCOLS}
    assert specs == {"i32cfsp": i32cfsp.SPEC, "cfsp": cfsp.SPEC, "c4n": c4n.SPEC}


def test_the_limits_are_the_ones_the_protocols_and_the_server_use() -> None:
    name = "x" * limits.MAX_USERNAME
    assert i32cfsp.valid_username(name)
    assert not i32cfsp.valid_username(name + "x")
    config = ServerConfig()
    assert config.idle_timeout == limits.DEFAULT_IDLE_TIMEOUT
    assert config.max_rooms == limits.MAX_ROOMS
    assert config.max_connections == server_limits.DEFAULT_MAX_CONNECTIONS
    assert config.max_per_address == server_limits.DEFAULT_MAX_PER_ADDRESS
    assert config.bcrypt_rounds == server_limits.DEFAULT_ROUNDS


@pytest.mark.parametrize(("environment", "expected"), [({}, 120), ({"TEXTUAL_FPS": "30"}, 30)])
def test_the_app_draws_at_c4tuis_frame_rate_unless_told_otherwise(
    environment: dict[str, str], expected: int
) -> None:
    """The frame cap is set before Textual loads (it reads it once, at import)."""
    code = (
        "from c4tui.cli.app import use_frame_rate\n"
        "use_frame_rate()\n"
        "from c4tui.ui.app import C4App\n"
        "import textual.constants\n"
        "print(textual.constants.MAX_FPS)\n"
    )
    env = {k: v for k, v in os.environ.items() if k != "TEXTUAL_FPS"} | environment
    command = [sys.executable, "-c", code]
    result = subprocess.run(command, check=True, capture_output=True, text=True, env=env)
    assert result.stdout.strip() == str(expected), result.stderr
