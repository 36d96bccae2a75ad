"""The command line: help for every option, and refusals without tracebacks."""

from __future__ import annotations

import contextlib
import os
import pty
import re
import subprocess
import sys

import pytest

from c4tui.cli import build_parser, main
from tests.process_helpers import run_c4tui
from tests.test_interrupt import _read_until


def test_console_help_explains_every_option() -> None:
    result = run_c4tui("console", "--help")
    assert result.returncode == 0
    console = build_parser(every_command=True)._subparsers._group_actions[0].choices["console"]  # type: ignore[union-attr]
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


@pytest.mark.parametrize(
    "args",
    [
        ["serve", "--max-connections", "inf"],
        ["serve", "--max-connections", "0.5"],
        ["serve", "--max-connections", "0"],
        ["serve", "--max-per-address", "-3"],
        ["serve", "--idle-timeout", "inf"],
        ["serve", "--idle-timeout", "nan"],
        ["serve", "--idle-timeout", "0"],
        ["serve", "--port", "70000"],
        ["serve", "--port", "http"],
        ["serve", "--ai", "grandmaster"],
        ["console", "--seed", "lucky"],
        ["console", "--connect", "localhost:99999"],
        ["console", "--connect", "localhost"],
        ["console", "--connect", "[::1]:0"],
        ["console", "--user", "two words"],
        ["console", "--opponent", "genius"],
        ["console", "--color", "blue"],
    ],
    ids=" ".join,
)
def test_bad_numbers_and_names_are_one_line_usage_errors(args: list[str]) -> None:
    result = run_c4tui(*args)
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    errors = [line for line in result.stderr.splitlines() if "error:" in line]
    assert len(errors) == 1 and f"argument {args[1]}" in errors[0], result.stderr


