"""A forced four within N moves, proven by searching every defence: proofs on any board and rules.

The solver proves outcomes at once only on the classic boards it proves everywhere
(``ai.exact_boards``). Elsewhere a win can still be proven when it is short: the side to
move forces four within N of its moves when it has a move after which every defence
loses within N - 1 (a four at once is N = 1). The search looks at every defence, not at
a heuristic's guess, so what it proves is a proof, as a forced four found inside the
alpha-beta search's horizon is; what it does not prove may still be a longer win (it
says "not within N", never "no win").

Moves come from ``ai.search``'s bitboard move list (drops, and under Pop Out the
pops, with the rules' outcome of a pop that makes four for either side). Under
Pop Out a position seen for the third time is a draw, counted from the game's
record and the line searched, as the engine counts it; positions are remembered
only on classic boards, where the line that led to them cannot change what they
are worth.
"""

from __future__ import annotations

import math
from collections import Counter

from c4tui.ai.search import Searcher, decode_key
from c4tui.engine import GameState, Move, Player, Rules

#: A position seen this many times is a draw under Pop Out (the rules' threefold repetition).
REPETITION_DRAW = 3
#: (mine, theirs, moves left, the attacker to move) -> whether the attacker forces four (or,
#: the defender to move, loses).
Known = dict[tuple[int, int, int, bool], bool]


class ForcedFour:
    """Proofs of short wins from one position on: its board, its rules, its game's record."""

    def __init__(self, state: GameState) -> None:
        self.searcher = Searcher(state, math.inf)
        self.popout = state.rules is Rules.POPOUT
        self.seen = Counter(decode_key(key, state.geometry) for key in state.history)
        self.known: Known = {}

    def wins_within(self, mine: int, theirs: int, moves: int) -> bool:
        """Whether the side to move (``mine``) forces four within ``moves`` of its moves."""
        children = self.searcher.children(mine, theirs)
        if any(outcome == 1 for *_, outcome in children):
            return True
        if moves <= 1:
            return False
        key = (mine, theirs, moves, True)
        if key not in self.known:
            found = any(
                outcome == 0 and self.after_move(new_theirs, new_mine, moves - 1, attacking=False)
                for _, new_mine, new_theirs, outcome in children
            )
            if not self.popout:
                self.known[key] = found
            return found
        return self.known[key]

    def loses_within(self, mine: int, theirs: int, moves: int) -> bool:
        """Whether every move of the side to move lets the opponent force four within ``moves``.

        No legal move is a draw, not a loss; a pop that makes only the opponent's four loses.
        """
        children = self.searcher.children(mine, theirs)
        if not children:
            return False
        key = (mine, theirs, moves, False)
        if key not in self.known:
            found = all(
                outcome == -1
                or (outcome == 0 and self.after_move(new_theirs, new_mine, moves, attacking=True))
                for _, new_mine, new_theirs, outcome in children
            )
            if not self.popout:
                self.known[key] = found
            return found
        return self.known[key]

    def after_move(self, mine: int, theirs: int, moves: int, attacking: bool) -> bool:
        """The proof from a position a move reached; under Pop Out its third time is a draw.

        ``attacking``: the side to move there is the one forcing four (else it defends).
        """
        if not self.popout:
            return (self.wins_within if attacking else self.loses_within)(mine, theirs, moves)
        position = (mine, theirs)
        if self.seen[position] + 1 >= REPETITION_DRAW:
            return False  # the third time here: a draw, neither side's four
        self.seen[position] += 1
        try:
            return (self.wins_within if attacking else self.loses_within)(mine, theirs, moves)
        finally:
            self.seen[position] -= 1


def sides(state: GameState) -> tuple[int, int]:
    """(the discs of the side to move, the opponent's discs) of ``state``."""
    return (state.red, state.yellow) if state.turn is Player.RED else (state.yellow, state.red)


def moves_to_four(state: GameState, limit: int) -> int | None:
    """The fewest moves in which the side to move forces four, when at most ``limit``, else None.

    None when the game is over or no forced four of ``limit`` moves or fewer exists.
    """
    if state.is_over:
        return None
    proofs = ForcedFour(state)
    mine, theirs = sides(state)
    for moves in range(1, limit + 1):
        if proofs.wins_within(mine, theirs, moves):
            return moves
    return None


def winning_moves(state: GameState, moves: int) -> list[Move]:
    """The moves of the side to move after which it forces four within ``moves`` (its own first).

    In the search's move order (the centre first); a move that makes four at once counts.
    """
    if state.is_over:
        return []
    proofs = ForcedFour(state)
    mine, theirs = sides(state)
    return [
        move
        for move, new_mine, new_theirs, outcome in proofs.searcher.children(mine, theirs)
        if outcome == 1
        or (
            outcome == 0
            and moves > 1
            and proofs.after_move(new_theirs, new_mine, moves - 1, attacking=False)
        )
    ]
