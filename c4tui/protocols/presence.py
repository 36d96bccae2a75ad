"""Coming and going in the lobby (spec/protocols.md §5.1): AWAY, BACK, REJOIN and BYE.

Part of the lobby codec: ``c4tui.protocols.lobby`` re-exports these words with the
rest of its messages; the rooms say when (``c4tui.lobby.rooms``), the server says BYE.
"""

from __future__ import annotations

from enum import Enum


class ByeReason(Enum):
    """Why the server closes a connection on purpose (a violation closes without a word)."""

    ELSEWHERE = "elsewhere"  # the same user logged in on another connection
    IDLE = "idle"  # silent too long while in no room
    SHUTDOWN = "shutdown"  # the server is stopping: reconnect
    FULL = "full"  # refused: too many connections


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
