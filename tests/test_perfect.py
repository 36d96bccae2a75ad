"""Perfect: proven moves on 7 × 6 classic, the deepest search elsewhere, every front end."""

from __future__ import annotations

import time

import pytest

from c4tui.ai.analysis import Outcome, analyse_columns
from c4tui.ai.levels import ai_level
from c4tui.ai.perfect import PerfectPlayer, opponent_mistakes
from c4tui.ai.solver import Position, Solver
from c4tui.engine import GameState, Move, Player, Rules
from c4tui.engine.sequence import play_sequence
from tests.process_helpers import run_c4tui


@pytest.fixture(scope="module")
def checker() -> Solver:
    return Solver(table_size=1 << 20)


def best_columns(checker: Solver, state: GameState) -> set[int]:
    scores = checker.analyse(Position.of(state))
    best = max(score for score in scores if score is not None)
    return {column for column, score in enumerate(scores) if score == best}


def test_perfect_opens_in_the_centre_and_keeps_the_first_players_win() -> None:
    perfect = PerfectPlayer(1.0)
    assert perfect.choose_move(GameState.new()) == Move.drop(3)
    # After 4, 4 only 4 keeps the win (Hard used to play 3 here).
    assert perfect.choose_move(play_sequence("44")) == Move.drop(3)


@pytest.mark.parametrize("perfect_colour", [Player.RED, Player.YELLOW])
def test_every_move_of_a_game_is_optimal(checker: Solver, perfect_colour: Player) -> None:
    perfect = PerfectPlayer(1.0)
    opponent = ai_level("medium").make(3)
    state = GameState.new()
    while not state.is_over:
        if state.turn is perfect_colour:
            move = perfect.choose_move(state)
            assert move.column in best_columns(checker, state), state
        else:
            move = opponent.choose_move(state)
        state = state.play(move)
    if perfect_colour is Player.RED:
        assert state.winner is Player.RED  # the first player wins with perfect play


def test_ties_go_to_the_move_with_more_chances_for_the_opponent_to_go_wrong(
    checker: Solver,
) -> None:
    state = play_sequence("4453")
    scores = checker.analyse(Position.of(state))
    best = max(s for s in scores if s is not None)
    tied = [c for c, s in enumerate(scores) if s == best]
    assert len(tied) >= 2
    chances = {
        c: opponent_mistakes(state.drop(c), best, None, time.perf_counter() + 30) for c in tied
    }
    chosen = PerfectPlayer(1.0).choose_move(state).column
    assert chosen in tied
    assert chances[chosen] == max(chances.values())


@pytest.mark.parametrize(
    "state",
    [GameState.new(8, 8), GameState.new(7, 6, Rules.POPOUT), GameState.new(5, 4)],
    ids=["8x8", "popout", "5x4"],
)
def test_elsewhere_it_answers_within_its_budget(state: GameState) -> None:
    started = time.perf_counter()
    move = PerfectPlayer(0.5).choose_move(state)
    assert state.is_legal(move)
    assert time.perf_counter() - started < 5  # generous: a loaded machine


def test_a_small_board_is_proven_when_the_solver_is_quick() -> None:
    state = play_sequence("1122", columns=5, rows=4)
    analysis = analyse_columns(state, 2.0)
    assert analysis.exact
    move = PerfectPlayer(1.0).choose_move(state)
    best = analysis.best_column()
    chosen = analysis.columns[move.column]
    assert chosen is not None and chosen.score == analysis.columns[best].score  # type: ignore[union-attr]


def test_analysis_counts_moves_to_the_end() -> None:
    analysis = analyse_columns(GameState.new(), 1.0)
    assert analysis.exact
    labels = [verdict.label if verdict else "" for verdict in analysis.columns]
    assert labels == ["L20", "L21", "D", "W21", "D", "L21", "L20"]
    # Red to play with three in column 1: winning at once is a win in 1.
    now = analyse_columns(play_sequence("121212"), 1.0)
    first = now.columns[0]
    assert first is not None and (first.outcome, first.moves) == (Outcome.WIN, 1)
    assert now.best_column() == 0


def test_analysis_elsewhere_is_an_estimate_that_still_sees_wins_in_one() -> None:
    state = GameState.new(8, 8).play_all([Move.drop(c) for c in (0, 1, 0, 1, 0, 1)])
    analysis = analyse_columns(state, 1.0)
    assert not analysis.exact
    first = analysis.columns[0]
    assert first is not None and first.outcome is Outcome.WIN and first.moves == 1
    second = analysis.columns[3]
    # Anything but column 1 lets yellow win at once in column 2.
    assert second is not None and second.outcome is Outcome.LOSS and second.moves == 1


def test_the_console_and_the_server_offer_perfect() -> None:
    args = ["--opponent", "perfect", "--color", "yellow", "--columns", "7", "--rows", "6"]
    result = run_c4tui("console", *args, "--rules", "classic", stdin="")
    assert result.returncode == 0, result.stderr
    assert "RED (computer): drop in column 4" in result.stdout
    help_text = run_c4tui("serve", "--help").stdout
    assert "perfect" in help_text


@pytest.mark.parametrize(
    ("columns", "rows", "sequences"),
    [
        (7, 6, ["", "4", "44", "4455", "13", "444444", "3344556", "2147756677465", "1122334"]),
        (5, 4, ["", "3", "33", "1234", "55443"]),
        (6, 5, ["", "34", "343434"]),
    ],
)
def test_the_best_columns_are_those_the_full_analysis_scores_highest(
    columns: int, rows: int, sequences: list[str]
) -> None:
    """One solve and a null window a column find what an exact solve of every column does."""
    solver, analyser = Solver(columns, rows, table_size=1 << 16), Solver(columns, rows)
    for sequence in sequences:
        state = play_sequence(sequence, columns=columns, rows=rows)
        if state.is_over:
            continue
        scores = analyser.analyse(Position.of(state))
        best = max(score for score in scores if score is not None)
        keeping = [column for column, score in enumerate(scores) if score == best]
        assert solver.best_columns(Position.of(state)) == (best, keeping), sequence
