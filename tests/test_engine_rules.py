"""Unit tests for every edge of the rules (spec/rules.md)."""

from __future__ import annotations

import random

import pytest

from c4tui.engine import (
    BoardSizeError,
    DrawReason,
    GameState,
    IllegalMoveError,
    Move,
    Player,
    Rules,
    bitboard,
)
from tests.engine_helpers import play

CLASSIC = Rules.CLASSIC


def test_new_game_is_empty_with_red_to_move() -> None:
    state = GameState.new()
    assert (state.columns, state.rows, state.rules) == (7, 6, Rules.CLASSIC)
    assert state.turn is Player.RED
    assert state.disc_count == 0
    assert not state.is_over
    assert len(state.legal_moves()) == 7


def test_drop_lands_on_the_lowest_empty_cell_and_turns_alternate() -> None:
    state = play("d3 d3 d4")
    assert state.cell(2, 0) is Player.RED
    assert state.cell(2, 1) is Player.YELLOW
    assert state.cell(3, 0) is Player.RED
    assert state.cell(2, 2) is None
    assert state.turn is Player.YELLOW
    assert state.column_height(2) == 2


def test_full_column_is_refused_and_nothing_changes() -> None:
    state = play("d1 d1 d1 d1", rows=4)
    with pytest.raises(IllegalMoveError, match=r"^column 1 is full$"):
        state.play(Move.drop(0))
    assert state.refusal(Move.drop(0)) == "column 1 is full"
    assert state.turn is Player.RED
    assert Move.drop(0) not in state.legal_moves()


@pytest.mark.parametrize("column", [-1, 7, 99])
def test_column_outside_the_board_does_not_exist(column: int) -> None:
    with pytest.raises(IllegalMoveError, match=rf"^column {column + 1} does not exist$"):
        GameState.new().play(Move.drop(column))


def test_pop_of_the_opponents_disc_is_refused() -> None:
    state = play("d1")
    with pytest.raises(IllegalMoveError, match=r"^the bottom disc of column 1 is not yours$"):
        state.play(Move.pop(0))


def test_pop_on_an_empty_column_is_refused() -> None:
    with pytest.raises(IllegalMoveError, match=r"^column 1 is empty$"):
        GameState.new(rules=Rules.POPOUT).play(Move.pop(0))


def test_pop_in_classic_rules_is_refused() -> None:
    state = play("d1 d2", rules=CLASSIC)
    with pytest.raises(IllegalMoveError, match=r"^Pop Out is off in classic rules$"):
        state.play(Move.pop(0))
    assert all(move.kind.value == "d" for move in state.legal_moves())


def test_pop_removes_the_bottom_disc_and_lowers_the_column() -> None:
    state = play("d1 d1 d2 d1 p1")
    assert [state.cell(0, row) for row in range(3)] == [Player.YELLOW, Player.YELLOW, None]
    assert state.turn is Player.YELLOW
    assert Move.pop(0) in state.legal_moves()


@pytest.mark.parametrize(
    ("moves", "winner", "line"),
    [
        ("d1 d2 d1 d2 d1 d2 d1", Player.RED, [(0, 0), (0, 1), (0, 2), (0, 3)]),
        ("d1 d1 d2 d2 d3 d3 d4", Player.RED, [(0, 0), (1, 0), (2, 0), (3, 0)]),
        ("d1 d2 d2 d3 d3 d4 d3 d4 d4 d7 d4", Player.RED, [(0, 0), (1, 1), (2, 2), (3, 3)]),
        ("d7 d6 d6 d5 d5 d4 d5 d4 d4 d1 d4", Player.RED, [(6, 0), (5, 1), (4, 2), (3, 3)]),
        ("d7 d1 d7 d2 d7 d3 d6 d4", Player.YELLOW, [(0, 0), (1, 0), (2, 0), (3, 0)]),
    ],
    ids=["vertical", "horizontal", "diagonal-up", "diagonal-down", "yellow-horizontal"],
)
def test_four_in_a_line_wins(moves: str, winner: Player, line: list[tuple[int, int]]) -> None:
    state = play(moves, rules=CLASSIC)
    assert state.winner is winner
    assert state.is_over and not state.is_draw
    assert state.winning_cells() == set(line)


def test_a_line_longer_than_four_wins_and_is_highlighted_whole() -> None:
    state = play("d1 d1 d2 d2 d4 d4 d5 d5 d3", rules=CLASSIC)
    assert state.winner is Player.RED
    assert state.winning_cells() == {(c, 0) for c in range(5)}


def test_winning_cells_are_empty_while_nobody_has_won() -> None:
    assert play("d1 d2").winning_cells() == frozenset()


def test_a_pop_that_completes_lines_for_both_players_wins_for_the_popper() -> None:
    before = play("d1 d2 d2 d3 d3 d4 d4 d1 d1 d7")
    assert before.winner is None and before.turn is Player.RED
    after = before.play(Move.pop(0))
    assert after.winner is Player.RED
    assert (0, 1) in after.winning_cells()  # red's line in row 2; yellow's row 1 isn't shown


