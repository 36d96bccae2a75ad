"""What players say to each other at the table (spec/protocols.md §5.6): draws, takebacks, aborts.

Part of the lobby codec: ``c4tui.protocols.lobby`` parses these requests with the
others (``PARSERS``, ``BARE``) and reads these messages among the server's
(``parse_table_message``). The rules (who may offer what, and when) are the
rooms' (``c4tui.lobby.table_talk``).

What this server chose where the spec is silent (PROTOCOL.md says so too): each
of the six requests is answered ``<COMMAND>:ACKSTATUS:<n>`` first, 0 when it was
done (before the GAMEEND or BOARDSTATUS it leads to), and one sent with any
argument is a bad format, status ``BAD_FORMAT``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import ClassVar

from c4tui.protocols.rooms import BadFormat, ack

#: The ACKSTATUS of any of these requests sent with an argument.
BAD_FORMAT = 3
#: GAMEEND's statuses with no winner: 1 a draw on the board, 4 a draw agreed, 5 aborted.
DRAW_AGREED = 4
ABORTED = 5
NO_WINNER = frozenset({1, DRAW_AGREED, ABORTED})
#: Every GAMEEND status: 0 a win, 1 a draw, 2 a forfeit, 3 on time (§4-5.4), then 4 and 5.
END_STATUSES = frozenset("012345")

#: The table's times (the rooms keep them; clients say them, and when a claim is possible).
#: Seconds an opponent must have been away before the other player may CLAIM the game.
AWAY_BEFORE_CLAIM = 30.0
#: In a game without a clock: seconds without a move before IDLE, and before a CLAIM.
IDLE_WARNING = 300.0
IDLE_BEFORE_CLAIM = 600.0
#: Plies both players have made once each has moved (a draw may be offered; no abort).
BOTH_MOVED = 2


def valid_end(status: str, winner: str) -> bool:
    """True for a GAMEEND status of ``END_STATUSES``, with a winner exactly when it has one."""
    return status in END_STATUSES and (int(status) in NO_WINNER) == (winner == "")


# ----- what clients send ---------------------------------------------------------------


@dataclass(frozen=True)
class OfferDraw:
    """DRAW: offer a draw, or accept the other player's offer."""


@dataclass(frozen=True)
class DeclineDraw:
    """DECLINEDRAW: turn the other player's draw offer down."""


@dataclass(frozen=True)
class OfferTakeback:
    """TAKEBACK: ask to take our last move back, or agree to the other player's asking."""


@dataclass(frozen=True)
class DeclineTakeback:
    """DECLINETAKEBACK: refuse the other player's takeback."""


@dataclass(frozen=True)
class Abort:
    """ABORT: call the game off before both players have moved (unrated)."""


@dataclass(frozen=True)
class Claim:
    """CLAIM: win against an opponent away 30 s, or idle 10 minutes in a game without a clock."""


TableRequest = OfferDraw | DeclineDraw | OfferTakeback | DeclineTakeback | Abort | Claim

#: Each request by its command (all take no argument).
BARE: dict[str, TableRequest] = {
    "DRAW": OfferDraw(),
    "DECLINEDRAW": DeclineDraw(),
    "TAKEBACK": OfferTakeback(),
    "DECLINETAKEBACK": DeclineTakeback(),
    "ABORT": Abort(),
    "CLAIM": Claim(),
}
#: The command of each request (for answering it).
COMMANDS: dict[type[TableRequest], str] = {type(request): word for word, request in BARE.items()}


def _arguments_refused(command: str) -> Callable[[str], BadFormat]:
    """``<command>:<anything>``: a bad format (``BAD_FORMAT``); the bare command is the request."""

    def parse(rest: str) -> BadFormat:
        return BadFormat(ack(command, BAD_FORMAT))

    return parse


#: The parsers of these commands with an argument: every one is a bad format.
ARGUMENTS_REFUSED = {command: _arguments_refused(command) for command in BARE}


# ----- what the server sends, and clients receive ------------------------------------


@dataclass(frozen=True)
class About:
    """A message about one player of the room, ``<WORD>:<user>`` (each kind names its word)."""

    word: ClassVar[str]
    user: str

    @property
    def line(self) -> str:
        """The message as the server sends it."""
        return f"{self.word}:{self.user}"


class DrawOffered(About):
    """DRAWOFFER: ``user`` offers a draw (to everyone else in the room); DRAW accepts it."""

    word = "DRAWOFFER"


class DrawDeclined(About):
    """DRAWDECLINED: ``user`` turned our draw offer down (DECLINEDRAW, or a move)."""

    word = "DRAWDECLINED"


class TakebackOffered(About):
    """TAKEBACKOFFER: ``user`` asks to take its last move back; TAKEBACK agrees."""

    word = "TAKEBACKOFFER"


class TakebackDeclined(About):
    """TAKEBACKDECLINED: ``user`` refused our takeback (DECLINETAKEBACK, or a move)."""

    word = "TAKEBACKDECLINED"


class Idle(About):
    """IDLE: ``user``, to move without a clock, has not moved for 5 minutes (CLAIM at 10)."""

    word = "IDLE"


TableMessage = DrawOffered | DrawDeclined | TakebackOffered | TakebackDeclined | Idle
_MESSAGES: dict[str, type[TableMessage]] = {
    kind.word: kind for kind in (DrawOffered, DrawDeclined, TakebackOffered, TakebackDeclined, Idle)
}


def parse_table_message(fields: list[str]) -> TableMessage | None:
    """One of these messages from a server line split at its colons (None: none of them)."""
    kind = _MESSAGES.get(fields[0])
    if kind is None or len(fields) != 2 or not fields[1]:
        return None
    return kind(fields[1])
