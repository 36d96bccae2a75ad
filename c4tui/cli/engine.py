"""``c4tui engine``: c4tui's levels as a program speaking the engine protocol (spec §6).

Any tool that drives engines (c4tui's own tournament, a student's referee) can
run ``c4tui engine --level hard`` as a player; it is also the reference answer for
people writing an engine (``c4tui/protocols/PROTOCOL.md``). The conversation is
``outside/speaker.py``, loaded when the command runs.
"""

from __future__ import annotations

import argparse

from c4tui.ai.levels import AI_LEVELS
from c4tui.cli.types import CommandTable

#: The strongest level: proven moves where the solver proves every position, else a search.
DEFAULT_LEVEL = "perfect"


def add_parser(commands: CommandTable) -> None:
    """Register ``engine``, its options and its ``run``."""
    engine = commands.add_parser(
        "engine",
        description="Play as an engine: read the engine protocol's commands (c4e, newgame, "
        "position, go [movetime MS], isready, quit) on standard input and answer on standard "
        "output, one line each. 'go movetime MS' is answered within MS; 'go' alone takes the "
        "level's own time. Lines it cannot take are answered with an 'info string' remark and "
        "ignored. See c4tui/protocols/PROTOCOL.md, 'The engine protocol'.",
    )
    engine.add_argument(
        "--level",
        choices=[level.key for level in AI_LEVELS],
        default=DEFAULT_LEVEL,
        help=f"the level that plays (default {DEFAULT_LEVEL}: proven moves on 7 × 6 and most "
        "classic boards of up to 42 cells)",
    )
    engine.add_argument(
        "--seed", type=int, default=None, help="make the level's random choices repeatable"
    )
    engine.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Answer standard input's commands until ``quit`` or its end."""
    from c4tui.outside.speaker import speak  # noqa: PLC0415 (loaded only to play)

    return speak(args.level, args.seed)
