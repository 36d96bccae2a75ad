"""The ``c4tui`` command line: the top-level parser, and the dispatch to one module per command.

Each command's module (``console.py``, ``serve.py``...; ``app.py`` for no command)
declares its options and sets itself as the parser's ``run`` default, so ``main``
only parses and calls ``args.run``. Those modules load only what parsing needs; each
``run`` loads its front end or service when the command runs (the console's two front
ends, the app's ``open_app``, each its own), and nowhere else, so ``c4tui --help`` and
``c4tui console`` never load Textual, and the app's menu never loads the server or the
protocols.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence

from c4tui import __version__
from c4tui.cli import (
    admin,
    app,
    bot,
    columns,
    console,
    engine,
    puzzles,
    replay,
    review,
    serve,
    solve,
    tictactoe,
    tournament,
    web,
)


def build_parser() -> argparse.ArgumentParser:
    """The parser for every subcommand (kept separate so tests can inspect it)."""
    parser = argparse.ArgumentParser(
        prog="c4tui",
        description="Connect Four (classic and Pop Out) for the terminal. Without a command, "
        "opens the full-screen app.",
    )
    parser.add_argument("--version", action="version", version=f"c4tui {__version__}")
    app.add_arguments(parser)
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    console.add_parser(commands)
    serve.add_parser(commands)
    solve.add_parser(commands)
    replay.add_parser(commands)
    review.add_parser(commands)
    puzzles.add_parser(commands)
    web.add_parser(commands)
    columns.add_parser(commands)
    tictactoe.add_parser(commands)
    bot.add_parser(commands)
    engine.add_parser(commands)
    tournament.add_parser(commands)
    admin.add_parser(commands)
    # The app runs without a command: argparse would show COMMAND as required.
    parser.usage = optional_command(parser.format_usage())
    # An unknown argument is refused with the usage of the command it was given to.
    parser.set_defaults(command_parser=parser)
    for command in commands.choices.values():
        command.set_defaults(command_parser=command)
    return parser


def optional_command(usage: str) -> str:
    """argparse's ``usage: c4tui … COMMAND ...`` with the command shown as optional."""
    return usage.removeprefix("usage: ").rstrip().replace("COMMAND ...", "[COMMAND ...]")


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the process exit status."""
    args, unknown = build_parser().parse_known_args(argv)
    if unknown:  # argparse would show c4tui's usage, not the command's (solve's, say)
        command_parser: argparse.ArgumentParser = args.command_parser
        command_parser.error(f"unrecognized arguments: {' '.join(unknown)}")
    command: Callable[[argparse.Namespace], int] = args.run
    return command(args)