def test_console_offers_every_level_and_both_colours() -> None:
    result = run_c4tui(
        "console", "--opponent", "medium", "--color", "yellow", "--columns", "4", "--rows", "4",
        stdin="",
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert "RED (computer): drop in column" in result.stdout  # it opened, as RED
    assert "End of input: goodbye." in result.stdout


@pytest.mark.parametrize("command", [["console"], []], ids=["console", "app"])
@pytest.mark.parametrize("args", [[], ["--opponent", "human"]], ids=" ".join)
def test_yellow_without_a_computer_is_refused_alike_by_the_app_and_the_console(
    command: list[str], args: list[str]
) -> None:
    """Issue 40 #8: the app took ``--color yellow`` alone, and the console refused it."""
    result = run_c4tui(*command, "--color", "yellow", *args, "--columns", "4", "--rows", "4")
    assert result.returncode == 2
    prog = " ".join(["c4tui", *command])
    assert result.stderr.splitlines()[-1] == (
        f"{prog}: error: --color yellow needs --opponent (a level or a program to play red): "
        "two players at one keyboard take turns with RED first"
    )


def test_console_refuses_yellow_with_a_server() -> None:
    result = run_c4tui(
        "console", "--color", "yellow", "--opponent", "hard", "--connect", "127.0.0.1:1"
    )
    assert result.returncode == 2
    assert result.stderr.splitlines()[-1] == (
        "c4tui console: error: --color yellow does not go with --connect: the server decides "
        "who plays which"
    )


def test_console_plays_classic_rules_unless_told_like_the_app() -> None:
    result = run_c4tui("console", "--columns", "4", "--rows", "4", stdin="")
    assert "4 x 4 board, classic rules (drop a disc), two players." in result.stdout
    assert "default: classic" in run_c4tui("console", "--help").stdout


def test_console_help_lists_the_protocols_as_sentences() -> None:
    text = " ".join(run_c4tui("console", "--help").stdout.split())
    assert ".;" not in text
    assert "c4tui serve's own. cfsp: ICS 32's later protocol" in text
    assert text.count("Default: i32cfsp.") == 1


def test_the_apps_options_choose_the_game_and_open_it_at_once() -> None:
    from c4tui.cli import build_parser
    from c4tui.cli.app import app_settings
    from c4tui.engine import Player, Rules

    args = build_parser().parse_args(
        ["--columns", "9", "--rules", "popout", "--opponent", "hard", "--color", "yellow"]
    )
    settings, at_once = app_settings(args)
    assert at_once
    assert (settings.columns, settings.rows, settings.rules) == (9, 6, Rules.POPOUT)
    assert settings.opponent == "computer" and settings.options == {"level": "hard"}
    assert settings.person_colour is Player.YELLOW
    settings, at_once = app_settings(build_parser().parse_args([]))
    assert not at_once and settings.opponent == "human"


def test_web_without_the_web_extra_says_how_to_get_it(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import sys

    monkeypatch.setitem(sys.modules, "c4tui.web.server", None)  # as if textual-serve were absent
    assert main(["web"]) == 2
    assert "pip install '.[web]'" in capsys.readouterr().err


def test_columns_opens_the_game_in_the_app_in_a_real_terminal() -> None:
    """``c4tui columns`` (no --shell) shows the Columns setup over the menu; Ctrl+Q quits."""
    pid, terminal = pty.fork()
    if pid == 0:  # the child: a terminal of its own, as a person's
        os.execv(sys.executable, [sys.executable, "-m", "c4tui", "columns"])
    try:
        shown = _read_until(terminal, b"jewels", seconds=30)
        words = re.sub(rb"\x1b\[[0-9;?]*[A-Za-z]", b"", shown)
        assert b"Columns" in words
        os.write(terminal, b"\x11")  # Ctrl+Q
        _, status = os.waitpid(pid, 0)
        assert os.waitstatus_to_exitcode(status) == 0
    finally:
        with contextlib.suppress(ProcessLookupError, ChildProcessError):
            os.kill(pid, 9)
            os.waitpid(pid, 0)
        os.close(terminal)


@pytest.mark.parametrize(
    "args",
    [
        ["console", "--seed", "٣"],  # an Arabic-Indic three: int() reads it, we do not
        ["solve", "--columns", "７"],  # a fullwidth seven
        ["serve", "--bcrypt-rounds", "1_0"],
    ],
)
def test_numbers_on_the_command_line_are_ascii_digits_only(args: list[str]) -> None:
    result = run_c4tui(*args)
    assert result.returncode == 2
    assert "must be a whole number" in result.stderr


def test_the_usage_shows_the_command_as_optional_and_every_option_says_what_it_is() -> None:
    """Issue 40 #19: ``c4tui --help`` showed ``COMMAND ...`` as required (the app needs
    none), and ``c4tui bot --help`` left ``--lobby`` without a word."""
    usage = run_c4tui("--help").stdout
    assert "[COMMAND ...]" in usage and " COMMAND ...\n" not in usage.split("\n\n")[0]
    bot = run_c4tui("bot", "--help").stdout
    assert "the lobby server to sit in" in " ".join(bot.split())


@pytest.mark.parametrize("command", [["console"], []], ids=["console", "app"])
@pytest.mark.parametrize("value", ["0.5", "0+0", "0.05+1", "61+0", "3+61", "fast", "3:2"])
def test_a_clock_that_will_not_do_is_refused_saying_what_will(
    command: list[str], value: str
) -> None:
    """Issue 40, clocks at home: ``--clock`` takes minutes+seconds, whole or 0.5 minutes."""
    result = run_c4tui(*command, "--clock", value)
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert (
        f"argument --clock: {value!r} is not a clock: give minutes+seconds, e.g. 3+2 or 0.5+0"
        in (result.stderr)
    )


@pytest.mark.parametrize("server", ["--connect", "--lobby"])
def test_the_console_refuses_a_clock_for_a_servers_game(server: str) -> None:
    result = run_c4tui("console", "--clock", "3+2", server, "127.0.0.1:1", "--user", "ann")
    assert result.returncode == 2
    assert result.stderr.splitlines()[-1].startswith(
        "c4tui console: error: --clock is for games here: with --connect or --lobby the server "
        "keeps the time"
    )


def test_the_apps_clock_opens_a_timed_game_at_once() -> None:
    from c4tui.cli.app import app_settings
    from c4tui.match.timing import HomeClock

    settings, at_once = app_settings(build_parser().parse_args(["--clock", "0.5+0"]))
    assert at_once and settings.clock == HomeClock(30_000, 0)
    assert app_settings(build_parser().parse_args([]))[0].clock is None


def test_a_console_game_on_the_clock_shows_both_times_and_takes_nothing_back() -> None:
    result = run_c4tui(
        "console", "--clock", "3+2", "--opponent", "random", "--columns", "4", "--rows", "4",
        stdin="1\nundo\nhelp\n",
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert "vs computer (Random), on the clock (3+2). RED moves first." in result.stdout
    # RED's time has run a moment by the time it is printed; YELLOW's stands at 3:00.0
    assert re.search(
        r"Clocks: RED You (3:00\.0|2:59\.\d) · YELLOW Computer \(Random\) 3:00\.0", result.stdout
    )
    assert "Undo is not possible in a timed game: the clocks cannot give time back." in (
        result.stdout
    )
    assert "undo (take back" not in result.stdout  # help leaves it out


def test_a_console_player_who_waits_too_long_loses_on_time() -> None:
    """Nothing typed (the input stays open): RED's six seconds run out and the game ends."""
    game = subprocess.Popen(
        [sys.executable, "-m", "c4tui", "console", "--clock", "0.1+0", "--columns", "4",
         "--rows", "4"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    assert game.stdin is not None and game.stdout is not None
    try:
        shown = _read_until(game.stdout.fileno(), b"Play again? [y/N]", seconds=60)
        game.stdin.write(b"n\n")
        game.stdin.close()
        assert game.wait(timeout=30) == 0
    finally:
        game.kill()
    assert b"Red ran out of time: Yellow wins." in shown
    assert b"Clocks: RED Player 1 0:00.0 \xc2\xb7 YELLOW Player 2 0:06.0" in shown
