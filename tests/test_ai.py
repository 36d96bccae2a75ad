"""The computer's levels: tactics, legality, time budgets, cancellation, solved positions."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from c4tui.ai.levels import AI_LEVELS, ai_level
from c4tui.ai.search import search
from c4tui.engine import GameState, Move, Rules, parse_move
from tests.engine_helpers import play

DATA = Path(__file__).parent / "data"


def fast(key: str):
    picker = ai_level(key).make(1)
    if hasattr(picker, "seconds"):
        picker.seconds = min(picker.seconds, 0.05)
    return picker


@pytest.mark.parametrize("key", ["easy", "medium", "hard"])
@pytest.mark.parametrize(
    ("moves", "columns", "rows", "rules", "winning"),
    [
        ("d1 d2 d1 d2 d1 d2", 7, 6, Rules.CLASSIC, "d1"),  # vertical
        ("d1 d1 d2 d2 d3 d3", 7, 6, Rules.POPOUT, "d4"),  # horizontal
        ("d20 d1 d20 d1 d20 d1", 20, 20, Rules.CLASSIC, "d20"),
        ("d2 d4 d2 d3 d4 d1 d2 p1 d3 d7 d5 p7 d1 d5 d5 d2", 7, 6, Rules.POPOUT, "p5"),  # by a pop
    ],
)
def test_takes_an_immediate_win(  # noqa: PLR0917 (parametrized)
    key: str, moves: str, columns: int, rows: int, rules: Rules, winning: str
) -> None:
    state = play(moves, columns, rows, rules)
    move = fast(key).choose_move(state)
    assert state.play(move).winner is state.turn
    if winning != "p5":
        assert move == parse_move(winning)


@pytest.mark.parametrize("key", ["easy", "medium", "hard"])
@pytest.mark.parametrize(
    ("moves", "columns", "rows", "block"),
    [
        ("d1 d2 d1 d2 d1", 7, 6, "d1"),
        ("d1 d1 d2 d2 d3", 7, 6, "d4"),
        ("d5 d1 d6 d1 d7", 7, 6, "d4"),
        ("d20 d1 d19 d1 d18", 20, 20, "d17"),
    ],
)
def test_blocks_an_immediate_loss(
    key: str, moves: str, columns: int, rows: int, block: str
) -> None:
    state = play(moves, columns, rows, Rules.CLASSIC)
    assert fast(key).choose_move(state) == parse_move(block)


@st.composite
def positions(draw: st.DrawFn) -> GameState:
    columns, rows = draw(st.integers(4, 20)), draw(st.integers(4, 20))
    state = GameState.new(columns, rows, draw(st.sampled_from(list(Rules))))
    for choice in draw(st.lists(st.integers(0, 10**6), max_size=40)):
        moves = state.legal_moves()
        if not moves:
            break
        next_state = state.play(moves[choice % len(moves)])
        if next_state.is_over:
            break
        state = next_state
    return state


@settings(max_examples=60, deadline=None)
@given(positions(), st.sampled_from([level.key for level in AI_LEVELS]))
def test_never_returns_an_illegal_move(state: GameState, key: str) -> None:
    move = fast(key).choose_move(state)
    assert state.is_legal(move), (move, state.refusal(move))


@pytest.mark.parametrize(
    ("columns", "rows", "rules"),
    [(7, 6, Rules.POPOUT), (20, 20, Rules.CLASSIC), (20, 20, Rules.POPOUT)],
)
def test_respects_its_time_budget(columns: int, rows: int, rules: Rules) -> None:
    state = play("d2 d3", columns, rows, rules)
    began = time.perf_counter()
    result = search(state, 0.3)
    elapsed = time.perf_counter() - began
    assert 0.2 <= elapsed <= 0.3 + 0.25
    assert state.is_legal(result.move) and result.depth >= 1


def test_returns_promptly_when_cancelled() -> None:
    state = GameState.new(20, 20, Rules.POPOUT)
    cancel = threading.Event()
    outcome: list[Move] = []
    thread = threading.Thread(
        target=lambda: outcome.append(search(state, 30.0, cancel=cancel).move)
    )
    thread.start()
    time.sleep(0.2)
    cancelled_at = time.perf_counter()
    cancel.set()
    thread.join(timeout=5)
    assert not thread.is_alive()
    assert time.perf_counter() - cancelled_at < 0.25
    assert outcome and state.is_legal(outcome[0])


def test_a_finished_game_has_no_move() -> None:
    with pytest.raises(ValueError, match="game is over"):
        search(play("d1 d2 d1 d2 d1 d2 d1"), 0.1)


def solved_positions() -> list[tuple[str, int]]:
    lines = (DATA / "pons_endgame_wins.txt").read_text().splitlines()
    return [
        (moves, int(score))
        for moves, score in (line.split() for line in lines if not line.startswith("#"))
    ]


def test_hard_proves_and_keeps_the_wins_of_solved_end_games() -> None:
    for moves, score in solved_positions():
        assert score > 0
        state = GameState.new().play_all([Move.drop(int(c) - 1) for c in moves])
        result = search(state, 2.0)
        assert result.outlook == "won", moves
        after = state.play(result.move)
        if not after.is_over:
            assert search(after, 2.0).outlook == "lost", moves


def test_repetition_is_scored_as_a_draw_in_pop_out() -> None:
    # Red and yellow shuffle in columns 1 and 2; the search must still return a legal move
    # and must not prefer a line that repeats a position (scored 0) over a real win.
    state = play("d1 d2 p1 p2 d1 d2 p1")
    result = search(state, 0.2)
    assert state.is_legal(result.move)


def test_every_level_has_a_name_and_a_description() -> None:
    assert [level.key for level in AI_LEVELS] == ["random", "easy", "medium", "hard", "perfect"]
    for level in AI_LEVELS:
        assert level.name and len(level.description) > 20


def _discs(cells: list[tuple[int, int]]) -> int:
    from c4tui.engine import bitboard

    geo = bitboard.geometry(7, 6)
    return sum(bitboard.cell_bit(geo, column, row) for column, row in cells)


def test_hard_values_a_threat_on_its_own_row_parity_more() -> None:
    from c4tui.ai.search import Searcher

    searcher = Searcher(GameState.new(), deadline=float("inf"))
    # Red to move (ten discs) with three in a row whose fourth cell, in the empty
    # column 4, is on row 3 (odd: red's parity) or on row 2 (even: yellow's);
    # no other threat on either board.
    odd_red = _discs([(0, 2), (1, 2), (2, 2), (1, 0), (0, 1), (6, 0)])
    odd_yellow = _discs([(0, 0), (2, 0), (1, 1), (2, 1), (6, 1), (5, 0)])
    even_red = _discs([(0, 1), (1, 1), (2, 1), (1, 0), (6, 0)])
    even_yellow = _discs([(0, 0), (2, 0), (6, 1), (4, 0), (6, 2)])
    on_parity = searcher.evaluate(odd_red, odd_yellow)
    off_parity = searcher.evaluate(even_red, even_yellow)
    assert on_parity > off_parity > 0


def test_hard_keeps_its_table_between_moves_on_classic_boards_only() -> None:
    from c4tui.ai.search import kept_table

    hard = ai_level("hard").make(1)
    state = GameState.new(6, 5)
    table = kept_table(state)
    assert table is not None
    table.clear()
    hard.choose_move(state, time_limit=0.2)
    assert len(table) > 0
    assert kept_table(GameState.new(6, 5, Rules.POPOUT)) is None


@pytest.mark.parametrize(
    ("columns", "rows", "first_rows"),
    [(7, 6, [1, 3, 5]), (8, 7, [2, 4, 6]), (7, 7, [1, 3, 5, 7]), (10, 8, [1, 3, 5, 7])],
)
def test_the_first_players_rows_follow_the_count_of_cells(
    columns: int, rows: int, first_rows: list[int]
) -> None:
    from c4tui.ai.search import first_player_rows
    from c4tui.engine import bitboard

    geo = bitboard.geometry(columns, rows)
    mask = first_player_rows(geo)
    # With every other column full, count the discs down before each cell of the
    # last column: red moves when that count is even.
    for row in range(rows):
        discs_before = (columns - 1) * rows + row
        reds_cell = discs_before % 2 == 0
        assert bool(mask & bitboard.cell_bit(geo, columns - 1, row)) is reds_cell
        assert reds_cell is (row + 1 in first_rows)
