"""``console --lobby``'s controls at the table (spec §5.6): draw, no, takeback, abort, claim.

Typed during a game by a player (a viewer is told it cannot): each sends its request
and says what came of it, a refusal in ``words.TABLE``'s words. What the server
pushes (an offer, its refusal, IDLE) is said with ``words.table_news``; the other
player's offers still standing are kept, so that ``no`` declines the right one and
says which. When the opponent has been away (AWAY) long enough, or idle long enough
in a game without a clock (IDLE), the player is told that a claim is now possible:
the console times it from the message's arrival, by the server's own rule.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

from c4tui.client import words
from c4tui.client.outcomes import TableOutcome, UnknownStatus
from c4tui.client.room_game import RoomGame
from c4tui.client.table_talk import RULE_WAITS, ClaimWaits
from c4tui.client.words import Voice
from c4tui.engine import Player
from c4tui.net.errors import NetworkError
from c4tui.protocols import lobby as wire
from c4tui.protocols.table_talk import (
    AWAY_BEFORE_CLAIM,
    IDLE_BEFORE_CLAIM,
    IDLE_WARNING,
    DrawOffered,
    Idle,
    TableMessage,
    TakebackOffered,
)

#: What a player may type at the table, besides moves, chat and forfeit.
TABLE_WORDS = ("draw", "takeback", "no", "decline", "abort", "claim")
#: Said to a viewer who types one of them.
VIEWERS_CANNOT = (
    "Viewers cannot offer draws, take moves back, abort or claim: "
    "say TEXT to chat, quit to stop watching."
)
#: The request each word sends (``no`` and ``decline`` send the decline of what stands).
_COMMANDS = {"draw": "DRAW", "takeback": "TAKEBACK", "abort": "ABORT", "claim": "CLAIM"}
#: What the other player may offer us, newest kept last: DRAW or TAKEBACK.
_OFFERS = ("DRAW", "TAKEBACK")
#: Said when our request was done and its outcome shows nowhere else (a GAMEEND, a board).
_OFFERED = {
    "DRAW": "You offered {other} a draw.",
    "TAKEBACK": "You asked {other} to let you take your last move back.",
}
_DECLINED = {
    "DRAW": "You declined {other}'s draw offer.",
    "TAKEBACK": "You refused {other}'s takeback.",
}
#: How to answer each offer, said after it.
_ANSWERS = {
    DrawOffered: "Type draw to accept, no to decline.",
    TakebackOffered: "Type takeback to agree, no to refuse.",
}


def claim_after_away(user: str) -> str:
    """Said once ``user`` has been away long enough to be claimed against."""
    return f"{user} has been away {AWAY_BEFORE_CLAIM:g} s: type claim to win."


def claim_after_idle(user: str) -> str:
    """Said once ``user`` has not moved long enough, in a game without a clock."""
    return f"{user} has not moved for {IDLE_BEFORE_CLAIM / 60:g} minutes: type claim to win."


def idle_yourself() -> str:
    """IDLE about us: the opponent may claim the game soon."""
    minutes, claimed = IDLE_WARNING / 60, IDLE_BEFORE_CLAIM / 60
    return f"You have not moved for {minutes:g} minutes: at {claimed:g} the opponent may claim."


class TableControls:
    """One game's table talk as ``console --lobby`` shows it and answers it."""

    def __init__(
        self,
        game: RoomGame,
        mine: Player | None,
        say: Callable[[str], None],
        waits: ClaimWaits = RULE_WAITS,
    ) -> None:
        self.game = game
        self.mine = mine
        self.say = say
        self.waits = waits
        #: The other player's offers standing, by their command, newest last.
        self._standing: dict[str, None] = {}
        self._claimable: dict[str, asyncio.TimerHandle] = {}  # "away", "idle": its notice
        link = game.link
        self._requests: dict[str, Callable[[], Awaitable[TableOutcome | UnknownStatus]]] = {
            "DRAW": link.offer_draw,
            "DECLINEDRAW": link.decline_draw,
            "TAKEBACK": link.take_back,
            "DECLINETAKEBACK": link.decline_take_back,
            "ABORT": link.abort,
            "CLAIM": link.claim,
        }

    @property
    def opponent(self) -> str | None:
        """The opponent's name; None for a viewer."""
        return None if self.mine is None else self.game.names[self.mine.other]

    @property
    def _other(self) -> str:
        """The opponent's name (we play: ``mine`` is set)."""
        assert self.mine is not None
        return self.game.names[self.mine.other]

    # ----- what the server pushes -------------------------------------------------

    def heard(self, message: TableMessage) -> None:
        """An offer, its refusal or IDLE: said; an offer to us kept until answered."""
        if isinstance(message, Idle) and message.user == self.game.link.user:
            self.say(idle_yourself())
            return
        news = words.table_news(message)
        answer = _ANSWERS.get(type(message)) if self.mine is not None else None
        self.say(news if answer is None else f"{news} {answer}")
        if self.mine is None:
            return
        if isinstance(message, DrawOffered | TakebackOffered):
            kind = "DRAW" if isinstance(message, DrawOffered) else "TAKEBACK"
            self._standing.pop(kind, None)
            self._standing[kind] = None
        elif isinstance(message, Idle) and self.game.clock is None:
            self._notice("idle", self.waits.idle, claim_after_idle(message.user))

    def presence(self, news: wire.Away | wire.Back) -> None:
        """AWAY of the opponent: a claim is possible after a while, unless BACK comes first."""
        if self.mine is None or news.user != self._other:
            return
        if isinstance(news, wire.Back):
            self._cancel("away")
        elif news.seconds > AWAY_BEFORE_CLAIM:  # else the grace ends the game first
            self._notice("away", self.waits.away, claim_after_away(news.user))

    def moved(self, by_us: bool) -> None:
        """A move was played: ours declines what the other offered; any ends an idle turn."""
        if by_us:
            self._standing.clear()
        self._cancel("idle")

    def taken_back(self) -> None:
        """The last move was taken back: every offer is off, and a new turn begins."""
        self._standing.clear()
        self._cancel("idle")

    def close(self) -> None:
        """The game is over: no notice comes after it."""
        for kind in list(self._claimable):
            self._cancel(kind)

    def _notice(self, kind: str, seconds: float, text: str) -> None:
        self._cancel(kind)
        self._claimable[kind] = asyncio.get_running_loop().call_later(seconds, self.say, text)

    def _cancel(self, kind: str) -> None:
        handle = self._claimable.pop(kind, None)
        if handle is not None:
            handle.cancel()

    # ----- what the player types ----------------------------------------------------

    async def typed(self, line: str) -> bool:
        """Carry out ``line`` if it is a table word (True); False if it is not one."""
        if line not in TABLE_WORDS:
            return False
        if self.mine is None:
            self.say(VIEWERS_CANNOT)
        elif line in ("no", "decline"):
            await self._decline()
        else:
            await self._request(_COMMANDS[line])
        return True

    async def _request(self, command: str) -> None:
        """DRAW, TAKEBACK (each an offer, or the other's accepted), ABORT or CLAIM."""
        accepting = command in self._standing
        outcome = await self._asked(command)
        if outcome is None:
            return
        if outcome is not TableOutcome.DONE:
            self.say(words.TABLE[command].said(outcome, Voice.CONSOLE))
        elif not accepting and command in _OFFERED:
            self.say(_OFFERED[command].format(other=self._other))
        self._standing.pop(command, None)

    async def _decline(self) -> None:
        """Decline the other's newest standing offer, saying which; if none, say so."""
        tried = [*reversed(self._standing), *(k for k in _OFFERS if k not in self._standing)]
        for kind in tried:
            outcome = await self._asked(f"DECLINE{kind}")
            if outcome is None:
                return
            self._standing.pop(kind, None)
            if outcome is TableOutcome.DONE:
                self.say(_DECLINED[kind].format(other=self._other))
                return
            if outcome is not TableOutcome.NOT_NOW:
                self.say(words.TABLE[f"DECLINE{kind}"].said(outcome, Voice.CONSOLE))
                return
        nothing = TableOutcome.NOT_NOW
        self.say(" ".join(words.TABLE[f"DECLINE{k}"].said(nothing, Voice.CONSOLE) for k in _OFFERS))

    async def _asked(self, command: str) -> TableOutcome | UnknownStatus | None:
        """``command``'s outcome; None (said why) when the server did not answer."""
        try:
            return await self._requests[command]()
        except NetworkError as error:
            self.say(f"{error} Not sent: the connection is gone.")
        except TimeoutError:
            self.say("The server did not answer: try again.")
        return None
