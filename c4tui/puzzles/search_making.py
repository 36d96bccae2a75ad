"""Puzzles on other boards and under Pop Out, where no solver reaches: short wins a search proves.

The solver (``puzzles.making``) proves every 7 × 6 classic move; elsewhere only a
short forced four can be proven (``ai.forced_four``: every defence searched). So a
position here is a puzzle when the side to move forces four in N moves (2 to
``MAX_SEARCHED_MOVES``) and no fewer, with exactly one move that does it in N,
and the line stays unique: after the slowest defence (the one after which the
four takes longest; among equals the nearest the centre, a drop before a pop)
the solver side again has exactly one move that wins as fast, down to the four.
Only wins: a draw cannot be proven by a shallow search, so there is no "hold"
here. Every such puzzle is marked "search-proven", and "pop out" when its
solution pops, the solver side or the defence (a Pop Out trick); "zugzwang" means
what it means on 7 × 6 (``making.is_zugzwang``, on the board's own row parities),
and "double threat" that the solver side's move before the last defence left two
fours at once (a 7 × 6 solution with that ends there; these go on to the four).

The positions come from games between two Easy levels on that board and rules,
as on 7 × 6 (``making.positions_of_game``). This loads no solver, only the search.
"""

from __future__ import annotations

from collections.abc import Callable

from c4tui.ai.forced_four import moves_to_four, winning_moves
from c4tui.engine import GameState, Move, MoveKind, Rules, format_move
from c4tui.puzzles.making import (
    BASE_RATING,
    DOUBLE_THREAT,
    STEP_RATING,
    ZUGZWANG,
    collect_puzzles,
    immediate_wins,
    is_zugzwang,
)
from c4tui.puzzles.puzzle import WIN, Puzzle

#: The most solver-side moves a search-proven solution holds (the search grows fast with it).
MAX_SEARCHED_MOVES = 3
#: The mark of a puzzle proven by the search, not the solver, and of one whose solution pops.
SEARCH_PROVEN, POP_OUT = "search-proven", "pop out"


def searched_puzzle_at(state: GameState, moves: list[Move]) -> Puzzle | None:
    """The search-proven puzzle in ``state`` (reached by ``moves``), or None when it is none."""
    fewest = moves_to_four(state, MAX_SEARCHED_MOVES)
    if fewest is None or fewest < 2:
        return None  # no short win to prove, or a four at once
    line = forced_line(state, fewest)
    if line is None:
        return None
    solution = tuple(map(format_move, line))
    themes = [f"win in {fewest}", SEARCH_PROVEN]
    if any(move.kind is MoveKind.POP for move in line):
        themes.append(POP_OUT)
    if immediate_wins(state.play_all(line[:-2]), state.turn) >= 2:
        themes.append(DOUBLE_THREAT)  # the move before the last defence made two fours at once
    if is_zugzwang(state, solution):
        themes.append(ZUGZWANG)
    position = " ".join(map(format_move, moves))
    return Puzzle(
        f"{state.columns}x{state.rows} {state.rules.value}: {position}",
        position,
        solution,
        WIN,
        tuple(themes),
        BASE_RATING + STEP_RATING * (fewest - 1),
        state.columns,
        state.rows,
        state.rules,
    )


def forced_line(state: GameState, fewest: int) -> list[Move] | None:
    """The win in ``fewest`` moves from ``state``, or None when it is not one way.

    Each solver move is the only one winning as fast, each defence the slowest;
    None when at some step another solver move wins as fast.
    """
    line: list[Move] = []
    position, left = state, fewest
    while True:
        only = winning_moves(position, left)
        if len(only) != 1:
            return None
        line.append(only[0])
        position = position.play(only[0])
        if position.winner is not None:
            return line
        defence, left = slowest_defence(position, left - 1)
        line.append(defence)
        position = position.play(defence)


def slowest_defence(state: GameState, limit: int) -> tuple[Move, int]:
    """The defence after which the opponent's forced four takes longest, and how many moves.

    Every defence loses within ``limit`` moves (the line proved it); a defence that
    hands over the four at once (a pop) takes 0 more moves to lose, and is never chosen
    while another loses later. Among equals the nearest the centre, a drop before a pop.
    """
    slowest: tuple[Move, int] | None = None
    for defence in sorted(state.legal_moves(), key=lambda move: _nearest_centre(state, move)):
        after = state.play(defence)
        if after.winner is not None:
            left = 0
        else:
            found = moves_to_four(after, limit)
            if found is None:
                raise AssertionError("a defence escaped a proven forced four")
            left = found
        if slowest is None or left > slowest[1]:
            slowest = (defence, left)
    if slowest is None:
        raise AssertionError("a position with no defence is over")
    return slowest


def _nearest_centre(state: GameState, move: Move) -> tuple[int, bool]:
    """A sort key: the centre's columns first, and a column's drop before its pop."""
    return abs(2 * move.column + 1 - state.columns), move.kind is MoveKind.POP


def make_searched_puzzles(
    count: int,
    seed: int,
    board: GameState,
    on_found: Callable[[int], None] | None = None,
) -> list[Puzzle]:
    """``count`` distinct search-proven puzzles on ``board``'s size and rules, the same for a seed.

    ``board`` is the empty board (its size and rules); ``on_found`` is told how many
    have been found after each new one (a progress bar). Positions as for 7 × 6:
    one position reached two ways is one puzzle.
    """
    return collect_puzzles(
        count, seed, lambda state, moves: searched_puzzle_at(state, list(moves)), board, on_found
    )


def empty_board(columns: int, rows: int, pop_out: bool) -> GameState:
    """The empty board of that size and rules (raises BoardSizeError for a size out of range)."""
    return GameState.new(columns, rows, Rules.POPOUT if pop_out else Rules.CLASSIC)
