"""``c4tui replay FILE|DIGITS``: a saved game (or a solver's digit string) in the app's review."""

from __future__ import annotations

import argparse
from pathlib import Path

from c4tui.cli.app import open_app
from c4tui.cli.types import usage_error
from c4tui.numbers import ascii_digits


def add_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register ``replay``, its argument and its ``run``."""
    replay = commands.add_parser(
        "replay",
        help="step through a saved game in the app (and play on from any move)",
        description="Open a game record (saved with s in the app) or a solver's digit string "
        "(4453...: 1-based columns, 7 x 6 classic) in the app's review mode: left and right "
        "step through the moves, Home and End jump, c plays on from the move shown.",
    )
    replay.add_argument("game", metavar="FILE|DIGITS", help="a .c4g record, or digits")
    replay.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Read the game, then open the app on it; a game that cannot be read is a usage error.

    The records load only now (and Textual with the app, in ``open_app``).
    """
    from c4tui.records import RecordError, parse_record, store  # noqa: PLC0415

    path = Path(args.game).expanduser()
    try:
        if path.is_file():
            review = store.read_record(path)
        elif ascii_digits(args.game.strip()):
            review = parse_record(args.game)
        else:
            raise RecordError(f"no such file: {args.game}")
    except RecordError as error:
        usage_error("replay", str(error))
    return open_app(args, review=review)
