"""The game choices the app and the console both take: rules, opponent, colour and clock.

Declared once so the two commands offer the same names, and read back into the
opponent registry's keys and options the same way.
"""

from __future__ import annotations

import argparse

from c4tui.engine import Player, Rules
from c4tui.match.backends import ComputerBackend, PersonBackend, ProgramBackend
from c4tui.match.backends.computer import LEVEL_OPTION
from c4tui.match.backends.program import (
    DEFAULT_MOVE_SECONDS,
    KAGGLE_SUBMISSIONS,
    MOVE_SECONDS_OPTION,
    PROGRAM_OPTION,
    parse_move_seconds,
    parse_program,
)
from c4tui.match.timing import CLOCK_FORMS, HomeClock, parse_home_clock

#: ``--opponent`` values: another person here, or the computer at each level.
LEVELS = [choice.value for choice in LEVEL_OPTION.choices]
#: ``--rules`` values.
RULES = [rules.value for rules in Rules]


def opponent_name(text: str) -> str:
    """``--opponent``'s type: a person, a level or an outside program (a Kaggle file that is there).

    Raises ArgumentTypeError saying what is wrong, which argparse shows as the usage error.
    """
    if text == PersonBackend.key:
        return text
    return program_or_level(text, f"{PersonBackend.key}, a level")


def program_or_level(text: str, others: str) -> str:
    """``text`` if it is a level or an outside program; else ArgumentTypeError in words.

    ``others`` names what else was accepted, for the refusal (``human, a level``).
    """
    if text in LEVELS:
        return text
    if text.endswith(".py") and ":" not in text:  # a bare agent file, as the tournament takes
        text = f"kaggle:{text}"
    if text.partition(":")[0] not in ("engine", "kaggle"):
        forms = f"{others} ({', '.join(LEVELS)}), engine:COMMAND or kaggle:AGENT"
        raise argparse.ArgumentTypeError(f"{text!r} will not do: give {forms}")
    try:
        return parse_program(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def move_seconds(text: str) -> float:
    """``--seconds``'s type: seconds a move, from 0.1 to 60."""
    try:
        return parse_move_seconds(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def clock_choice(text: str) -> HomeClock:
    """``--clock``'s type: ``3+2`` (minutes+seconds added a move), ``0.5+0``; else in words."""
    try:
        return parse_home_clock(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def add_opponent_options(
    parser: argparse._ActionsContainer, default_opponent: str | None, default_colour: str | None
) -> None:
    """``--opponent``, ``--seconds``, ``--color`` and ``--clock``, for the app and the console."""
    parser.add_argument(
        "--opponent",
        type=opponent_name,
        default=default_opponent,
        metavar="OPPONENT",
        help=f"{PersonBackend.key}: two players take turns at this keyboard (the default); "
        f"{', '.join(LEVELS)}: the computer at that level; engine:COMMAND: a program "
        f"speaking the engine protocol; kaggle:AGENT: a Kaggle ConnectX agent "
        f"({KAGGLE_SUBMISSIONS}; classic rules only)",
    )
    parser.add_argument(
        "--seconds",
        type=move_seconds,
        metavar="S",
        help=f"the time a program has for each move (default {DEFAULT_MOVE_SECONDS:g}); "
        "it loses the game when it takes longer",
    )
    parser.add_argument(
        "--color",
        "--colour",
        dest="colour",
        choices=["red", "yellow"],
        default=default_colour,
        help="your colour against the computer or a program (red, the default, moves first)",
    )
    parser.add_argument(
        "--clock",
        type=clock_choice,
        metavar="M+S",
        help=f"play on the clock: {CLOCK_FORMS}; the computer's thinking counts, and a "
        "player whose time runs out loses (no clock by default; none takes moves back)",
    )


def opponent_choice(name: str | None, seconds: float | None = None) -> tuple[str, dict[str, str]]:
    """``--opponent``'s value (and ``--seconds``) as a registry key and its options."""
    if name is None or name == PersonBackend.key:
        return PersonBackend.key, {}
    if name in LEVELS:
        return ComputerBackend.key, {LEVEL_OPTION.key: name}
    time = MOVE_SECONDS_OPTION.default_value() if seconds is None else f"{seconds:g}"
    return ProgramBackend.key, {PROGRAM_OPTION.key: name, MOVE_SECONDS_OPTION.key: time}


def seconds_refusal(opponent: str | None, seconds: float | None) -> str | None:
    """Why ``--seconds`` may not be given here (no program plays), or None."""
    if seconds is not None and opponent_choice(opponent)[0] != ProgramBackend.key:
        return "--seconds is a program's time a move: it needs --opponent engine:… or kaggle:…"
    return None


def colour_refusal(colour: str | None, opponent: str | None, connected: bool = False) -> str | None:
    """Why ``--color yellow`` may not be given here (no computer to play red), or None.

    Two players at one keyboard both play, RED first; a server decides who you are.
    Ignoring it would start a game the person did not ask for: the app and the console
    refuse it alike.
    """
    if colour != "yellow":
        return None
    if connected:
        return "--color yellow does not go with --connect: the server decides who plays which"
    if opponent in (None, PersonBackend.key):
        return (
            "--color yellow needs --opponent (a level or a program to play red): two "
            "players at one keyboard take turns with RED first"
        )
    return None


def clock_refusal(clock: HomeClock | None, server: object) -> str | None:
    """Why ``--clock`` may not be given here, or None.

    ``server``: the ``--connect`` or ``--lobby`` given, if any: a server's games keep
    their own time (a lobby's rooms have their own clocks, §5.4).
    """
    if clock is not None and server:
        return (
            "--clock is for games here: with --connect or --lobby the server keeps the time "
            "(a lobby room's clock is chosen as it is made)"
        )
    return None


def person_colour(colour: str | None) -> Player:
    """``--color``'s value as the player the person at the keyboard is (red when not given)."""
    return Player.YELLOW if colour == "yellow" else Player.RED
