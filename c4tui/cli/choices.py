"""The game choices the app and the console both take: the rules, the opponent, the colour.

Declared once so the two commands offer the same names, and read back into the
opponent registry's keys and options the same way.
"""

from __future__ import annotations

import argparse

from c4tui.engine import Player, Rules
from c4tui.match.backends import ComputerBackend, PersonBackend
from c4tui.match.backends.computer import LEVEL_OPTION

#: ``--opponent`` values: another person here, or the computer at each level.
LEVELS = [choice.value for choice in LEVEL_OPTION.choices]
#: ``--rules`` values.
RULES = [rules.value for rules in Rules]


def add_opponent_options(
    parser: argparse._ActionsContainer, default_opponent: str | None, default_colour: str | None
) -> None:
    """``--opponent`` and ``--color``, for the app and the console alike."""
    parser.add_argument(
        "--opponent",
        choices=[PersonBackend.key, *LEVELS],
        default=default_opponent,
        help=f"{PersonBackend.key}: two players take turns at this keyboard (the default); "
        f"{', '.join(LEVELS)}: the computer at that level",
    )
    parser.add_argument(
        "--color",
        "--colour",
        dest="colour",
        choices=["red", "yellow"],
        default=default_colour,
        help="your colour against the computer (red, the default, moves first)",
    )


def opponent_choice(name: str | None) -> tuple[str, dict[str, str]]:
    """``--opponent``'s value as a registry key and its options."""
    if name is None or name == PersonBackend.key:
        return PersonBackend.key, {}
    return ComputerBackend.key, {LEVEL_OPTION.key: name}


def person_colour(colour: str | None) -> Player:
    """``--color``'s value as the player the person at the keyboard is (red when not given)."""
    return Player.YELLOW if colour == "yellow" else Player.RED
