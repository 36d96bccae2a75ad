"""The command line: help for every option, and refusals without tracebacks."""

from __future__ import annotations

import pytest

from c4tui.cli import build_parser
from tests.process_helpers import run_c4tui


def test_console_help_explains_every_option() -> None:
    result = run_c4tui("console", "--help")
    assert result.returncode == 0
    console = build_parser()._subparsers._group_actions[0].choices["console"]  # type: ignore[union-attr]
    for action in console._actions:
        for flag in action.option_strings:
            assert flag in result.stdout
        assert action.help, f"{action.option_strings} has no help text"
    assert "p 3" in result.stdout


def test_top_level_help_lists_the_console_command() -> None:
    result = run_c4tui("--help")
    assert result.returncode == 0
    assert "console" in result.stdout
    assert "--ascii" in result.stdout
    assert "full-screen app" in result.stdout


@pytest.mark.parametrize("value", ["3", "21", "seven", "-4", "7.5"])
def test_bad_size_on_the_command_line_is_a_clear_error(value: str) -> None:
    result = run_c4tui("console", "--columns", value)
    assert result.returncode == 2
    assert "must be a whole number from 4 to 20" in result.stderr
    assert "Traceback" not in result.stderr


def test_unknown_rules_are_refused_with_the_choices() -> None:
    result = run_c4tui("console", "--rules", "chess")
    assert result.returncode == 2
    assert "classic" in result.stderr and "popout" in result.stderr


def test_console_with_no_input_at_all_exits_cleanly() -> None:
    result = run_c4tui("console")
    assert result.returncode == 0
    assert "End of input: goodbye." in result.stdout
    assert result.stderr == ""
