"""``c4tui tournament``: a round robin or a gauntlet between levels, engines and Kaggle agents.

This module only declares the command line; the playing (the search pool, the
programs, the live view) is ``cli/touring.py``, loaded when the command runs.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from c4tui.cli.confine import add_confinement_options
from c4tui.cli.types import CommandTable, board_size, number_from, positive_count, signed_number
from c4tui.engine import Rules
from c4tui.match.backends.program import KAGGLE_SUBMISSIONS

#: ``--movetime``'s range in milliseconds (a program gets its fixed margin on top).
MOVETIME_RANGE = (50, 600_000)
#: ``--openings``' range in plies.
OPENING_PLIES_RANGE = (0, 20)


def add_parser(commands: CommandTable) -> None:
    """Register ``tournament``, its options and its ``run``."""
    tournament = commands.add_parser(
        "tournament",
        description="Every player meets every other one (--gauntlet: the first meets all "
        "others) in --games games, each opening played with both colours; then the standings "
        "with Elo and each program's failures. A program that crashes, hangs, answers late or "
        "plays an illegal move loses that game only. With --out DIR every game is saved, with "
        "DIR/results.json after every game; Ctrl-C stops, and --resume DIR plays the rest.",
        epilog="PLAYER is a level (random, easy, medium, hard, perfect), engine:COMMAND (a "
        f"program speaking the engine protocol) or kaggle:AGENT (a ConnectX agent: "
        f"{KAGGLE_SUBMISSIONS}; a bare FILE.py or FILE.tar.gz is one too), with "
        "NAME= in front to name it: ann=kaggle:ann.py. NAME is 1 to 32 of A-Z, a-z, 0-9, _, "
        ". and - (no space, no slash: it names the player's log and game files); the first = "
        "ends it, unless a : comes before it (engine:./deep --depth=8 has no NAME). Players "
        "whose names come out the same are told apart with -2, -3…; the same NAME= given "
        "twice is refused.",
    )
    tournament.add_argument(
        "players",
        nargs="*",
        metavar="PLAYER",
        help="two or more: a level, engine:COMMAND or kaggle:AGENT, with NAME= to name it",
    )
    tournament.add_argument(
        "--gauntlet",
        action="store_true",
        default=None,
        help="the first player against each other one (default: everyone against everyone)",
    )
    tournament.add_argument(
        "--games",
        type=positive_count,
        metavar="N",
        help="games per pairing (default 2); each opening is played twice, once with each "
        "colour; an odd number plays the last opening once, the pairings taking turns at red",
    )
    tournament.add_argument(
        "--openings",
        type=number_from(*OPENING_PLIES_RANGE),
        metavar="PLIES",
        help="moves each game starts with: on 7 × 6 classic drawn from openings the solver "
        "proves balanced, elsewhere random legal moves (default: 0 with --games 1 or 2, "
        "the empty board; 4 with more games, so the openings differ)",
    )
    tournament.add_argument(
        "--movetime",
        type=number_from(*MOVETIME_RANGE),
        metavar="MS",
        help="milliseconds per move (default 1000); a program's answer may come half a "
        "second later before it loses on time",
    )
    tournament.add_argument(
        "--concurrency",
        type=positive_count,
        metavar="K",
        help="games played at once (default: the number of cores)",
    )
    tournament.add_argument("--columns", type=board_size, help="board width (default 7)")
    tournament.add_argument("--rows", type=board_size, help="board height (default 6)")
    tournament.add_argument(
        "--rules",
        choices=[rules.value for rules in Rules],
        help="classic (the default) or popout (Kaggle agents play classic only)",
    )
    tournament.add_argument(
        "--seed",
        type=signed_number,
        help="makes the schedule, the openings and the levels' choices repeatable "
        "(default: a random one, shown at the start)",
    )
    tournament.add_argument(
        "--out",
        type=Path,
        metavar="DIR",
        help="save every game (DIR/games/), DIR/results.json and the programs' standard "
        "error (DIR/logs/); default: nothing is kept, the programs' standard error neither",
    )
    tournament.add_argument(
        "--resume",
        type=Path,
        metavar="DIR",
        help="play the games still missing in a tournament saved with --out DIR, with its "
        "players and options (--concurrency may change)",
    )
    add_confinement_options(tournament)
    tournament.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Play the tournament; 0 when every game was played, 130 when interrupted, 2 for usage."""
    from c4tui.cli.touring import run_tournament  # noqa: PLC0415 (the pool and programs load here)

    return run_tournament(args)
