"""The lobby store's puzzle records (§8) on both engines: shared ratings, export, erasure."""

from __future__ import annotations

import contextlib
import sqlite3

import psycopg
import pytest

from c4tui.puzzles.collection import shipped_puzzles
from c4tui.puzzles.progress import PuzzleProgress
from c4tui.server.stores import is_postgres
from tests.net.test_public_store import opened

DAY = "2026-12-03"


async def test_a_first_try_moves_the_puzzles_rating_for_everyone(lobby_db: str) -> None:
    puzzle = shipped_puzzles()[0]
    async with opened(lobby_db, "ann", "bob") as store:
        assert await store.puzzle_tried("ann", puzzle, True, DAY) is not None
        bobs = await store.puzzle_progress("bob")
    at_home = PuzzleProgress()  # ann's try, as the trainer rates it: the puzzle loses
    at_home.record(puzzle, True, DAY)
    assert bobs is not None and not bobs.tried(puzzle.id)
    assert bobs.puzzle_rating(puzzle) == at_home.puzzle_rating(puzzle)
    assert bobs.puzzle_rating(puzzle).rating < puzzle.rating


async def test_the_export_holds_the_puzzle_record_and_a_deletion_erases_it(lobby_db: str) -> None:
    puzzle = shipped_puzzles()[0]
    async with opened(lobby_db, "ann") as store:
        verdict = await store.puzzle_tried("ann", puzzle, True, DAY)
        assert verdict is not None
        exported = await store.export("ann")
        assert exported is not None
        assert exported["puzzles"] == {
            "puzzle_rating": pytest.approx(verdict.rating, abs=0.5),
            "puzzle_deviation": pytest.approx(300, abs=60),
            "puzzle_volatility": pytest.approx(0.06, abs=0.01),
            "puzzle_streak": 1,
            "puzzle_best_streak": 1,
            "first_tries": [
                {"puzzle": puzzle.id, "day": DAY, "solved": True, "rating_after": verdict.rating}
            ],
        }
        assert await store.delete_account("ann", "ann")
        assert await store.puzzle_progress("ann") is None
        assert await store.puzzle_tried("ann", puzzle, True, DAY) is None
    assert _tries_kept(lobby_db) == 0  # read behind the store's back


def _tries_kept(db: str) -> int:
    """How many rows ``puzzle_tries`` holds."""
    query = "SELECT count(*) FROM puzzle_tries"
    if is_postgres(db):
        with psycopg.connect(db) as connection:
            row = connection.execute(query).fetchone()
    else:
        with contextlib.closing(sqlite3.connect(db)) as connection:
            row = connection.execute(query).fetchone()
    assert row is not None
    return int(row[0])
