"""What a room's game must offer the rooms (``c4tui.lobby.rooms``), whatever is played in it.

A ``RoomKind`` makes a room's ``Table`` from its settings and has the words its
protocol uses for a room's events; the kinds themselves are ``c4tui.lobby.kinds``.
"""

from __future__ import annotations

from enum import Enum
from typing import Protocol, TypeVar

from c4tui.lobby.journal import EndReason

S_contra = TypeVar("S_contra", contravariant=True)
M_contra = TypeVar("M_contra", contravariant=True)


class Seat(Enum):
    """A player's place in a room: the creator's moves first."""

    FIRST = "first"
    SECOND = "second"

    @property
    def other(self) -> Seat:
        """The opponent's seat."""
        return Seat.SECOND if self is Seat.FIRST else Seat.FIRST


class Table(Protocol[M_contra]):
    """A room's game, as the rooms need to see it: whose turn, how it ended, its words."""

    @property
    def seat_to_move(self) -> Seat:
        """Whose turn it is."""

    @property
    def is_over(self) -> bool:
        """True once the game has ended (a win or a draw)."""

    @property
    def winning_seat(self) -> Seat | None:
        """Who won (None: nobody, yet or at all)."""

    @property
    def end_reason(self) -> EndReason | None:
        """How it ended on the board: a line, a full board, a repetition (None: not over)."""

    def refusal(self, move: M_contra) -> str | None:
        """Why ``move`` may not be played now (None: it may)."""

    def play(self, move: M_contra) -> Table[M_contra]:
        """The game after ``move`` (which ``refusal`` allowed)."""

    def board_status(self) -> str:
        """The board, to everyone after each move."""

    def game_end(self, status: int, winner: str | None) -> str:
        """GAMEEND: 0 a win, 1 a draw, 2 a forfeit."""

    def refused(self, reason: str) -> str:
        """The answer to a game message refused (to its sender only)."""


class RoomKind(Protocol[S_contra, M_contra]):
    """What is played in the rooms with which settings, and the protocol's words for them."""

    def new_table(self, settings: S_contra) -> Table[M_contra]:
        """A new game with a room's settings."""

    def settings_fields(self, settings: S_contra) -> list[str]:
        """The settings as ROOMINFO lists them."""

    def begin(self, first: str, second: str, settings: S_contra) -> str:
        """BEGIN, to everyone in the room."""

    def in_progress(self, to_move: str, other: str, settings: S_contra) -> str:
        """INPROGRESS, to a viewer joining a game under way (the board follows)."""
