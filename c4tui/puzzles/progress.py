"""The player's puzzle record: a Glicko-2 rating, streaks, each puzzle's rating, a history.

Only a puzzle's first try is rated and counts for the streak: a retry after seeing the
solution proves little. Every try goes into the history (newest last, the latest
``HISTORY_KEPT``), so the app can offer the failed ones again. Pure: ``keeping`` reads
and writes it as JSON.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from c4tui.lobby.ratings import Rating
from c4tui.puzzles.puzzle import Puzzle
from c4tui.puzzles.rating import rate_try, starting_rating

#: How many tries the history keeps.
HISTORY_KEPT = 1000


@dataclass(frozen=True)
class Try:
    """One try: which puzzle, on what day, whether it was solved, and the rating after it."""

    puzzle_id: str
    day: str
    solved: bool
    rated: bool
    rating_after: int


@dataclass
class PuzzleProgress:
    """Everything c4tui remembers of the player's puzzles."""

    rating: Rating = field(default_factory=Rating)
    streak: int = 0
    best_streak: int = 0
    history: list[Try] = field(default_factory=list)
    puzzle_ratings: dict[str, Rating] = field(default_factory=dict)

    def puzzle_rating(self, puzzle: Puzzle) -> Rating:
        """The puzzle's rating as this player's tries have moved it."""
        return self.puzzle_ratings.get(puzzle.id, starting_rating(puzzle))

    def tried(self, puzzle_id: str) -> bool:
        """True when the puzzle was tried before (a new try is then not rated)."""
        return puzzle_id in self.tried_ids()

    def tried_ids(self) -> set[str]:
        """Every puzzle tried before."""
        return {entry.puzzle_id for entry in self.history}

    def record(self, puzzle: Puzzle, solved: bool, day: str) -> float:
        """Remember a try; the player's rating change (0 for a retry, which is not rated)."""
        first = not self.tried(puzzle.id)
        before = self.rating.rating
        if first:
            self.rating, self.puzzle_ratings[puzzle.id] = rate_try(
                self.rating, self.puzzle_rating(puzzle), solved
            )
            self.streak = self.streak + 1 if solved else 0
            self.best_streak = max(self.best_streak, self.streak)
        entry = Try(puzzle.id, day, solved, first, round(self.rating.rating))
        self.history = [*self.history, entry][-HISTORY_KEPT:]
        return self.rating.rating - before

    def failed_ids(self) -> list[str]:
        """The puzzles whose latest try failed, latest first: the ones to retry."""
        latest: dict[str, bool] = {}
        for entry in self.history:
            latest.pop(entry.puzzle_id, None)
            latest[entry.puzzle_id] = entry.solved
        return [puzzle_id for puzzle_id, solved in reversed(latest.items()) if not solved]

    def solved_on(self, puzzle_id: str, day: str) -> bool:
        """True when ``puzzle_id`` was solved on ``day`` (the daily puzzle's tick)."""
        return any(e.puzzle_id == puzzle_id and e.day == day and e.solved for e in self.history)


def progress_json(progress: PuzzleProgress) -> dict[str, Any]:
    """The record as JSON."""
    return {
        "rating": _rating_json(progress.rating),
        "streak": progress.streak,
        "best_streak": progress.best_streak,
        "history": [
            [e.puzzle_id, e.day, e.solved, e.rated, e.rating_after] for e in progress.history
        ],
        "puzzle_ratings": {key: _rating_json(r) for key, r in progress.puzzle_ratings.items()},
    }


def progress_from_json(data: object) -> PuzzleProgress:
    """The record from its JSON (raises ValueError, TypeError or KeyError when it is not one)."""
    if not isinstance(data, dict):
        raise ValueError("a puzzle record is a JSON object")
    history = [
        Try(str(puzzle_id), str(day), bool(solved), bool(rated), int(after))
        for puzzle_id, day, solved, rated, after in data["history"]
    ]
    ratings = {str(key): _rating_from(value) for key, value in data["puzzle_ratings"].items()}
    return PuzzleProgress(
        _rating_from(data["rating"]),
        int(data["streak"]),
        int(data["best_streak"]),
        history,
        ratings,
    )


def _rating_json(rating: Rating) -> list[float]:
    return [rating.rating, rating.deviation, rating.volatility]


def _rating_from(value: object) -> Rating:
    if not isinstance(value, list) or len(value) != 3:
        raise ValueError("a rating is [rating, deviation, volatility]")
    rating, deviation, volatility = (float(number) for number in value)
    return Rating(rating, deviation, volatility)
