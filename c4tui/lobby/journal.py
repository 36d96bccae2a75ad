"""What happened to the rooms' games, as the rooms tell it: began, a move (or one undone), ended.

The rooms append these past-tense facts as they act (``Lobby.take_journal``);
the server keeps them (the lobby's store) before it sends what the act answered,
so nobody is told of a move that is not on disk. Pure values, like the rooms.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Generic, TypeVar, Union

from c4tui.protocols.terms import CASUAL, Terms

#: A room's settings; a move in its game.
S = TypeVar("S")
M = TypeVar("M")


class EndReason(Enum):
    """Why a game ended, in the words GAME:<id> answers with (spec/protocols.md §5.2)."""

    FOUR = "four"  # a line on the board (four in a row; three in tic-tac-toe)
    FULL = "full"  # a draw: the board is full (or, under Pop Out, no legal move is left)
    REPETITION = "repetition"  # a draw: Pop Out's threefold repetition
    FORFEIT = "forfeit"  # a player sent FORFEIT
    DISCONNECT = "disconnect"  # a player left (or did not come back in time)
    TIME = "time"  # a player's clock ran out
    AGREEMENT = "agreement"  # a draw both players agreed to (§5.6)
    ABORTED = "aborted"  # before both moved, or neither came back after a restart: unrated


@dataclass(frozen=True)
class GameBegan(Generic[S]):
    """The second player sat down: the game in ``room`` began (BEGIN)."""

    room: str
    red: str
    yellow: str
    settings: S
    terms: Terms = CASUAL  # rated or casual, and the clock


@dataclass(frozen=True)
class MoveMade(Generic[M]):
    """A legal move in ``room``'s game; ``ply`` counts the game's moves from 1.

    ``clock``: in a timed game, the milliseconds each player (RED's, YELLOW's) has
    left after the move, its increment added (None: no clock).
    """

    room: str
    ply: int
    move: M
    clock: tuple[int, int] | None = None


@dataclass(frozen=True)
class MoveTakenBack:
    """Both players agreed to take back the last move in ``room``'s game: ply ``ply`` is gone."""

    room: str
    ply: int


@dataclass(frozen=True)
class GameFinished:
    """The game in ``room`` ended (GAMEEND); ``winner`` is None for a draw."""

    room: str
    winner: str | None
    reason: EndReason


#: One entry of the journal, in the order the rooms acted.
GameEvent = Union[GameBegan[S], MoveMade[M], MoveTakenBack, GameFinished]  # noqa: UP007
