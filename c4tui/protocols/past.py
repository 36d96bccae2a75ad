"""The lobby's past (spec/protocols.md §5.2): HISTORY and GAME, every finished game kept.

Part of the lobby codec (``c4tui.protocols.lobby`` parses these requests with
the others and re-exports the words here); the games come from the server's store.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from c4tui.engine import C4Error, Move, Rules, format_move, parse_move
from c4tui.protocols.names import valid_user
from c4tui.protocols.rooms import BadFormat, ack
from c4tui.protocols.terms import Clock, Terms, parse_clock

_NUMBER = re.compile(r"[0-9]{1,18}")


@dataclass(frozen=True)
class History:
    """HISTORY[:<user>]: a user's finished games (None: the caller's)."""

    user: str | None


@dataclass(frozen=True)
class GameLookup:
    """GAME:<id>: one kept game."""

    number: int


def parse_history(rest: str) -> History | BadFormat:
    """HISTORY:<user>'s argument; a name no account can have is no such user."""
    return History(rest) if valid_user(rest) else BadFormat(history(None))


def parse_game_lookup(rest: str) -> GameLookup | BadFormat:
    """GAME:<id>'s argument; an id that is no number is no such game."""
    return GameLookup(int(rest)) if _NUMBER.fullmatch(rest) else BadFormat(ack("GAME", 1))


def history(games: list[int] | None) -> str:
    """HISTORY:ACKSTATUS:0:<id>,<id>… newest first (none: a trailing colon); :1 no such user."""
    if games is None:
        return ack("HISTORY", 1)
    return ack("HISTORY", 0, ",".join(str(number) for number in games))


def game_record(
    *,
    number: int,
    red: str,
    yellow: str,
    game: tuple[int, int, Rules],
    winner: str | None,
    reason: str,
    moves: Sequence[Move],
    rated: bool,
    started: str,
    clock: Clock | None,
) -> str:
    """GAME:ACKSTATUS:0:<id>:<red>:<yellow>:<cols>:<rows>:<rules>:<winner>:<reason>:<moves>:…

    …``<rated 0|1>:<started>:<clock>``: moves in the app's notation (``d4 p3``), the
    winner empty for a draw, the start in UTC, ISO 8601 (``HH:MM:SS``, its own colons),
    the clock ``<minutes>+<increment>`` or ``-`` for none (added last, after the start,
    so that a client that reads the start as "the rest" still finds it first).
    """
    columns, rows, rules = game
    played = " ".join(format_move(move) for move in moves)
    fields = [str(number), red, yellow, str(columns), str(rows), rules.value, winner or ""]
    timed = NO_CLOCK if clock is None else clock.text
    return ack("GAME", 0, *fields, reason, played, str(int(rated)), started, timed)


#: GAME's clock field for a game without one.
NO_CLOCK = "-"
#: How many fields an ISO 8601 start (``2026-11-26T23:05:16Z``) takes when split on colons.
_START_FIELDS = 3


# ----- what a client reads -------------------------------------------------------------


#: GAME's reason for a game called off (§5.6): nobody won or drew, nothing was rated.
ABORTED_REASON = "aborted"


@dataclass(frozen=True)
class KeptGame:
    """One game as GAME's answer gives it: who played, on what board, how it went."""

    number: int
    red: str
    yellow: str
    game: tuple[int, int, Rules]
    winner: str | None  # None: a draw, or a game still in progress (no reason then)
    reason: (
        str  # four, full, repetition, forfeit, disconnect, time, agreement, aborted; "": going on
    )
    moves: tuple[Move, ...]
    rated: bool
    started: str  # UTC, ISO 8601
    clock: Clock | None = None  # None: no clock, or a server too old to say

    @property
    def terms(self) -> Terms:
        """Rated or casual, and the clock (``rated 3+2`` in words)."""
        return Terms(self.rated, self.clock)


def parse_history_answer(extra: Sequence[str]) -> list[int]:
    """HISTORY:ACKSTATUS:0's ids, newest first (ids that are no numbers are left out)."""
    return [int(word) for word in ":".join(extra).split(",") if _NUMBER.fullmatch(word)]


def parse_kept_game(extra: Sequence[str]) -> KeptGame | None:
    """GAME:ACKSTATUS:0's fields (``extra``); None if they do not make a game."""
    if len(extra) < 11 or not _NUMBER.fullmatch(extra[0]) or extra[9] not in ("0", "1"):
        return None
    number, red, yellow, columns, rows, rules, winner, reason, played, rated = extra[:10]
    try:
        moves = tuple(parse_move(word) for word in played.split())
        game = (int(columns), int(rows), Rules(rules))
    except (C4Error, ValueError):
        return None
    return KeptGame(
        number=int(number),
        red=red,
        yellow=yellow,
        game=game,
        winner=winner or None,
        reason=reason,
        moves=moves,
        rated=rated == "1",
        started=":".join(extra[10 : 10 + _START_FIELDS]),  # the time's own colons
        clock=_kept_clock(extra[10 + _START_FIELDS :]),
    )


def _kept_clock(rest: Sequence[str]) -> Clock | None:
    """The clock after GAME's start: ``m+i``, ``-``, or nothing (a server before it)."""
    return parse_clock(rest[0]) if rest else None
