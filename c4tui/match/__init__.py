"""The adapter between a game and whoever plays it: the match driver, its events and seats.

Pure Python (asyncio, but no Textual here): every front end — the app, the
console, the server — plays through ``MatchDriver``, and every kind of player —
a person here, the AI, a network server — is a Backend found in one registry.

The names below load on first use: the menu reads the registry and the settings
without loading the driver.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from c4tui.lazy import lazy_names

if TYPE_CHECKING:
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

#: Each name this package offers, loaded from its module on first use.
__getattr__ = lazy_names(
    __name__,
    {
        "OPPONENTS": "c4tui.match.backends",
        "Backend": "c4tui.match.backends",
        "ComputerBackend": "c4tui.match.backends",
        "NetworkBackend": "c4tui.match.backends",
        "PersonBackend": "c4tui.match.backends",
        "SeatContext": "c4tui.match.backends",
        "Spectator": "c4tui.match.backends",
        "opponent_kind": "c4tui.match.backends",
        "MatchDriver": "c4tui.match.driver",
        "OpponentLeft": "c4tui.match.driver",
        "MatchSettings": "c4tui.match.settings",
    },
)


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
