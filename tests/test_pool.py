"""The search pool: fair, bounded, cancellable AI work in worker processes."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import AsyncIterator

import pytest

from c4tui.ai.levels import PERFECT_SECONDS, SearchPlayer, TacticalPlayer, ai_level
from c4tui.ai.random_player import RandomPlayer
from c4tui.engine import GameState, Move, Player, Rules
from c4tui.engine.sequence import play_sequence
from c4tui.match.pool import SearchPool

BIG = GameState.new(20, 20, Rules.POPOUT)  # no search finishes early here


@pytest.fixture
async def pool() -> AsyncIterator[SearchPool]:
    one = SearchPool(workers=1, queue_limit=8)
    yield one
    one.shutdown()


async def test_waiting_jobs_take_turns_by_owner(pool: SearchPool) -> None:
    finished: list[str] = []

    async def ask(name: str, owner: str) -> None:
        await pool.choose_move(SearchPlayer(0.2), BIG, owner=owner, budget=0.2)
        finished.append(name)

    tasks = []
    for name, owner in [("a1", "a"), ("a2", "a"), ("a3", "a"), ("b1", "b")]:
        tasks.append(asyncio.create_task(ask(name, owner)))
        await asyncio.sleep(0)  # asked in this order
    await asyncio.wait_for(asyncio.gather(*tasks), 30)
    assert finished == ["a1", "a2", "b1", "a3"]  # b did not wait for all of a's


async def test_under_load_each_job_gets_its_share_and_all_answer_on_time(pool: SearchPool) -> None:
    loop = asyncio.get_running_loop()
    await pool.choose_move(SearchPlayer(0.05), BIG, budget=0.05)  # the worker is up
    began = loop.time()
    await asyncio.wait_for(
        asyncio.gather(
            *(pool.choose_move(SearchPlayer(0.6), BIG, owner=n, budget=0.6) for n in range(6))
        ),
        30,
    )
    # One after another at full budget they would take 3.6 s on the one worker.
    assert loop.time() - began < 2.4


async def test_past_the_bound_moves_are_chosen_at_once() -> None:
    small = SearchPool(workers=1, queue_limit=1)
    try:
        first = asyncio.create_task(small.choose_move(SearchPlayer(0.5), BIG, budget=0.5))
        await asyncio.sleep(0.01)
        move, _ = await asyncio.wait_for(small.choose_move(SearchPlayer(5), BIG, budget=5), 1)
        assert BIG.is_legal(move) and small.overflowed == 1
        await first
    finally:
        small.shutdown()


async def test_a_waiting_job_whose_asker_leaves_is_dropped(pool: SearchPool) -> None:
    running = asyncio.create_task(pool.choose_move(SearchPlayer(0.5), BIG, owner=1, budget=0.5))
    waiting = asyncio.create_task(pool.choose_move(SearchPlayer(0.5), BIG, owner=2, budget=0.5))
    await asyncio.sleep(0.01)
    assert pool.pending == 2
    waiting.cancel()
    await asyncio.sleep(0)
    assert pool.pending == 1 and pool.cancelled == 1
    await running


async def test_cheap_levels_run_here_and_the_rest_carry_their_randomness_along(
    pool: SearchPool,
) -> None:
    random_player = RandomPlayer(seed=1)
    _, same = await pool.choose_move(random_player, BIG, budget=None)
    assert same is random_player and pool.completed == 0  # no worker needed
    tactical = TacticalPlayer(seed=1)
    moves = []
    for _ in range(5):
        move, tactical = await pool.choose_move(tactical, GameState.new(), budget=None)
        moves.append(move)
    assert pool.completed == 5 and len(set(moves)) > 1  # the seed's sequence moved on


async def test_a_puzzles_wrong_move_is_answered_in_a_worker_by_the_solvers_best_reply(
    pool: SearchPool,
) -> None:
    # Shipped puzzle 64516715: d6 alone wins for Red; after d1 Yellow wins with d4.
    after_wrong = play_sequence("64516715").play(Move.drop(0))
    answer = await asyncio.wait_for(pool.refute(after_wrong, owner="puzzle"), 120)
    assert answer.reply == Move.drop(3) and answer.winner is Player.YELLOW
    # Sent back as a type from the light trainer: unpickled here, it loads no solver.
    assert type(answer).__module__ == "c4tui.puzzles.attempt"


def executor_threads() -> list[threading.Thread]:
    """The live threads that concurrent.futures' exit hook would wake (and race)."""
    return [t for t in threading.enumerate() if "ExecutorManagerThread" in type(t).__name__]


async def test_a_shutdown_leaves_no_executor_thread_for_the_exit_to_race() -> None:
    others = set(executor_threads())  # other pools' of this test process
    lone = SearchPool(workers=1, queue_limit=8)
    search = asyncio.create_task(lone.choose_move(SearchPlayer(20), BIG, budget=20))
    await asyncio.sleep(0.5)  # the search is running in the worker
    assert set(executor_threads()) - others
    lone.shutdown()
    assert set(executor_threads()) <= others  # it stopped at its flag, and the thread ended
    search.cancel()


async def test_a_job_deaf_to_its_flag_is_stopped_after_the_grace() -> None:
    others = set(executor_threads())
    lone = SearchPool(workers=1, queue_limit=8)
    sleeping = lone._ensure_executor().submit(time.sleep, 60)  # no flag is ever read
    await asyncio.sleep(0.5)
    lone.shutdown(grace=0.5)
    assert set(executor_threads()) <= others
    assert sleeping.done()


async def first_perfect_move_seconds(warmed: bool) -> float:
    """How long a new pool takes over Perfect's first move, the worker warmed first or not.

    Warmed, the worker loads the solver and analyses the empty board meanwhile (the menu's
    time); the first move then comes from its table.
    """
    fresh = SearchPool(workers=1, queue_limit=8)
    try:
        start = GameState.new()
        if warmed:
            fresh.warm_up(start)
            await fresh.choose_move(SearchPlayer(0.01), start, budget=0.01)  # after the warm-up
        began = time.perf_counter()
        move, _ = await asyncio.wait_for(
            fresh.choose_move(ai_level("perfect").make(1), start, budget=PERFECT_SECONDS), 60
        )
        assert move == Move.drop(3)  # the centre: the only winning first move
        return time.perf_counter() - began
    finally:
        fresh.shutdown()


async def test_a_worker_warmed_with_the_board_answers_perfects_first_move_at_once() -> None:
    cold = await first_perfect_move_seconds(warmed=False)
    warm = await first_perfect_move_seconds(warmed=True)
    assert warm < cold / 4, (warm, cold)  # cold: the worker starts and loads the solver (~1 s)
