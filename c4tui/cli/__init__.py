"""The ``c4tui`` command line: the top-level parser, and the dispatch to one module per command.

Each command's module (``console.py``, ``serve.py``...; ``app.py`` for no command)
declares its options and sets itself as the parser's ``run`` default, so ``main``
only parses and calls ``args.run``. A command's module loads only when the command is
given (``COMMANDS`` holds the lines of ``c4tui --help``); it loads only what parsing needs; each
``run`` loads its front end or service when the command runs (the console's two front
ends, the app's ``open_app``, each its own), and nowhere else, so ``c4tui --help`` and
``c4tui console`` never load Textual, and the app's menu never loads the server or the
protocols.
"""

from __future__ import annotations

import argparse
import importlib
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from c4tui import __version__
from c4tui.cli import app

#: The commands, in ``c4tui --help``'s order, each with its line there. Command NAME's
#: options are declared by ``c4tui.cli.NAME``, which loads only when NAME is given.
COMMANDS: dict[str, str] = {
    "console": "play in plain text, line by line (scripts, screen readers, dumb terminals)",
    "serve": "run a Connect Four server that players connect to (I32CFSP, CFSP, C4N)",
    "solve": "print the exact score of positions given or read from standard input",
    "replay": "step through a saved game, or a lobby server's finished game, in the app",
    "review": "judge every move of a saved game: best, inaccuracy, mistake or blunder",
    "puzzles": "make or export proven puzzles (one move wins, or one move holds)",
    "web": "serve the app to web browsers "
    "(needs the web extra: python3 -m pip install '.[web]' in c4tui's folder)",
    "columns": "Columns, the falling-jewels game (--shell: the ICS 32 handout's test shell)",
    "tictactoe": "play tic-tac-toe in the rooms of an INFO1112 server "
    "(c4tui serve --tictactoe-port)",
    "bot": "sit in a lobby as a bot account and play whoever challenges it",
    "engine": "speak the engine protocol on standard input and output (for tournaments)",
    "tournament": "play a round robin or a gauntlet between levels, engines and Kaggle agents",
    "admin": "moderate a lobby from its database: roles, bans, mutes, reports, deletion, export",
}


if TYPE_CHECKING:  # generic only in typeshed
    _SubParsers = argparse._SubParsersAction[argparse.ArgumentParser]
else:
    _SubParsers = argparse._SubParsersAction


class _Commands(_SubParsers):
    """The subcommands: each one's parser gets its options only once it is given.

    So ``c4tui`` (the app) and ``c4tui console`` load no other command's module, nor
    what its options need (the server's settings, the moderation words…): a few
    milliseconds of the app's start, and its parser takes a fifth of the time.
    """

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: str | Sequence[Any] | None,
        option_string: str | None = None,
    ) -> None:
        if values and values[0] in COMMANDS:  # the command's name, then its arguments
            _declared(self.choices[values[0]], values[0])
        super().__call__(parser, namespace, values, option_string)


class _Declaring:
    """The ``CommandTable`` a command's module declares itself in: its parser, made already."""

    def __init__(self, parser: argparse.ArgumentParser) -> None:
        self._parser = parser

    def add_parser(self, name: str, **settings: Any) -> argparse.ArgumentParser:
        for setting, value in settings.items():  # description, epilog, allow_abbrev
            setattr(self._parser, setting, value)
        return self._parser


def _declared(command: argparse.ArgumentParser, name: str) -> None:
    """Give ``command`` (NAME's parser) its options, unless it has them already."""
    if command.get_default("run") is None:
        importlib.import_module(f"c4tui.cli.{name}").add_parser(_Declaring(command))


def build_parser(*, every_command: bool = False) -> argparse.ArgumentParser:
    """The parser of the app's options and of every command (kept separate for tests).

    A command's options are declared when it is parsed, or at once for
    ``every_command`` (to look at them without parsing).
    """
    parser = argparse.ArgumentParser(
        prog="c4tui",
        description="Connect Four (classic and Pop Out) for the terminal. Without a command, "
        "opens the full-screen app.",
    )
    parser.add_argument("--version", action="version", version=f"c4tui {__version__}")
    app.add_arguments(parser)
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", action=_Commands)
    for name, line in COMMANDS.items():
        commands.add_parser(name, help=line)
    # The app runs without a command: argparse would show COMMAND as required.
    parser.usage = optional_command(parser.format_usage())
    # An unknown argument is refused with the usage of the command it was given to.
    parser.set_defaults(command_parser=parser)
    for name, command in commands.choices.items():
        command.set_defaults(command_parser=command)
        if every_command:
            _declared(command, name)
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
