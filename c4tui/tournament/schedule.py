"""Who plays whom, with which colours and opening, in which order: a pure function of the options.

Every pairing plays ``games`` games: each of its ``ceil(games / 2)`` openings twice,
once with each colour, so neither player gets the better side of an opening. With an
odd ``games`` the pairing's last opening is played once only, and the pairings take
turns at having their first-named player as red in it, so colours stay as even as
they can. Games are ordered in passes (every pairing's first game, then every
pairing's second...), each pass shuffled with the seed: the standings are fair to
read at any moment, and the same options always give the same order.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from itertools import combinations


@dataclass(frozen=True)
class ScheduledGame:
    """One game to play: its number (from 1), the players by name, and its opening's index."""

    number: int
    red: str
    yellow: str
    opening: int


def pairings(players: list[str], gauntlet: bool) -> list[tuple[str, str]]:
    """Every pair that meets: the first player against each other one, or all against all."""
    if gauntlet:
        return [(players[0], other) for other in players[1:]]
    return list(combinations(players, 2))


def openings_per_pairing(games: int) -> int:
    """How many openings a pairing plays: one for every two games, rounded up."""
    return (games + 1) // 2


def make_schedule(
    players: list[str], games: int, *, gauntlet: bool = False, seed: int = 0
) -> list[ScheduledGame]:
    """Every game of the tournament, in the order it is played (see the module's docstring).

    Openings are numbered pairing by pairing: pairing ``p``'s ``k``-th opening is
    ``p * openings_per_pairing(games) + k``. Raises ValueError for fewer than two
    players, a name given twice or fewer than one game a pairing.
    """
    if len(players) < 2:
        raise ValueError("a tournament needs at least two players")
    if len(set(players)) != len(players):
        raise ValueError("every player needs a name of its own")
    if games < 1:
        raise ValueError("each pairing plays at least one game")
    rng = random.Random(seed)
    per_pairing = openings_per_pairing(games)
    passes: list[list[tuple[str, str, int]]] = []
    for game in range(games):
        this_pass = []
        for index, (first, second) in enumerate(pairings(players, gauntlet)):
            opening = index * per_pairing + game // 2
            first_is_red = game % 2 == 0 if game < games - 1 or games % 2 == 0 else index % 2 == 0
            red, yellow = (first, second) if first_is_red else (second, first)
            this_pass.append((red, yellow, opening))
        rng.shuffle(this_pass)
        passes.append(this_pass)
    flat = [game for this_pass in passes for game in this_pass]
    return [ScheduledGame(number, *game) for number, game in enumerate(flat, start=1)]


def opening_count(players: int, games: int, gauntlet: bool) -> int:
    """How many openings a tournament of ``players`` needs."""
    meetings = players - 1 if gauntlet else players * (players - 1) // 2
    return meetings * openings_per_pairing(games)
