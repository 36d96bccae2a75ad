"""The puzzles c4tui ships (``assets/puzzles/puzzles.jsonl``), the next one to try, the daily one.

The set is made by ``c4tui puzzles --make 2000 --seed 1`` and proven by the tests, so
it is read as written. The daily puzzle is picked by a hash of the date alone: the same
puzzle for everyone on a day, on any machine or server with the same set.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from datetime import date
from functools import lru_cache

from c4tui.puzzles.progress import PuzzleProgress
from c4tui.puzzles.puzzle import Puzzle, puzzle_from_json
from c4tui.storage import asset_path

#: The shipped set, under assets/.
SHIPPED_SET = "puzzles/puzzles.jsonl"


def read_puzzles(text: str) -> list[Puzzle]:
    """The puzzles of a JSON-lines text (raises ValueError naming the line that is wrong)."""
    puzzles = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            puzzles.append(puzzle_from_json(json.loads(line)))
        except ValueError as error:
            raise ValueError(f"line {number}: {error}") from None
    return puzzles


@lru_cache(maxsize=1)
def shipped_puzzles() -> tuple[Puzzle, ...]:
    """The shipped set, read once (raises OSError or ValueError when it is missing or broken)."""
    return tuple(read_puzzles(asset_path(SHIPPED_SET).read_text(encoding="utf-8")))


def daily_puzzle(puzzles: Sequence[Puzzle], day: date) -> Puzzle:
    """The puzzle of ``day``: the same for everyone with this set."""
    digest = hashlib.sha256(f"c4tui daily puzzle {day.isoformat()}".encode()).digest()
    return puzzles[int.from_bytes(digest[:8], "big") % len(puzzles)]


def next_puzzle(puzzles: Sequence[Puzzle], progress: PuzzleProgress) -> Puzzle:
    """The untried puzzle whose rating is nearest the player's (the first such in the set).

    When every puzzle has been tried, the nearest of them all: a retry, not rated.
    """
    tried = progress.tried_ids()
    untried = [puzzle for puzzle in puzzles if puzzle.id not in tried] or list(puzzles)
    target = progress.rating.rating
    return min(untried, key=lambda puzzle: abs(progress.puzzle_rating(puzzle).rating - target))


def puzzle_by_id(puzzles: Sequence[Puzzle], puzzle_id: str) -> Puzzle | None:
    """The puzzle with ``puzzle_id`` in the set, or None."""
    return next((puzzle for puzzle in puzzles if puzzle.id == puzzle_id), None)
