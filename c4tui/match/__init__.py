"""The adapter between a game and whoever plays it: the match driver, its events and seats.

Pure Python (asyncio, but no Textual here): every front end — the app, the
console, the server — plays through ``MatchDriver``, and every kind of player —
a person here, the AI, a network server — is a Backend found in one registry.
"""

from c4tui.match.backends import (
    OPPONENTS,
    Backend,
    ComputerBackend,
    NetworkBackend,
    PersonBackend,
    SeatContext,
    Spectator,
    opponent_kind,
)
from c4tui.match.driver import MatchDriver, OpponentLeft
from c4tui.match.settings import MatchSettings

__all__ = [
    "OPPONENTS",
    "Backend",
    "ComputerBackend",
    "MatchDriver",
    "MatchSettings",
    "NetworkBackend",
    "OpponentLeft",
    "PersonBackend",
    "SeatContext",
    "Spectator",
    "opponent_kind",
]
