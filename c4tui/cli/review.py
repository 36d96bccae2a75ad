"""``c4tui review FILE|DIGITS``: every move of a game judged, and each player's accuracy.

The game is read as ``replay`` reads it (``replay.game_given``). The judging is
``ai.game_review``: proven by the solver where it proves every position, the
search's estimates elsewhere. It loads the solver (NumPy, Numba) in this process, only
when the command runs; no event loop runs here, so the search pool is not needed.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from c4tui.cli.replay import game_given
from c4tui.cli.types import INTERRUPTED, CommandTable

#: Exit status when the annotated record cannot be written (a game that cannot be read is 2).
CANNOT_SAVE = 1

if TYPE_CHECKING:
    from c4tui.ai.review_verdicts import GameReview
    from c4tui.records import GameRecord


def add_parser(commands: CommandTable) -> None:
    """Register ``review``, its arguments and its ``run``."""
    review = commands.add_parser(
        "review",
        description="Judge every move of a game record (saved with s in the app) or a "
        "solver's digit string (4453...: 1-based columns, 7 x 6 classic) by what it did to "
        "the outcome its player could force: best; an inaccuracy (a slower win or a faster "
        "loss); a mistake (a win thrown to a draw, a draw to a loss); a blunder (a win "
        "thrown to a loss). Prints one line a move with the best moves beside any that was "
        "not, then each player's accuracy: the share of their moves that were best, an "
        "inaccuracy counting one half. Proven by the solver on 7 x 6 classic; elsewhere "
        "the search's verdicts, marked as estimates.",
    )
    review.add_argument("game", metavar="FILE|DIGITS", help="a .c4g record, or digits (4453)")
    review.add_argument(
        "--json",
        action="store_true",
        help='print {"moves": [{"ply", "move", "mover", "verdict", "score_before", '
        '"score_after", "best"}, ...], "accuracy": {"red", "yellow"}}; scores are the '
        "solver's, from the mover's side (positive a win), null where unproven",
    )
    review.add_argument(
        "--annotate",
        metavar="FILE",
        type=Path,
        help="also save the game as a record in FILE with the verdicts as annotations",
    )
    review.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Read the game, judge its moves, print the verdicts (and save them with ``--annotate``).

    Ctrl-C while the solver loads or works ends with one line and status 130.
    """
    try:
        record = game_given("review", args.game)
        review = _reviewed(record)
    except KeyboardInterrupt:
        sys.stderr.write("c4tui review: interrupted; nothing was reviewed.\n")
        return INTERRUPTED
    return _said(args, record, review)


def _said(args: argparse.Namespace, record: GameRecord, review: GameReview) -> int:
    """Print the review (as JSON with ``--json``), and save it with ``--annotate``."""
    from c4tui.ai.review_verdicts import review_json, review_lines  # noqa: PLC0415

    if args.json:
        print(json.dumps(review_json(review)))
    else:
        print("\n".join(review_lines(review)))
    if args.annotate is not None:
        return _annotate(args.annotate.expanduser(), record, review, quiet=args.json)
    return 0


def _annotate(path: Path, record: GameRecord, review: GameReview, *, quiet: bool) -> int:
    """Save ``record`` in ``path`` (whole or not at all) with the review as its annotations.

    Says so unless ``quiet`` (``--json``'s output is only the JSON); a file that cannot
    be written is said on standard error, exit status 1.
    """
    from c4tui.ai.review_verdicts import review_annotations  # noqa: PLC0415
    from c4tui.records import format_record  # noqa: PLC0415
    from c4tui.storage import write_atomically  # noqa: PLC0415

    annotated = replace(record, comments=review_annotations(review, record.comments))
    try:
        write_atomically(path, format_record(annotated))
    except OSError as error:
        sys.stderr.write(f"c4tui review: cannot save {path}: {error}\n")
        return CANNOT_SAVE
    if not quiet:
        print(f"Saved the game with its review as {path} (c4tui replay {path} opens it).")
    return 0


def _reviewed(record: GameRecord) -> GameReview:
    """The review of ``record``'s moves, from its board's empty position (loads the solver)."""
    from c4tui.ai.game_review import review_game  # noqa: PLC0415 (loads the solver)
    from c4tui.engine import GameState  # noqa: PLC0415

    return review_game(GameState.new(record.columns, record.rows, record.rules), record.moves)
