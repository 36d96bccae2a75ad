"""Challenges between logged-in users, and rematches (spec/protocols.md §5.5).

A user challenges another by name to a board and terms; the other accepts (both
sit down at once in a new room, ``challenge-<n>``, the challenger in the colour
it asked for, red by default) or
declines (the challenger hears DECLINED). A player of a game that ended in the
last minute may ask for a rematch: a challenge to the other player on the same
board and terms, the colours swapped.

Pure, like the rooms it belongs to (``Lobby.challenges``): the server tells it
who logs in and out and who entered a room, and sends what it answers. The
time a game ended comes from the ``now`` the rooms were given (None: the rooms
keep no time, and no game can be played again).

What this server chose where the spec is silent:
- at most ``MAX_PENDING`` challenges wait from one user at once; one more is
  answered busy (:2). Challenging the same user again replaces the first one.
- a challenger in a room is busy (:2), as is a challenged user in a room; a
  challenge to oneself, or to a user not logged in, is :1.
- a pending challenge ends when either user logs out or enters a room (``entered``), or when
  one of the two users' challenges is accepted; a challenger whose challenge
  ends because the challenged user went away hears DECLINED:<user>.
- REMATCH from both players: the second one accepts the first's.
- across a block (§7, ``Lobby.blocks``) a CHALLENGE is :1 either way, as for a user
  not there; so are ACCEPT and REMATCH (no game between them begins), and the
  chat of a finished room's last minute does not reach the blocker. A block ends
  the challenges pending between the two (``blocked``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Generic, TypeVar

from c4tui.lobby.afterwards import Afterwards
from c4tui.lobby.room import Member, Outbox, Room
from c4tui.lobby.seating import creator_plays_red
from c4tui.protocols.colours import Colour
from c4tui.protocols.competition import REMATCH_WINDOW, challenged, declined
from c4tui.protocols.lobby import chat
from c4tui.protocols.rooms import NOROOM, ack
from c4tui.protocols.terms import Terms

if TYPE_CHECKING:
    from c4tui.lobby.rooms import Lobby

#: How many challenges may wait from one user at once.
MAX_PENDING = 3
#: A room's settings (the board); a move in its game.
S = TypeVar("S")
M = TypeVar("M")


@dataclass(frozen=True)
class Pending(Generic[S]):
    """A challenge waiting for its answer: who asked whom, for what, and who will be red."""

    challenger: str
    challenged: str
    game: S
    terms: Terms
    colour: Colour  # the challenger's (random: decided on ACCEPT); a rematch's: swapped
    rematch: bool = False


@dataclass(frozen=True)
class Finished(Generic[S]):
    """A game that ended: its players, board and terms, and when (for REMATCH)."""

    red: str
    yellow: str
    game: S
    terms: Terms
    ended: float

    def opponent(self, user: str) -> str:
        """The other player of the game."""
        return self.yellow if user == self.red else self.red


class Challenges(Generic[S, M]):
    """The challenges waiting for an answer, who is online to get them, and the games just ended."""

    def __init__(self, rooms: Lobby[S, M], now: Callable[[], float] | None = None) -> None:
        """``now``: the time in seconds (monotonic) for the rematch window; None: no rematches."""
        self.rooms = rooms
        self.now = now
        self._online: dict[str, Member] = {}
        self._pending: dict[tuple[str, str], Pending[S]] = {}  # by (challenger, challenged)
        self._finished: dict[str, Finished[S]] = {}  # each player's game ended lately
        self.afterwards = Afterwards(REMATCH_WINDOW)  # who is still in a finished room (§5.6)

    # ----- who is online ----------------------------------------------------------

    def logged_in(self, member: Member) -> None:
        """``member`` logged in (the newest login of its user, which challenges reach).

        A guest (§9) is no one's to challenge: for challenges it is not online.
        """
        if not member.guest:
            self._online[member.name] = member

    def logged_out(self, member: Member) -> Outbox:
        """``member``'s connection is gone: its challenges, both ways, end."""
        if self._online.get(member.name) is not member:
            return []  # an older login, taken over: the user is still here
        del self._online[member.name]
        return self.withdraw(member.name)

    def busy(self, user: str) -> bool:
        """True if ``user`` is in a room or away from a game (not free to be challenged)."""
        member = self._online.get(user)
        in_room = member is not None and self.rooms.room_of(member) is not None
        return in_room or self.rooms.is_away(user)

    def pending(self) -> list[Pending[S]]:
        """Every challenge waiting for its answer, oldest first."""
        return list(self._pending.values())

    # ----- challenging --------------------------------------------------------------

    def challenge(
        self, member: Member, user: str, game: S, terms: Terms, colour: Colour = Colour.RED
    ) -> Outbox:
        """CHALLENGE: CHALLENGED to ``user`` if it can be; the answer to ``member`` first.

        ``colour``: the challenger's (§5.6); random is decided when the game begins.
        """
        if user == member.name or user not in self._online or self._apart(member.name, user):
            return [(member, ack("CHALLENGE", 1))]
        if self.busy(member.name) or self.busy(user) or self._too_many(member.name, user):
            return [(member, ack("CHALLENGE", 2))]
        pending = Pending(member.name, user, game, terms, colour)
        return [(member, ack("CHALLENGE", 0)), *self._offer(pending)]

    def _too_many(self, challenger: str, user: str) -> bool:
        """True if ``challenger`` has ``MAX_PENDING`` waiting (one to ``user`` is replaced)."""
        waiting = [key for key in self._pending if key[0] == challenger and key[1] != user]
        return len(waiting) >= MAX_PENDING

    def _offer(self, pending: Pending[S]) -> Outbox:
        """Keep ``pending`` and tell the challenged user (CHALLENGED)."""
        self._pending[(pending.challenger, pending.challenged)] = pending
        fields = self.rooms.kind.settings_fields(pending.game)
        return self._tell(pending.challenged, challenged(pending.challenger, fields, pending.terms))

    def accept(self, member: Member, user: str) -> Outbox:
        """ACCEPT:<user>: both sit down in a new room (BEGIN), or :1 if that cannot be."""
        return self._accepted(member, user, "ACCEPT")

    def _accepted(self, member: Member, user: str, word: str) -> Outbox:
        """``member`` takes ``user``'s challenge up: ``word``'s answer, then BEGIN to both."""
        pending = self._pending.pop((user, member.name), None)
        challenger = self._online.get(user)
        if pending is None or challenger is None or self.busy(user) or self.busy(member.name):
            return [(member, ack(word, 1))]
        if self._apart(user, member.name):
            return [(member, ack(word, 1))]
        challenger_red = creator_plays_red(pending.colour, Colour.RANDOM, self.rooms.coin)
        red, yellow = (challenger, member) if challenger_red else (member, challenger)
        viewers = self._followers(member.name, user) if pending.rematch else []
        begun = self.rooms.pair(red, yellow, pending.game, pending.terms, viewers)
        if begun is None:  # no room left for it: it may be accepted later
            self._pending[(user, member.name)] = pending
            return [(member, ack(word, 1))]
        entered = [user, member.name, *(viewer.name for viewer in viewers)]
        return [(member, ack(word, 0)), *(m for u in entered for m in self.entered(u)), *begun]

    def entered(self, user: str) -> Outbox:
        """``user`` entered a room: its challenges end (``withdraw``), and its finished room's.

        (§5.6: one who only logs out, and in again within the minute, is still there.)
        """
        self.afterwards.gone(user)
        return self.withdraw(user)

    def _followers(self, *players: str) -> list[Member]:
        """The viewers still in the finished room of ``players``' last game (they follow it)."""
        if self.now is None:
            return []
        now = self.now()
        for user in players:
            aftermath = self.afterwards.of(user, now)
            if aftermath is not None:
                return [m for viewer in aftermath.viewers if (m := self._free(viewer)) is not None]
        return []

    def _free(self, user: str) -> Member | None:
        """``user``'s member if it is logged in and in no room (None: it is not)."""
        member = self._online.get(user)
        return member if member is not None and not self.busy(user) else None

    def chat_after(self, member: Member, text: str) -> Outbox:
        """CHAT from one in no room: to everyone still in its finished room (§5.6), or NOROOM.

        That is for ``REMATCH_WINDOW`` after GAMEEND, until one enters a room or leaves.
        """
        aftermath = None if self.now is None else self.afterwards.of(member.name, self.now())
        if aftermath is None:
            return [(member, NOROOM)]
        present = [m for user in aftermath.present if (m := self._free(user)) is not None]
        return self.rooms.blocks.heard(present, member.name, chat(member.name, text))

    def decline(self, member: Member, user: str) -> Outbox:
        """DECLINE:<user>: always answered :0; the challenger, if there was one, hears DECLINED."""
        pending = self._pending.pop((user, member.name), None)
        told = [] if pending is None else self._tell(user, declined(member.name))
        return [(member, ack("DECLINE", 0)), *told]

    def withdraw(self, user: str) -> Outbox:
        """End every challenge from or to ``user`` (it left, or entered a room).

        A challenger whose challenge to ``user`` ends so hears DECLINED:<user>.
        """
        outbox: Outbox = []
        for key, pending in list(self._pending.items()):
            if user in key:
                del self._pending[key]
                if pending.challenged == user:
                    outbox += self._tell(pending.challenger, declined(user))
        return outbox

    def blocked(self, blocker: str, blocked: str) -> Outbox:
        """``blocker`` now blocks ``blocked``: the challenges between them end.

        One ``blocked`` sent hears DECLINED, as if ``blocker`` had gone; one ``blocker``
        sent ends without a word (an ACCEPT of it is no such challenge).
        """
        self._pending.pop((blocker, blocked), None)
        if self._pending.pop((blocked, blocker), None) is None:
            return []
        return self._tell(blocked, declined(blocker))

    def _apart(self, one: str, other: str) -> bool:
        """True while either blocks the other: no challenge, no game between them (§7)."""
        return self.rooms.blocks.between(one, other)

    def _tell(self, user: str, message: str) -> Outbox:
        """``message`` to ``user`` if it is logged in."""
        member = self._online.get(user)
        return [] if member is None else [(member, message)]

    # ----- rematches ----------------------------------------------------------------

    def finished(self, room: Room[S, M]) -> None:
        """``room``'s game ended now: its players may ask for a rematch for a while."""
        if self.now is None or room.red is None or room.yellow is None:
            return
        ended = self.now()
        for user, game in list(self._finished.items()):
            if ended - game.ended > REMATCH_WINDOW:
                del self._finished[user]  # only the last minute's games are kept
        game = Finished(room.red.name, room.yellow.name, room.game, room.terms, ended)
        self._finished[game.red] = self._finished[game.yellow] = game
        players = [player.name for player in room.members if player not in room.viewers]
        self.afterwards.ended(room.name, players, [v.name for v in room.viewers], ended)

    def rematch(self, member: Member) -> Outbox:
        """REMATCH: the last game again, colours swapped, offered to the other player.

        :1 when there is no game of ``member``'s that ended within ``REMATCH_WINDOW``,
        or the other player is not free. If the other asked first, this accepts it.
        """
        game = self._finished.get(member.name)
        if game is None or self.now is None or self.now() - game.ended > REMATCH_WINDOW:
            return [(member, ack("REMATCH", 1))]
        other = game.opponent(member.name)
        asked = self._pending.get((other, member.name))
        if asked is not None and asked.rematch:
            return self._accepted(member, other, "REMATCH")
        if other not in self._online or self.busy(other) or self.busy(member.name):
            return [(member, ack("REMATCH", 1))]
        if self._apart(member.name, other):
            return [(member, ack("REMATCH", 1))]
        colour = Colour.RED if member.name == game.yellow else Colour.YELLOW  # swapped
        pending = Pending(member.name, other, game.game, game.terms, colour, rematch=True)
        return [(member, ack("REMATCH", 0)), *self._offer(pending)]
