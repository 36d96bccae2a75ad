"""What every outside move-chooser offers, and the ways one can fail.

A ``Chooser`` is a player without a screen: given a position and a time limit it
answers a move. Outside ones (an engine program, a Kaggle agent) run in their own
process and may fail in any way a program can; each failure raises
``OutsideFailure`` with its kind, so the caller counts the game lost for that
player, records why, and goes on (the process is gone by then: the next
``choose`` starts a fresh one).
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import Enum
from typing import Protocol

from c4tui.engine import C4Error, GameState, Move, PositionError, Rules, format_move
from c4tui.engine.sequence import drops_reaching
from c4tui.outside.sandbox import printable

#: Seconds an answer may come after the move's time limit before it counts as too late
#: (a process's start-up and a loaded machine's scheduling are not the player's fault).
TIME_MARGIN = 0.5
#: Characters of a failure's detail kept (an agent's exception may be any length).
MAX_DETAIL = 1000
#: Seconds a program has to exit after ``quit`` before it is killed.
EXIT_SECONDS = 1.0


class FailureKind(Enum):
    """Why an outside player lost: what a tournament's table counts."""

    #: The process exited, or the agent raised an exception.
    CRASH = "crash"
    #: No answer within the time limit and the margin.
    TIME = "time"
    #: A move the rules do not allow in the position.
    ILLEGAL = "illegal"
    #: An answer that is not one (garbage, a string for a column, a line too long).
    MALFORMED = "malformed"


class OutsideFailure(C4Error):
    """An outside player failed: ``kind`` says how, ``detail`` what it did, in words."""

    def __init__(self, kind: FailureKind, detail: str) -> None:
        detail = printable(detail, MAX_DETAIL)  # a program's words: shown, never obeyed
        super().__init__(f"{kind.value}: {detail}")
        self.kind = kind
        self.detail = detail


class ChooserError(C4Error, ValueError):
    """A chooser asked for what it cannot be or do: an unknown player, a game it cannot play."""


class Chooser(Protocol):
    """A move-chooser: the built-in levels, an engine program, a Kaggle agent."""

    @property
    def name(self) -> str:
        """A short name for tables and logs (``perfect``, ``negamax``)."""
        ...

    def describe(self) -> str:
        """What it is, in a few words: ``engine 'python3 my.py' (Deep Four by Ann)``."""
        ...

    def refusal(self, columns: int, rows: int, rules: Rules) -> str | None:
        """Why it cannot play such a game (Kaggle agents: classic only); None if it can."""
        ...

    async def choose(
        self, state: GameState, time_limit: float, moves: Sequence[Move] | None = None
    ) -> Move:
        """The move to play in ``state`` (not over), answered within ``time_limit`` seconds.

        ``moves``, when known, are the game so far from the empty board (an engine is
        told them). Without them an engine works them out: its last position and the
        opponent's reply, else drops that rebuild the board (classic only).
        Raises OutsideFailure when the player fails (its process is then gone), and
        ChooserError for a game it cannot play or moves that do not reach ``state``.
        """
        ...

    async def close(self) -> None:
        """Stop its process, if any (a chooser may be closed more than once)."""
        ...


#: A position a chooser answered in, after its move, and the moves that reached it.
Answered = tuple[GameState, tuple[Move, ...]]


def game_so_far(
    state: GameState, moves: Sequence[Move] | None, answered: Answered | None = None
) -> tuple[Move, ...]:
    """``moves`` checked to reach ``state``; when None, the moves that must have.

    Without ``moves``: the moves to the position ``answered`` last and the one legal
    move that leads from there to ``state`` (the opponent's reply), else drops that
    rebuild the board. Raises ChooserError when the moves given do not reach
    ``state``, or when a Pop Out board comes without them and not as such a reply.
    """
    if moves is None and answered is not None:
        before, reaching = answered
        for move in before.legal_moves():
            if before.play(move).position_key() == state.position_key():
                return (*reaching, move)
    if moves is None:
        try:
            return drops_reaching(state)
        except PositionError as error:
            raise ChooserError(f"the game so far is needed here: {error}") from None
    try:
        reached = GameState.new(state.columns, state.rows, state.rules).play_all(tuple(moves))
    except C4Error as error:
        raise ChooserError(f"the moves given are not a game: {error}") from None
    if reached.position_key() != state.position_key():
        raise ChooserError("the moves given do not reach the position")
    return tuple(moves)


def checked_move(state: GameState, move: Move) -> Move:
    """``move`` if the rules allow it in ``state``; else OutsideFailure (illegal, and why)."""
    refusal = state.refusal(move)
    if refusal is not None:
        raise OutsideFailure(FailureKind.ILLEGAL, f"{format_move(move)}: {refusal}")
    return move


def ready_to_choose(state: GameState, time_limit: float) -> None:
    """Raise ChooserError unless ``state`` has a move to choose and ``time_limit`` is positive."""
    if state.is_over:
        raise ChooserError("the game is over: there is no move to choose")
    if time_limit <= 0:
        raise ChooserError(f"a move needs some time, not {time_limit} seconds")
