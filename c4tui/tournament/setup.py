"""A tournament's options from the command line: a new one's defaults, or a resumed one's kept.

A resumed tournament keeps every option that decides its games; an option given again
must say the same (else it is refused in words), and the players too, and their files.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import asdict, fields

from c4tui.engine import DEFAULT_COLUMNS, DEFAULT_ROWS, Rules
from c4tui.tournament.checksums import changed, checksums
from c4tui.tournament.players import Entrant
from c4tui.tournament.results import Options, Plan

DEFAULT_GAMES = 2
DEFAULT_MOVETIME_MS = 1000
#: Opening plies when a pairing plays more than one opening (two or fewer games start empty).
DEFAULT_OPENING_PLIES = 4
#: Seeds drawn when none is given (shown, so the tournament can be played again).
SEED_RANGE = 1_000_000


class SetupError(ValueError):
    """Options that do not make a tournament; the message says why."""


def new_options(given: Mapping[str, object]) -> Options:
    """The options of a new tournament: those ``given`` (None: not given), the rest defaults."""
    games = _int(given, "games", DEFAULT_GAMES)
    plies = _int(given, "openings", 0 if games <= 2 else DEFAULT_OPENING_PLIES)
    seed = given.get("seed")
    return Options(
        games=games,
        openings=plies,
        movetime=_int(given, "movetime", DEFAULT_MOVETIME_MS),
        columns=_int(given, "columns", DEFAULT_COLUMNS),
        rows=_int(given, "rows", DEFAULT_ROWS),
        rules=str(given.get("rules") or Rules.CLASSIC.value),
        seed=seed if isinstance(seed, int) else random.randrange(SEED_RANGE),
        gauntlet=bool(given.get("gauntlet")),
    )


def resumed_options(saved: Options, given: Mapping[str, object]) -> Options:
    """``saved``, unless an option ``given`` says otherwise: then SetupError, in words."""
    kept = asdict(saved)
    for option in fields(Options):
        value = given.get(option.name)
        if value is not None and value != kept[option.name]:
            raise SetupError(
                f"--{option.name} {_shown(value)} differs from the tournament's "
                f"{_shown(kept[option.name])}: a resumed tournament keeps its options "
                "(leave them out)"
            )
    return saved


def check_players(saved: Sequence[Entrant], given: Sequence[Entrant]) -> None:
    """SetupError unless no players are ``given`` or the same players as ``saved``."""
    if given and list(given) != list(saved):
        names = " ".join(entrant.name for entrant in saved)
        raise SetupError(
            f"the players given differ from the tournament's ({names}): "
            "a resumed tournament keeps its players (leave them out)"
        )


def check_programs(plan: Plan) -> None:
    """SetupError when a program's file changed since ``plan`` began (or is gone)."""
    problem = changed(plan.checksums, checksums(plan.names, plan.specs))
    if problem is not None:
        raise SetupError(
            f"{problem}: a resumed tournament plays the programs it began with "
            "(put the file back as it was, or start a new tournament)"
        )


def _int(given: Mapping[str, object], name: str, default: int) -> int:
    value = given.get(name)
    return value if isinstance(value, int) and not isinstance(value, bool) else default


def _shown(value: object) -> str:
    return ("on" if value else "off") if isinstance(value, bool) else str(value)
