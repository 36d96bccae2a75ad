"""The forced-four search (``ai.forced_four``, issue 41's proofs off 7 × 6 classic) against the
solver where both reach: on 7 × 6 classic positions from games between the Easy levels, a win
the search proves within N moves is one the solver proves as fast, and every win the solver
proves within N the search finds, with the same fastest moves; off 7 × 6 (Pop Out, a wider
board) it agrees with a brute force over the engine's own moves."""

from __future__ import annotations

from functools import lru_cache

import pytest

from c4tui.ai.forced_four import moves_to_four, winning_moves
from c4tui.ai.solver import Position, Solver
from c4tui.engine import GameState, Player, Rules
from c4tui.puzzles.making import positions_of_game
from tests.test_searched_puzzles import forces_four

LIMIT = 3
GAMES = 12


@lru_cache(maxsize=1)
def solver() -> Solver:
    return Solver(7, 6)


def solver_wins(state: GameState) -> tuple[int | None, set[int]]:
    """The solver's fewest moves to four for the side to move (None: no win), and the columns
    that win that fast."""
    fewest: dict[int, int] = {}
    for column in range(7):
        if state.column_height(column) == 6:
            continue
        after = state.drop(column)
        if after.winner is state.turn:
            fewest[column] = 1
        elif not after.is_over:
            score = -solver().solve(Position.of(after))
            if score > 0:  # the winner's four is its (43 // 2 + 1 - score)-th disc
                fewest[column] = 43 // 2 + 1 - score - state.disc_count // 2
    if not fewest:
        return None, set()
    best = min(fewest.values())
    return best, {column for column, moves in fewest.items() if moves == best}


@pytest.mark.parametrize("seed", range(GAMES))
def test_the_search_proves_the_wins_the_solver_proves_within_the_limit(seed: int) -> None:
    checked = 0
    for state, _ in positions_of_game(seed):
        if state.is_over:
            continue
        fewest, columns = solver_wins(state)
        expected = fewest if fewest is not None and fewest <= LIMIT else None
        assert moves_to_four(state, LIMIT) == expected, state
        if expected is not None:
            assert {move.column for move in winning_moves(state, expected)} == columns
        checked += 1
    assert checked > 0


def test_a_four_at_once_is_one_move_and_a_finished_game_none() -> None:
    state = GameState.new()
    for column in (0, 6, 0, 6, 0, 6):
        state = state.drop(column)
    assert moves_to_four(state, LIMIT) == 1  # red's fourth disc in column 1
    assert [move.column for move in winning_moves(state, 1)] == [0]
    over = state.drop(0)
    assert over.winner is Player.RED
    assert moves_to_four(over, LIMIT) is None and winning_moves(over, LIMIT) == []


@pytest.mark.parametrize("board", [(7, 6, Rules.POPOUT), (9, 7, Rules.CLASSIC)])
def test_off_7x6_the_search_agrees_with_a_brute_force_over_the_engine(
    board: tuple[int, int, Rules],
) -> None:
    """Pop Out's pops (and a pop that makes the opponent's four) and its threefold repetition,
    as the engine plays them, against the search's bitboards: the same fewest moves."""
    proven = 0
    for seed in range(6):
        for state, _ in positions_of_game(seed, GameState.new(*board)):
            if state.is_over:
                continue
            fewest = next((moves for moves in (1, 2) if forces_four(state, moves)), None)
            assert moves_to_four(state, 2) == fewest, state
            proven += fewest == 2
    assert proven > 0  # wins in two among them, not only fours at once
