"""Coming and going in the lobby (spec/protocols.md §5.1): AWAY, BACK, REJOIN and BYE, both ways.

Part of the lobby codec: ``c4tui.protocols.lobby`` re-exports these words with the
rest of its messages; the rooms say when (``c4tui.lobby.rooms``), the server says BYE.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum

_SECONDS = re.compile(r"[0-9]{1,6}")


class ByeReason(Enum):
    """Why the server closes a connection on purpose (a violation closes without a word)."""

    ELSEWHERE = "elsewhere"  # the same user logged in on another connection
    IDLE = "idle"  # silent too long while in no room
    SHUTDOWN = "shutdown"  # the server is stopping: reconnect
    FULL = "full"  # refused: too many connections
    TLS = "tls"  # plain text on the lobby's TLS port: connect with TLS
    BANNED = "banned"  # a moderator banned the account (§7)
    DELETED = "deleted"  # the account was deleted, by its owner or by `c4tui admin` (§7)


def bye(reason: ByeReason) -> str:
    """BYE:<reason>, the server's last line before it closes a connection on purpose."""
    return f"BYE:{reason.value}"


def away(user: str, seconds: int) -> str:
    """AWAY:<user>:<seconds>: a player's connection dropped; seconds left to come back."""
    return f"AWAY:{user}:{seconds}"


def back(user: str) -> str:
    """BACK:<user>: an away player logged in again in time."""
    return f"BACK:{user}"


def rejoin(room: str) -> str:
    """REJOIN:<room>: to a player right after its login, when it has an unfinished game."""
    return f"REJOIN:{room}"


# ----- what clients receive -----------------------------------------------------------


@dataclass(frozen=True)
class Bye:
    """The server's last line before it closes our connection on purpose, and why.

    ``reason`` is a ``ByeReason``'s word (``elsewhere``, ``idle``, ``banned``…); another word
    is kept as it came, for a newer server's reasons.
    """

    reason: str


@dataclass(frozen=True)
class Away:
    """A player's connection dropped: ``seconds`` left for it to come back."""

    user: str
    seconds: int


@dataclass(frozen=True)
class Back:
    """An away player came back in time."""

    user: str


@dataclass(frozen=True)
class Rejoin:
    """Right after our login: we have a game under way in ``room`` (INPROGRESS follows)."""

    room: str


def parse_presence(fields: list[str]) -> Bye | Away | Back | Rejoin | None:
    """BYE, AWAY, BACK or REJOIN from a server line split at its colons (None: none of them)."""
    word = fields[0]
    if word == "REJOIN" and len(fields) == 2:
        return Rejoin(fields[1])
    if word == "BYE" and len(fields) == 2:
        return Bye(fields[1])
    if word == "AWAY" and len(fields) == 3 and _SECONDS.fullmatch(fields[2]):
        return Away(fields[1], int(fields[2]))
    if word == "BACK" and len(fields) == 2:
        return Back(fields[1])
    return None
