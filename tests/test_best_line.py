"""The analysis's best line: best play on 7 × 6 classic to the end, and how it ends."""

from __future__ import annotations

import random

import pytest

from c4tui.ai.best_line import BestLine, best_column, follow_best_line, move_keeping, outcome_of
from c4tui.ai.solver import Position, Solver
from c4tui.engine import GameState, Move, Player, Rules
from c4tui.engine.sequence import play_sequence


@pytest.fixture(scope="module")
def checker() -> Solver:
    return Solver(table_size=1 << 20)


def test_from_the_empty_board_red_wins_with_its_21st_disc() -> None:
    line = follow_best_line(GameState.new())
    assert line is not None and line.complete
    assert line.moves[0] == Move.drop(3)  # the centre
    assert len(line.moves) == 41
    assert line.winner is Player.RED and line.last_ply == 41
    assert line.result_words == "RED wins on move 21"
    assert GameState.new().play_all(line.moves).winner is Player.RED


@pytest.mark.parametrize("opening", ["4453", "22", "3354462211"])
def test_every_move_of_the_line_is_one_of_the_best(checker: Solver, opening: str) -> None:
    state = play_sequence(opening)
    line = follow_best_line(state)
    assert line is not None and line.complete and line.played == len(opening)
    for move in line.moves:
        scores = checker.analyse(Position.of(state))
        best = max(score for score in scores if score is not None)
        assert scores[move.column] == best, (state, move)
        state = state.play(move)
    assert state.is_over
    assert state.winner is line.winner
    assert state.disc_count == line.last_ply


@pytest.mark.parametrize("seed", [0, 2, 3, 4, 5])  # random games the checker solves in seconds
def test_one_null_window_search_a_column_finds_the_analysis_best_column(
    checker: Solver, seed: int
) -> None:
    rng = random.Random(seed)
    state = GameState.new()
    while not state.is_over:
        scores = checker.analyse(Position.of(state))
        best = best_column(scores)
        score = scores[best]
        assert score is not None
        assert move_keeping(state, score, None, None) == best, state
        state = state.drop(rng.choice([m.column for m in state.legal_moves()]))


def test_a_drawn_position_fills_the_board() -> None:
    line = follow_best_line(play_sequence("22"))
    assert line is not None
    assert line.winner is None and line.last_ply == 42
    assert line.result_words == "Draw (board full)"


def test_equals_go_to_the_column_nearest_the_centre_then_the_left() -> None:
    assert best_column([0, 0, 0, 2, 0, 0, -2]) == 3
    assert best_column([1, 0, 1, None, 1, 0, 1]) == 2
    assert best_column([None, -3, None, None, None, None, None]) == 1
    with pytest.raises(ValueError):
        best_column([None] * 7)


def test_a_score_says_who_wins_on_which_move() -> None:
    empty = GameState.new()
    assert outcome_of(empty, 1) == (Player.RED, 41)
    assert outcome_of(empty, -1) == (Player.YELLOW, 42)
    assert outcome_of(empty.drop(0), 3) == (Player.YELLOW, 38)
    assert outcome_of(empty, 0) == (None, 42)


def test_out_of_time_it_keeps_the_moves_proven_and_the_outcome() -> None:
    line = follow_best_line(GameState.new(), seconds=0.0)
    assert line is not None and not line.complete
    assert line.moves == (Move.drop(3),)
    assert line.result_words == "RED wins on move 21"


@pytest.mark.parametrize(
    "state",
    [
        GameState.new(8, 7),
        GameState.new(rules=Rules.POPOUT),
        play_sequence("1212121"),  # over: RED made four
    ],
    ids=["8x7", "popout", "over"],
)
def test_there_is_no_line_off_7x6_classic_or_after_the_game(state: GameState) -> None:
    assert follow_best_line(state) is None


def test_move_numbers_count_pairs_as_the_move_list_does() -> None:
    assert BestLine(0, (), Player.YELLOW, 42).last_move_number == 21
    assert BestLine(0, (), Player.RED, 7).result_words == "RED wins on move 4"
