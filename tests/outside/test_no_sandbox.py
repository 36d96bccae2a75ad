"""Where no sandbox can be had: other people's programs are refused in one line, unless the
person takes the risk (``--unconfined``); your own program runs, with a one-line warning.

``C4TUI_BWRAP`` names a bubblewrap that is not there: the machine without it.
"""

from __future__ import annotations

import os

import pytest

from c4tui.outside.sandbox import BWRAP_VARIABLE
from tests.outside.helpers import engine_command
from tests.process_helpers import run_c4tui

#: c4tui's environment on a machine without bubblewrap.
WITHOUT = {**os.environ, BWRAP_VARIABLE: "/nonexistent/bwrap"}
ENGINE = f"engine:{engine_command()}"


def refused_in_one_line(stderr: str, command: str) -> None:
    """The refusal: one line, naming what to install and how to take the risk."""
    lines = stderr.strip().splitlines()
    assert len(lines) == 1, stderr
    assert lines[0].startswith(f"c4tui {command}: error: other people's programs run only in a")
    assert "apt-get install bubblewrap" in lines[0] and "--unconfined" in lines[0]


@pytest.mark.parametrize(
    ("command", "args"),
    [
        ("tournament", ("easy", ENGINE, "--games", "1")),
        ("bot", ("--lobby", "127.0.0.1:1", "--user", "robo", "--engine", engine_command())),
        ("serve", ("--port", "0", "--ai", ENGINE)),
    ],
)
def test_other_peoples_programs_are_refused_in_one_line(command: str, args: tuple[str]) -> None:
    run = run_c4tui(command, *args, env={**WITHOUT, "C4TUI_PASSWORD": "secret"}, timeout=60)
    assert run.returncode == 2
    assert run.stdout == ""  # (nothing started: not even the tournament's seed)
    refused_in_one_line(run.stderr, command)


def test_a_tournament_of_levels_needs_no_sandbox_and_unconfined_is_said() -> None:
    levels = run_c4tui("tournament", "easy", "random", "--games", "1", env=WITHOUT, timeout=120)
    assert levels.returncode == 0, levels.stderr
    risked = run_c4tui(
        "tournament", "easy", ENGINE, "--games", "1", "--movetime", "200", "--unconfined",
        env=WITHOUT, timeout=120,
    )  # fmt: skip
    assert risked.returncode == 0, risked.stderr
    assert "warning: --unconfined: the programs run without the sandbox" in risked.stderr


def test_your_own_program_in_the_console_runs_unconfined_with_a_warning() -> None:
    run = run_c4tui(
        "console", "--opponent", ENGINE, "--columns", "7", "--rows", "6",
        stdin="4\nquit\n", env=WITHOUT, timeout=60,
    )  # fmt: skip
    warnings = [line for line in run.stderr.splitlines() if line.startswith("Warning:")]
    assert warnings == [
        "Warning: No sandbox here (bubblewrap is not installed: apt-get install bubblewrap): "
        "your program runs unconfined, with your files."
    ]
    assert "vs engine tiny_engine.py" in run.stdout  # and the game went on
