"""A game's moves as undo and redo see them: every position so far, and what undo took back.

Pure bookkeeping for ``MatchDriver``, which stops and restarts its loop around each
change and reports it. The rules live here: a new move forgets what was undone; an
undo takes moves back as one step; a redo plays the latest step again, the same
moves in the same order (the person's and the computer's reply, as undo took them).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from c4tui.engine import GameState, Move


class GameHistory:
    """Every position of one game from ``start``, and the steps undo took back.

    Args:
        start: the first position (``restart`` goes back to it).
        moves: moves already played from it. Raises IllegalMoveError for an illegal one.
    """

    def __init__(self, start: GameState, moves: Sequence[Move] = ()) -> None:
        self._start = start
        self._states = [start]
        self._moves: list[Move] = []
        #: What each undo took back, in playing order; the latest undo last.
        self._undone: list[tuple[Move, ...]] = []
        for move in moves:
            self._advance(move)

    @property
    def state(self) -> GameState:
        """The current position."""
        return self._states[-1]

    @property
    def moves(self) -> tuple[Move, ...]:
        """Every move played so far, in order."""
        return tuple(self._moves)

    @property
    def positions(self) -> tuple[GameState, ...]:
        """Every position so far, the first one first (one more than there are moves)."""
        return tuple(self._states)

    def play(self, move: Move) -> GameState:
        """Play a new ``move`` (IllegalMoveError if it is not legal); the position after it.

        A new move changes the game's course: what undo took back cannot be redone.
        """
        after = self._advance(move)
        self.forget_undone()
        return after

    def forget_undone(self) -> None:
        """Nothing can be redone any more (a new move is on its way)."""
        self._undone.clear()

    def take_back_last(self) -> None:
        """Forget the last move as if never played (it never reached the other side)."""
        if self._moves:
            self._states.pop()
            self._moves.pop()

    def undo(self, until: Callable[[GameState], bool]) -> int:
        """Take moves back, one at least, until ``until`` accepts the position reached.

        The moves taken back are one step that ``redo`` plays again. Returns how
        many were taken back (0 at the first position).
        """
        taken: list[Move] = []
        while self._moves:
            self._states.pop()
            taken.append(self._moves.pop())
            if until(self.state):
                break
        if taken:
            self._undone.append(tuple(reversed(taken)))
        return len(taken)

    @property
    def can_redo(self) -> bool:
        """True when an undo's moves wait to be played again."""
        return bool(self._undone)

    def redo(self) -> int:
        """Play again the moves the latest undo took back; how many (0: nothing to redo)."""
        if not self._undone:
            return 0
        step = self._undone.pop()
        for move in step:
            self._advance(move)
        return len(step)

    def restart(self) -> None:
        """Back to the first position, with nothing to redo."""
        self._states = [self._start]
        self._moves = []
        self._undone = []

    def _advance(self, move: Move) -> GameState:
        after = self.state.play(move)
        self._states.append(after)
        self._moves.append(move)
        return after
