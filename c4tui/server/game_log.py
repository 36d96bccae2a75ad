"""The log's lines for the lobby's games: each one's start and end, as the operator reads them.

The rooms' journal says what happened to the games; once it is kept, each game
that began is logged with its room, players, board and terms, and each that ended
with its result and reason. A game's players are remembered from its start (or
from its restoring after a restart), since its end names only the winner.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Sequence

from c4tui.engine import Rules
from c4tui.lobby.journal import EndReason, GameBegan, GameFinished
from c4tui.protocols.terms import rules_word
from c4tui.server.store import StoredGame

log = logging.getLogger("c4tui.server")


class GameLog:
    """Logs each kept game's start and end; remembers the players of the games under way."""

    def __init__(self) -> None:
        self._players: dict[str, tuple[str, str]] = {}  # room -> red, yellow

    def restored(self, games: Sequence[StoredGame]) -> None:
        """The games under way before a restart are back in their rooms: say so, remember them."""
        for game in games:
            self._players[game.room] = (game.red, game.yellow)
        if games:
            log.info("restored %d game(s) in progress", len(games))

    def kept(self, journal: Iterable[object]) -> None:
        """Log the starts and ends in a journal just kept (moves are not logged)."""
        for event in journal:
            if isinstance(event, GameBegan):
                self._players[event.room] = (event.red, event.yellow)
                log.info(
                    "game began in room %s: %s (red) vs %s (yellow), %s, %s",
                    event.room,
                    event.red,
                    event.yellow,
                    _board(event.settings),
                    event.terms.words,
                )
            elif isinstance(event, GameFinished):
                log.info(
                    "game in room %s ended: %s (%s)",
                    event.room,
                    self._result(event.room, event.winner, event.reason is EndReason.ABORTED),
                    event.reason.value,
                )

    def _result(self, room: str, winner: str | None, aborted: bool) -> str:
        """``ann beat bob``, ``a draw between ann and bob`` (``ann won``: players unknown)."""
        players = self._players.pop(room, None)
        if aborted:
            return (
                "aborted" if players is None else f"aborted between {players[0]} and {players[1]}"
            )
        if players is None:
            return "a draw" if winner is None else f"{winner} won"
        if winner is None:
            return f"a draw between {players[0]} and {players[1]}"
        loser = players[1] if winner == players[0] else players[0]
        return f"{winner} beat {loser}"


def _board(settings: object) -> str:
    """``7x6 popout`` for a Connect Four game's settings (anything else as it prints)."""
    if isinstance(settings, tuple) and len(settings) == 3 and isinstance(settings[2], Rules):
        columns, rows, rules = settings
        return f"{columns}x{rows} {rules_word(rules)}"
    return str(settings)
