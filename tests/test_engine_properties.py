"""Property tests: the engine agrees with the slow reference rules on random games."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from c4tui.engine import GameState, Move, MoveKind, Player, PositionError, Rules, bitboard
from tests.conftest import scaled
from tests.reference_rules import EMPTY, ReferenceGame

#: Whole games against the reference: each takes tens of milliseconds, so CI plays about
#: half the examples it gives the other properties (it must finish in ten minutes).
WHOLE_GAMES = scaled(here=300, on_ci=350)

sizes = st.integers(min_value=4, max_value=20)
rule_sets = st.sampled_from([Rules.CLASSIC, Rules.POPOUT])


def engine_grid(state: GameState) -> list[list[str]]:
    return [
        [cell.short if (cell := state.cell(c, r)) else EMPTY for r in range(state.rows)]
        for c in range(state.columns)
    ]


def engine_moves(state: GameState) -> set[tuple[str, int]]:
    return {(move.kind.value, move.column) for move in state.legal_moves()}


def assert_same(state: GameState, reference: ReferenceGame) -> None:
    assert engine_grid(state) == reference.grid
    assert engine_moves(state) == reference.legal_moves()
    winner = state.winner.short if state.winner else None
    assert winner == reference.winner
    assert state.is_draw == reference.draw
    assert state.turn.short == reference.turn


@st.composite
def games(draw: st.DrawFn) -> tuple[int, int, Rules, list[int]]:
    """A size, a rule set and a list of choices (each picks one of the legal moves)."""
    columns, rows, rules = draw(sizes), draw(sizes), draw(rule_sets)
    choices = draw(st.lists(st.integers(min_value=0, max_value=10**6), max_size=120))
    return columns, rows, rules, choices


@given(games())
def test_random_games_match_the_reference(game: tuple[int, int, Rules, list[int]]) -> None:
    columns, rows, rules, choices = game
    state = GameState.new(columns, rows, rules)
    reference = ReferenceGame(columns, rows, rules is Rules.POPOUT)
    assert_same(state, reference)
    for choice in choices:
        moves = sorted(reference.legal_moves())
        if not moves:
            break
        kind, column = moves[choice % len(moves)]
        state = state.play(Move(MoveKind(kind), column))
        reference.play(kind, column)
        assert_same(state, reference)


@given(games())
def test_the_cells_that_differ_are_exactly_those_whose_discs_differ(
    game: tuple[int, int, Rules, list[int]],
) -> None:
    """What the board repaints after a move (or an undo) is every cell that changed, no more."""
    columns, rows, rules, choices = game
    states = [GameState.new(columns, rows, rules)]
    for choice in choices[:40]:
        moves = states[-1].legal_moves()
        if not moves:
            break
        states.append(states[-1].play(moves[choice % len(moves)]))
    every_cell = [(column, row) for column in range(columns) for row in range(rows)]
    for older, newer in zip(states, states[1:] + states[:1], strict=True):
        expected = {cell for cell in every_cell if older.cell(*cell) != newer.cell(*cell)}
        assert newer.cells_differing(older) == expected
        assert older.cells_differing(newer) == expected


@pytest.mark.slow  # scaled by the hypothesis profile: 600 examples on CI
@settings(max_examples=WHOLE_GAMES)
@given(st.randoms(use_true_random=False), st.integers(4, 6), st.integers(4, 5))
def test_popout_games_crowded_into_two_columns(rng: random.Random, columns: int, rows: int) -> None:
    """Moves mostly in two columns make Pop Out positions repeat: repetition draws get tested.

    Every attempt, legal or not, must be judged alike by both implementations.
    """
    state = GameState.new(columns, rows, Rules.POPOUT)
    reference = ReferenceGame(columns, rows, popout=True)
    for _ in range(300):
        kind, column = rng.choice("dp"), rng.choice([-1, 0, 0, 1, 1, rng.randrange(columns + 1)])
        move = Move(MoveKind(kind), column)
        assert state.is_legal(move) == reference.legal(kind, column)
        if state.is_legal(move):
            state = state.play(move)
            reference.play(kind, column)
            assert_same(state, reference)
        if state.is_over:
            break
    event(f"draw={state.draw_reason} winner={state.winner}")


@given(games())
def test_states_are_hashable_and_equal_by_value(game: tuple[int, int, Rules, list[int]]) -> None:
    columns, rows, rules, choices = game
    first = second = GameState.new(columns, rows, rules)
    for choice in choices[:30]:
        moves = first.legal_moves()
        if not moves:
            break
        move = moves[choice % len(moves)]
        first, second = first.play(move), second.play(move)
    assert first == second
    assert hash(first) == hash(second)
    assert {first: 1}[second] == 1
    assert first.turn in (Player.RED, Player.YELLOW)


@pytest.mark.slow  # scaled by the hypothesis profile: 600 examples on CI
@settings(max_examples=WHOLE_GAMES)
@given(st.randoms(use_true_random=False), sizes, sizes, rule_sets)
def test_whole_random_games_match_the_reference(
    rng: random.Random, columns: int, rows: int, rules: Rules
) -> None:
    """Random games played to their end (or 400 moves) agree move by move."""
    state = GameState.new(columns, rows, rules)
    reference = ReferenceGame(columns, rows, rules is Rules.POPOUT)
    for _ in range(400):
        if reference.is_over():
            break
        kind, column = rng.choice(sorted(reference.legal_moves()))
        state = state.play(Move(MoveKind(kind), column))
        reference.play(kind, column)
        assert_same(state, reference)
    event(f"{rules.value}: winner={state.winner} draw={state.draw_reason}")


def discs_of(state: GameState) -> dict[tuple[int, int], Player]:
    cells = ((column, row) for column in range(state.columns) for row in range(state.rows))
    return {cell: owner for cell in cells if (owner := state.cell(*cell)) is not None}


def arranged_by_hand(
    columns: int, rows: int, rules: Rules, discs: dict[tuple[int, int], Player], turn: Player
) -> GameState:
    """The way the lobby codec built a position before the engine could: bitboards by hand."""
    state = GameState.new(columns, rows, rules)
    red = yellow = 0
    for (column, row), owner in discs.items():
        bit = bitboard.cell_bit(state.geometry, column, row)
        red, yellow = (red | bit, yellow) if owner is Player.RED else (red, yellow | bit)
    arranged = replace(state, red=red, yellow=yellow, turn=turn)
    return replace(arranged, history=(arranged.position_key(),) if rules is Rules.POPOUT else ())


@given(games(), st.sampled_from(Player))
def test_a_state_from_its_cells_is_the_one_built_by_hand(
    game: tuple[int, int, Rules, list[int]], turn: Player
) -> None:
    """Every position a game can reach, set up from its cells, equals the hand-made one."""
    columns, rows, rules, choices = game
    state = GameState.new(columns, rows, rules)
    for choice in choices[:60]:
        moves = state.legal_moves()
        if not moves:
            break
        state = state.play(moves[choice % len(moves)])
    discs = discs_of(state)
    made = GameState.from_cells(columns, rows, rules, discs, turn)
    assert made == arranged_by_hand(columns, rows, rules, discs, turn)
    assert discs_of(made) == discs and made.turn is turn and not made.is_over


@given(
    sizes,
    sizes,
    st.dictionaries(st.tuples(st.integers(0, 21), st.integers(0, 21)), st.sampled_from(Player)),
)
def test_a_state_from_cells_refuses_what_no_game_reaches(
    columns: int, rows: int, discs: dict[tuple[int, int], Player]
) -> None:
    """Discs off the board or above an empty cell raise PositionError; others make the state."""
    on_board = all(0 <= column < columns and 0 <= row < rows for column, row in discs)
    settled = all(row == 0 or (column, row - 1) in discs for column, row in discs)
    if on_board and settled:
        made = GameState.from_cells(columns, rows, Rules.CLASSIC, discs)
        assert made == arranged_by_hand(columns, rows, Rules.CLASSIC, discs, Player.RED)
    else:
        with pytest.raises(PositionError):
            GameState.from_cells(columns, rows, Rules.CLASSIC, discs)


def test_a_state_from_cells_names_the_highest_floating_disc() -> None:
    discs = {(0, 0): Player.RED, (2, 1): Player.YELLOW, (4, 3): Player.RED}
    with pytest.raises(PositionError, match="a floating disc in column 5"):
        GameState.from_cells(7, 6, Rules.CLASSIC, discs)
    assert GameState.from_cells(7, 6, Rules.POPOUT, {}) == GameState.new(7, 6, Rules.POPOUT)
