"""The ``c4tui`` command line: one subcommand per front end or service."""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from c4tui import __version__
from c4tui.console.game import ConsoleSettings, run_console
from c4tui.engine import MAX_SIZE, MIN_SIZE, Rules, parse_size


def board_size(text: str) -> int:
    """argparse type for --columns/--rows: a whole number in the allowed range."""
    size = parse_size(text)
    if size is None:
        raise argparse.ArgumentTypeError(
            f"must be a whole number from {MIN_SIZE} to {MAX_SIZE}, not {text!r}"
        )
    return size


def build_parser() -> argparse.ArgumentParser:
    """The parser for every subcommand (kept separate so tests can inspect it)."""
    parser = argparse.ArgumentParser(
        prog="c4tui",
        description="Connect Four (classic and Pop Out) for the terminal. Without a command, "
        "opens the full-screen app.",
    )
    parser.add_argument("--version", action="version", version=f"c4tui {__version__}")
    parser.add_argument(
        "--ascii",
        action="store_true",
        help="draw the full-screen app with plain ASCII characters (for limited fonts)",
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    _add_console_command(commands)
    return parser


def _add_console_command(commands: argparse._SubParsersAction) -> None:
    console = commands.add_parser(
        "console",
        help="play in plain text, line by line (scripts, screen readers, dumb terminals)",
        description=(
            "Play Connect Four in plain text. Each turn the board and whose turn it is are "
            "printed; type a column number (3 or d 3) to drop a disc, p 3 to pop your own "
            "disc out of the bottom of column 3 (Pop Out rules). Ctrl-D ends the game."
        ),
    )
    console.add_argument(
        "--columns",
        type=board_size,
        help=f"board width, {MIN_SIZE}-{MAX_SIZE} (asked for if omitted)",
    )
    console.add_argument(
        "--rows",
        type=board_size,
        help=f"board height, {MIN_SIZE}-{MAX_SIZE} (asked for if omitted)",
    )
    console.add_argument(
        "--rules",
        choices=[rules.value for rules in Rules],
        default=Rules.POPOUT.value,
        help="classic (drops only) or popout (you may also pop your own bottom disc); "
        "default: %(default)s",
    )
    console.add_argument(
        "--opponent",
        choices=["human", "random"],
        default="human",
        help="human: two players take turns at this keyboard; random: the computer plays "
        "YELLOW with random moves; default: %(default)s",
    )
    console.add_argument(
        "--seed", type=int, help="seed for the computer's random choices (repeatable games)"
    )


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the process exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command == "console":
        settings = ConsoleSettings(
            columns=args.columns,
            rows=args.rows,
            rules=Rules(args.rules),
            opponent=args.opponent,
            seed=args.seed,
        )
        return run_console(settings)
    from c4tui.ui.app import C4App  # noqa: PLC0415 (Textual loads only when the app runs)

    C4App(ascii_only=args.ascii).run()
    return 0
