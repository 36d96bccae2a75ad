"""Puzzle ratings: a try is a rated game between the player and the puzzle (Glicko-2).

The lobby's Glicko-2 (``lobby.ratings``) rates both sides, as lichess does: solving
is a win for the player and a loss for the puzzle, failing the reverse. A puzzle
starts at the rating its maker guessed, with a smaller deviation than a new player's:
the guess is only moderately sure, and one player's tries should not fling it about.
"""

from __future__ import annotations

from c4tui.lobby.ratings import START_VOLATILITY, Rating, Result, rated
from c4tui.puzzles.puzzle import Puzzle

#: A puzzle's deviation before anyone has tried it.
PUZZLE_START_DEVIATION = 150.0


def starting_rating(puzzle: Puzzle) -> Rating:
    """The rating a puzzle has before its first try: its maker's guess."""
    return Rating(float(puzzle.rating), PUZZLE_START_DEVIATION, START_VOLATILITY)


def rate_try(player: Rating, puzzle: Rating, solved: bool) -> tuple[Rating, Rating]:
    """The player's and the puzzle's ratings after one try (both rated as they were before)."""
    score = 1.0 if solved else 0.0
    return (
        rated(player, [Result(puzzle, score)]),
        rated(puzzle, [Result(player, 1.0 - score)]),
    )
