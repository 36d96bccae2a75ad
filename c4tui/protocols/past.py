"""The lobby's past (spec/protocols.md §5.2): HISTORY and GAME, every finished game kept.

Part of the lobby codec (``c4tui.protocols.lobby`` parses these requests with
the others and re-exports the words here); the games come from the server's store.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from c4tui.engine import Move, Rules, format_move
from c4tui.protocols.names import valid_user
from c4tui.protocols.rooms import BadFormat, ack

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
) -> str:
    """GAME:ACKSTATUS:0:<id>:<red>:<yellow>:<cols>:<rows>:<rules>:<winner>:<reason>:<moves>:…

    …``<rated 0|1>:<started>``: moves in the app's notation (``d4 p3``), the winner
    empty for a draw, the start in UTC, ISO 8601 (its own colons come last).
    """
    columns, rows, rules = game
    played = " ".join(format_move(move) for move in moves)
    fields = [str(number), red, yellow, str(columns), str(rows), rules.value, winner or ""]
    return ack("GAME", 0, *fields, reason, played, str(int(rated)), started)