def test_a_pop_that_completes_only_the_opponents_line_loses() -> None:
    before = play("d1 d2 d2 d3 d3 d4 d6 d1")
    assert before.winner is None and before.turn is Player.RED
    after = before.play(Move.pop(0))
    assert after.winner is Player.YELLOW
    assert after.winning_cells() == {(c, 0) for c in range(4)}


def test_a_full_classic_board_without_a_line_is_a_draw() -> None:
    moves = " ".join(f"d{c}" for c in "1113233214423442")
    state = play(moves, columns=4, rows=4, rules=CLASSIC)
    assert state.is_draw and state.winner is None
    assert state.draw_reason is DrawReason.FULL_BOARD
    assert state.legal_moves() == ()


def test_a_full_popout_board_is_not_over_while_a_pop_is_possible() -> None:
    moves = " ".join(f"d{c}" for c in "1113233214423442")
    state = play(moves, columns=4, rows=4)
    assert not state.is_over
    assert state.legal_moves() and all(m.kind.value == "p" for m in state.legal_moves())


def test_the_third_repetition_of_a_position_is_a_draw() -> None:
    cycle = "d1 d2 p1 p2 "  # back to the empty board, red to move
    twice = play(cycle)
    assert not twice.is_over
    thrice = play(cycle * 2)
    assert thrice.draw_reason is DrawReason.REPETITION
    assert thrice.legal_moves() == ()


@pytest.mark.parametrize("move", [Move.drop(0), Move.pop(0), Move.drop(3)])
def test_no_move_is_legal_after_the_game_is_over(move: Move) -> None:
    state = play("d1 d2 d1 d2 d1 d2 d1")
    with pytest.raises(IllegalMoveError, match=r"^the game is over$"):
        state.play(move)
    assert state.legal_moves() == ()


@pytest.mark.parametrize("size", [4, 20])
def test_smallest_and_largest_boards_play_to_a_win(size: int) -> None:
    state = play(f"d{size} d1 d{size} d1 d{size} d1 d{size}", columns=size, rows=size)
    assert state.winner is Player.RED
    assert state.winning_cells() == {(size - 1, row) for row in range(4)}


def test_twenty_by_twenty_corner_cells_are_independent() -> None:
    state = play("d20 d1", columns=20, rows=20)
    assert state.cell(19, 0) is Player.RED and state.cell(0, 0) is Player.YELLOW
    assert state.cell(19, 1) is None and state.cell(1, 0) is None


def test_lines_do_not_wrap_from_one_column_into_the_next() -> None:
    # Red fills the top of column 1 and the bottom of column 2: adjacent bits, no line.
    state = play("d1 d1 d1 d1 d1 d2 d1 d2 d2 d3 d2 d3", columns=7, rows=6, rules=CLASSIC)
    assert state.winner is None


@pytest.mark.parametrize(("columns", "rows"), [(3, 6), (7, 21), (0, 0), (-4, 6)])
def test_sizes_outside_4_to_20_are_refused(columns: int, rows: int) -> None:
    with pytest.raises(BoardSizeError, match="whole number from 4 to 20"):
        GameState.new(columns, rows)


def test_states_are_immutable() -> None:
    state = GameState.new()
    with pytest.raises(AttributeError):
        state.red = 1  # type: ignore[misc]
    state.play(Move.drop(0))
    assert state.disc_count == 0


def test_threats_are_the_empty_cells_that_would_complete_four() -> None:
    # RED: a, b, c on the bottom row; YELLOW: three up column 7.
    state = GameState.new(7, 6)
    for column in (0, 6, 1, 6, 2, 6):
        state = state.drop(column)
    threats = state.threats()
    assert threats[(3, 0)] == frozenset({Player.RED})
    assert threats[(6, 3)] == frozenset({Player.YELLOW})
    assert set(threats) == {(3, 0), (6, 3)}
    assert GameState.new(7, 6).threats() == {}


@pytest.mark.parametrize("seed", range(40))
def test_threats_agree_with_trying_every_empty_cell(seed: int) -> None:
    """The shifted-bitboard threats against the plain way: add a disc, look for four."""
    rng = random.Random(seed)
    columns, rows = rng.randint(4, 20), rng.randint(4, 20)
    state = GameState.new(columns, rows, rng.choice(list(Rules)))
    for _ in range(rng.randint(0, columns * rows)):
        moves = state.legal_moves()
        if not moves:
            break
        following = state.play(rng.choice(moves))
        if following.is_over:
            break
        state = following
    expected = {}
    for column in range(columns):
        for row in range(rows):
            if state.cell(column, row) is not None:
                continue
            bit = bitboard.cell_bit(state.geometry, column, row)
            players = frozenset(
                player
                for player, bits in ((Player.RED, state.red), (Player.YELLOW, state.yellow))
                if bitboard.has_four(bits | bit, state.geometry.shifts)
            )
            if players:
                expected[(column, row)] = players
    assert state.threats() == expected
