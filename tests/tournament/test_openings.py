"""Openings: proven balanced by the solver on 7 × 6 classic, random legal moves elsewhere."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator

import pytest

from c4tui.ai.perfect import exact_scores
from c4tui.engine import GameState, Rules
from c4tui.match.pool import SearchPool
from c4tui.tournament.openings import NARROW_MARGIN, find_openings, random_opening


@pytest.fixture
async def pool() -> AsyncIterator[SearchPool]:
    searches = SearchPool(workers=1)
    yield searches
    searches.shutdown()


def test_random_openings_are_legal_and_end_no_game() -> None:
    rng = random.Random(4)
    for rules in Rules:
        start = GameState.new(5, 4, rules)
        for _ in range(50):
            opening = random_opening(start, 8, rng)
            assert not start.play_all(opening).is_over  # play_all checks every move


async def test_on_7x6_classic_every_opening_is_proven_balanced_and_the_seed_repeats_them(
    pool: SearchPool,
) -> None:
    start = GameState.new()
    openings = await find_openings(8, 4, start, seed=11, pool=pool)
    assert len(openings) == 8 and len(set(openings)) == 8
    for opening in openings:
        assert len(opening) == 4
        scores = exact_scores(start.play_all(opening))
        assert scores is not None
        assert abs(max(score for score in scores if score is not None)) <= NARROW_MARGIN
    assert await find_openings(8, 4, start, seed=11, pool=pool) == openings


async def test_elsewhere_openings_are_random_legal_moves(pool: SearchPool) -> None:
    start = GameState.new(9, 7, Rules.POPOUT)
    openings = await find_openings(5, 6, start, seed=2, pool=pool)
    assert all(len(opening) == 6 for opening in openings)
    assert await find_openings(5, 6, start, seed=2, pool=pool) == openings
    assert await find_openings(3, 0, GameState.new(), seed=2, pool=pool) == [(), (), ()]
