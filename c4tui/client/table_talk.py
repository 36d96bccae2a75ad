"""Our side of the table's requests (spec/protocols.md §5.6), as ``LobbyLink``'s methods.

Each request is answered by its ACKSTATUS (c4tui's server answers all six: see
PROTOCOL.md); what follows it (GAMEEND, BOARDSTATUS, the offers to the other player)
is pushed, and the room's game follows it (``room_game``). Refusals in words are
``words.TABLE``'s, one table for the console and the app.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass

from c4tui.client.outcomes import TableOutcome, UnknownStatus, outcome_of
from c4tui.protocols import lobby as wire
from c4tui.protocols.table_talk import AWAY_BEFORE_CLAIM, BARE, IDLE_BEFORE_CLAIM, IDLE_WARNING


@dataclass(frozen=True)
class ClaimWaits:
    """Seconds from AWAY, and from IDLE, until a front end says the opponent may be claimed.

    The server's rules (``protocols.table_talk``'s times); a test shortens them (and moves
    the server's time), never the words, which always say the rule's times.
    """

    away: float = AWAY_BEFORE_CLAIM
    idle: float = IDLE_BEFORE_CLAIM - IDLE_WARNING


#: The waits by the server's rules (every front end's default).
RULE_WAITS = ClaimWaits()


class TableTalk(ABC):
    """DRAW, DECLINEDRAW, TAKEBACK, DECLINETAKEBACK, ABORT and CLAIM with typed answers."""

    @abstractmethod
    async def ask(self, line: str) -> wire.Ack:
        """Send a request and wait for its ACKSTATUS (``LobbyLink.ask``)."""

    async def _table(self, command: str) -> TableOutcome | UnknownStatus:
        return outcome_of(TableOutcome, (await self.ask(command)).status)

    async def table_request(self, command: str) -> TableOutcome | UnknownStatus:
        """One of the six by its command (``BARE``'s), for a front end whose keys name them."""
        if command not in BARE:
            raise ValueError(f"not a table request: {command!r}")
        return await self._table(command)

    async def offer_draw(self) -> TableOutcome | UnknownStatus:
        """Offer a draw, or accept the other player's (GAMEEND :4 follows)."""
        return await self._table("DRAW")

    async def decline_draw(self) -> TableOutcome | UnknownStatus:
        """Turn the other player's draw offer down."""
        return await self._table("DECLINEDRAW")

    async def take_back(self) -> TableOutcome | UnknownStatus:
        """Ask to take our last move back, or agree to the other's asking (the board goes back)."""
        return await self._table("TAKEBACK")

    async def decline_take_back(self) -> TableOutcome | UnknownStatus:
        """Refuse the other player's takeback."""
        return await self._table("DECLINETAKEBACK")

    async def abort(self) -> TableOutcome | UnknownStatus:
        """Call the game off before both players have moved (GAMEEND :5 follows)."""
        return await self._table("ABORT")

    async def claim(self) -> TableOutcome | UnknownStatus:
        """Win against an opponent away 30 s, or idle 10 minutes without a clock."""
        return await self._table("CLAIM")
