"""The search's own bitboard move generation agrees with the rules engine."""

from __future__ import annotations

import random

from hypothesis import event, given
from hypothesis import strategies as st

from c4tui.ai.search import Searcher
from c4tui.engine import GameState, Move, Player, Rules, format_move
from tests.engine_helpers import play

#: ``Searcher.children`` keyed by move: (new mine, new theirs, outcome).
Children = dict[Move, tuple[int, int, int]]

sizes = st.one_of(
    st.just((4, 4)),
    st.just((7, 6)),
    st.tuples(st.integers(min_value=4, max_value=20), st.integers(min_value=4, max_value=20)),
)
rule_sets = st.sampled_from([Rules.CLASSIC, Rules.POPOUT])


def seen_from_mover(state: GameState, mover: Player) -> tuple[int, int]:
    """(mover's discs, opponent's discs) of ``state``."""
    if mover is Player.RED:
        return state.red, state.yellow
    return state.yellow, state.red


def search_children(state: GameState) -> Children:
    """The search's moves of ``state`` (checking that none is listed twice)."""
    mine, theirs = seen_from_mover(state, state.turn)
    children = Searcher(state, deadline=float("inf")).children(mine, theirs)
    by_move = {
        move: (new_mine, new_theirs, outcome) for move, new_mine, new_theirs, outcome in children
    }
    assert len(by_move) == len(children), f"a move is listed twice: {children}"
    return by_move


def engine_outcome(after: GameState, mover: Player) -> int:
    """1 when ``mover`` has won in ``after``, -1 when the opponent has, else 0."""
    if after.winner is None:
        return 0
    return 1 if after.winner is mover else -1


def assert_children_match_engine(state: GameState) -> None:
    """Every child of the search is the engine's move: same moves, boards and outcomes."""
    children = search_children(state)
    assert set(children) == set(state.legal_moves())
    mover = state.turn
    for move, (new_mine, new_theirs, outcome) in children.items():
        after = state.play(move)
        assert (new_mine, new_theirs) == seen_from_mover(after, mover), format_move(move)
        assert outcome == engine_outcome(after, mover), format_move(move)
        if outcome:
            event(f"{state.rules.value}: {move.kind.name.lower()} with outcome {outcome}")


def outcomes(state: GameState) -> dict[str, int]:
    """The search's outcome of every move, by move notation (``d3``, ``p1``)."""
    return {format_move(move): child[2] for move, child in search_children(state).items()}


def play_randomly(state: GameState, rng: random.Random, length: int) -> list[GameState]:
    """The positions of a random game from ``state``: at most ``length`` moves, none over."""
    positions = [state]
    for _ in range(length):
        state = state.play(rng.choice(state.legal_moves()))
        if state.is_over:
            event(f"{state.rules.value}: the game ended")
            break
        positions.append(state)
    return positions


@given(
    st.randoms(use_true_random=False),
    sizes,
    rule_sets,
    st.integers(min_value=0, max_value=300),
)
def test_search_children_match_the_engine_along_random_games(
    rng: random.Random, size: tuple[int, int], rules: Rules, length: int
) -> None:
    """Every position of the game is checked, including the moves that end it."""
    columns, rows = size
    for state in play_randomly(GameState.new(columns, rows, rules), rng, length):
        assert_children_match_engine(state)


def test_classic_children_skip_full_columns_and_lines_do_not_wrap_between_columns() -> None:
    # 5x4, red to move. Column 1 is full (Y Y R R from the bottom). After d2 red holds
    # the top two cells of column 1 and the bottom two of column 2: a "vertical four"
    # only if bits wrapped from one column into the next. d3 completes a real one.
    state = play("d2 d1 d3 d1 d1 d4 d1 d4 d3 d5 d3 d5", columns=5, rows=4, rules=Rules.CLASSIC)
    assert state.turn is Player.RED and not state.is_over
    assert outcomes(state) == {"d2": 0, "d3": 1, "d4": 0, "d5": 0}
    mine, theirs, _ = search_children(state)[Move.drop(1)]
    assert mine == state.red | 1 << (1 * 5 + 1)  # column 2, row 2 (stride 5)
    assert theirs == state.yellow


def test_popout_pop_completing_only_the_opponents_line_is_a_loss_for_the_popper() -> None:
    # Popping column 1 drops yellow's disc into row 1: Y Y Y Y, red gets no line.
    state = play("d1 d2 d2 d3 d3 d4 d6 d1")
    assert state.turn is Player.RED
    assert outcomes(state) == {**{f"d{c}": 0 for c in range(1, 8)}, "p1": -1, "p6": 0}
    assert state.play(Move.pop(0)).winner is Player.YELLOW


def test_popout_pop_completing_lines_for_both_players_is_a_win_for_the_popper() -> None:
    # Popping column 1 makes row 1 Y Y Y Y and row 2 R R R R at once: red, who popped, wins.
    state = play("d1 d2 d2 d3 d3 d4 d4 d1 d1 d7")
    assert state.turn is Player.RED
    assert outcomes(state) == {**{f"d{c}": 0 for c in range(1, 8)}, "p1": 1}
    assert state.play(Move.pop(0)).winner is Player.RED
