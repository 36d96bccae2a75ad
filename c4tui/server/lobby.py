"""Serving rooms: logins, then the rooms of ``c4tui.lobby`` over real connections.

Both room protocols are served here: the lobby's (Connect Four) and, on a port of its
own, the INFO1112 handout's (tic-tac-toe, ``c4tui.server.tictactoe``). Each is a
``Dialect``: how a message is parsed and what a request does to the rooms. Accounts,
logins, the throttle, REGISTER's count and the outgoing queues are shared.

Each connection reads its own lines; everything it is sent (answers and broadcasts
alike) goes through a bounded queue its own writer task drains. A broadcast never waits:
a member whose queue fills (a viewer that stopped reading) is dropped.

Committed before announced: after each act the rooms' journal (a game began, a move, a
game ended) is written to the store, and only then is what the act answered delivered,
in the order the acts happened (``LobbyService.announce``). So a BOARDSTATUS or GAMEEND
never goes out for a move that is not on disk.

One account, two connections: the newest login wins. The older connection is
told ``BYE:elsewhere`` and closed, and a game it was playing goes on on the newer
one (REJOIN), so a person who reconnects from another terminal is never locked
out by a ghost. A player whose connection drops out of a game is away for the
grace period (spec/protocols.md §5.1): the timers are here, the rules in the
rooms. Logins on the lobby's port and on the tic-tac-toe port are separate.

Timed games (§5.4): the rooms keep the clocks from the ``now`` they are given
(``time.monotonic``); ``keep_time`` asks them every ``CLOCK_CHECK`` seconds which
flags fell and announces those games' ends like any other.

Silence is not idleness: only a connection that has not logged in, or is in no room,
is cut off for it. The lobby protocol's connections hear ``BYE:<reason>`` before every
close the server means (the handout's protocol has no such word).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import random
import time
from collections import deque
from collections.abc import Callable, Sequence
from typing import Generic, Protocol, TypeVar

from c4tui.lobby import Lobby, Member, Outbox, RoomKind
from c4tui.lobby.rates import SlidingWindow
from c4tui.net.errors import ProtocolError
from c4tui.net.framing import MessageStream
from c4tui.protocols import lobby as wire
from c4tui.protocols.limits import MAX_ROOMS
from c4tui.protocols.public import CHAT_SECONDS
from c4tui.server.accounts import LoginThrottle
from c4tui.server.answers import answer
from c4tui.server.context import Client, Handler
from c4tui.server.counting import CountedHere, Counting
from c4tui.server.dialects import Dialect, Farewell
from c4tui.server.game_log import GameLog
from c4tui.server.metrics import Metrics
from c4tui.server.moderation import Moderation
from c4tui.server.standing import rating_news
from c4tui.server.store import LobbyStore, NewRatings
from c4tui.server.unkept import Act, Keeper, keep_each

log = logging.getLogger("c4tui.server")

#: Messages that may wait for one member before it counts as unable to keep up.
OUTBOX_LIMIT = 1024
#: Seconds between two looks for fallen flags (§5.4 asks for at most 0.1).
CLOCK_CHECK = 0.05
#: A dialect's requests; one kind of them; the rooms' settings; a move in their game.
R = TypeVar("R")
T = TypeVar("T")
S = TypeVar("S")
M = TypeVar("M")


class RoomStream(Protocol):
    """A room client's messages: a socket here (``MessageStream``) or one on another node.

    On a cluster's node that leads the lobby, a client connected to another node is
    served by the same code through the bus (``c4tui.server.cluster.remote``).
    """

    async def read(self, timeout: float | None = None) -> str:
        """The client's next message (ConnectionClosed when it has gone)."""

    async def send_paced(self, message: str) -> None:
        """Send one message to the client."""

    def abort(self) -> None:
        """Cut the client off at once."""

    async def close(self) -> None:
        """Close once what was sent has gone."""


class LobbyConnection:
    """One lobby client: its member (once logged in) and its outgoing queue."""

    def __init__(self, stream: RoomStream, client: Client, farewell: Farewell | None) -> None:
        self.stream = stream
        self.number = client.number
        self.address = client.address  # where it came from (§7's limits count by it)
        self.name = client.name  # in the log: ``#5``, ``#5 (TLS)``
        self.member: Member | None = None
        self.failures = 0
        self.password_checked: float | None = None  # when PASSWORD was right (§5.3)
        self.last_activity = time.monotonic()
        self.dropped = ""  # why the server cut it off, if it did
        self._farewell = farewell  # the protocol's BYE (None: it has no such word)
        self._last_word: str | None = None
        self._queue: asyncio.Queue[str] = asyncio.Queue(OUTBOX_LIMIT)

    def offer(self, message: str) -> None:
        """Queue ``message``; a full queue drops the connection instead of waiting."""
        if self.dropped:
            return
        try:
            self._queue.put_nowait(message)
        except asyncio.QueueFull:
            self.drop(f"could not keep up ({OUTBOX_LIMIT} messages waiting)")

    def drop(self, why: str) -> None:
        """Cut the connection off at once; its reader then ends and leaves its room."""
        self.dropped = self.dropped or why
        self.stream.abort()

    def say_bye(self, reason: wire.ByeReason) -> bool:
        """Close on purpose: BYE:<reason> after what is queued, then the end (§5.1).

        Nothing offered later is sent. Without a word for it in the protocol, or with
        no room left in the queue, the connection is simply cut off. True if a last
        word is on its way (the writer then ends by itself).
        """
        if self.dropped:
            return False
        self.dropped = f"BYE:{reason.value}"
        if self._farewell is None or self._queue.full():
            self.stream.abort()
            return False
        self._last_word = self._farewell(reason)
        self._queue.put_nowait(self._last_word)
        return True

    async def write_all(self) -> None:
        """Send queued messages, in order, until cancelled or the last word is said.

        Paced (``send_paced``): a JOIN answer and BEGIN reach a client that reads one
        message per ``recv`` apart. After BYE the connection closes, so its reader ends.
        """
        while True:
            message = await self._queue.get()
            await self.stream.send_paced(message)
            self.last_activity = time.monotonic()
            if message is self._last_word:
                await self.stream.close()
                return


class LobbyService(Generic[S, M]):
    """What every connection to one kind of rooms shares: the rooms, the store, who is online.

    Args:
        store: accounts (and, for a keeper, games).
        kind: what the rooms play.
        max_rooms: how many rooms may exist at once.
        throttle: the login throttle (shared by services with one store).
        keeper: keeps the rooms' games (None: they are not kept, as on the tic-tac-toe port).
    """

    def __init__(
        self,
        store: LobbyStore,
        kind: RoomKind[S, M],
        max_rooms: int = MAX_ROOMS,
        throttle: LoginThrottle | None = None,
        *,
        keeper: Keeper[S, M] | None = None,
        grace: float | None = None,
        now: Callable[[], float] = time.monotonic,
        metrics: Metrics | None = None,
        registrations: int = 0,
        chat_rate: int = 0,
    ) -> None:
        """``grace``: seconds a dropped player has to come back (``Lobby``; None: none).

        ``now``: the steady clock timed games run on (tests pass one they can move), and
        §7's limits count by: ``registrations`` per address an hour, ``chat_rate`` lines
        per user in ``CHAT_SECONDS`` (0: no limit; ``server.public`` applies them).
        ``metrics``: the server's series (§7) that logins, accounts and chat count in.
        """
        self.store = store
        self.now = now
        self.registrations: Counting = CountedHere(SlidingWindow(registrations, 3600), now)
        self.chat_lines = SlidingWindow(chat_rate, CHAT_SECONDS)
        self.rooms = Lobby(kind, max_rooms, grace, now=now, coin=random.SystemRandom())
        self.throttle = throttle or LoginThrottle()  # shared by services with one account store
        self.keeper = keeper
        self.games_log = GameLog()  # each kept game's start and end, in the log
        self.metrics = metrics or Metrics()  # the games count in the keeper's (core.py)
        self.open: set[LobbyConnection] = set()  # every connection, logged in or not
        self._online: dict[str, LobbyConnection] = {}
        self._connections: dict[Member, LobbyConnection] = {}
        self._graces: dict[str, asyncio.TimerHandle] = {}  # away users' timers
        self._stopping = False
        self._unannounced: deque[Act[S, M]] = deque()
        self._in_order = asyncio.Lock()
        self._announcing: set[asyncio.Task[None]] = set()  # announce_soon's, until done
        self._timekeeping: asyncio.Task[None] | None = None  # keep_time, while serving
        self.moderation = Moderation(self)  # roles, mutes, bans acted on (§7)
        self.guests = False  # §9: an ssh visit's key without an account may watch (KEYGUEST)

    async def announce(self, outbox: Outbox, by: Member | None = None) -> None:
        """Keep what the last act did to the games, then deliver ``outbox`` (what it answered).

        Acts are announced in the order they happened, each once its journal is on
        disk; when this returns, ``outbox`` has been delivered. ``by``: who acted (a move
        that cannot be kept is refused to it instead, ``unkept``).
        """
        if self._queued(outbox, by):
            await self._announce_queued()

    def announce_soon(self, outbox: Outbox) -> None:
        """``announce``, for code that cannot wait (a connection that is gone)."""
        if self._queued(outbox):
            task = asyncio.create_task(self._announce_queued())
            self._announcing.add(task)
            task.add_done_callback(self._announcing.discard)

    async def announced(self) -> None:
        """Wait until everything ``announce_soon`` queued is kept and delivered."""
        while self._announcing:
            await asyncio.gather(*self._announcing, return_exceptions=True)

    def _queued(self, outbox: Outbox, by: Member | None = None) -> bool:
        """Queue ``outbox`` with the rooms' journal; False if it could be delivered at once."""
        journal = self.rooms.take_journal()
        if self.keeper is None:
            journal = []  # these rooms' games are not kept
        if not journal and not self._unannounced and not self._in_order.locked():
            self.deliver(outbox)  # nothing to keep, nothing announced before it still waits
            return False
        self._unannounced.append(Act(journal, outbox, by))
        return True

    async def _announce_queued(self) -> None:
        """Keep and deliver everything queued: one write for all the acts waiting."""
        async with self._in_order:
            while self._unannounced:
                acts = list(self._unannounced)
                self._unannounced.clear()
                journal = [event for act in acts for event in act.journal]
                outboxes, rated = [act.outbox for act in acts], list[NewRatings]()
                if self.keeper is not None and journal:
                    try:
                        rated = list(await self.keeper.keep(journal))
                    except Exception:  # then each alone: a move that cannot be is refused
                        outboxes, rated = await keep_each(self.keeper, self.rooms, acts)
                    self.games_log.kept(journal)
                for outbox in outboxes:
                    self.deliver(outbox)
                self.tell(rating_news(rated))  # after their GAMEEND

    def deliver(self, outbox: Outbox) -> None:
        """Hand every message to its member's queue (never waits)."""
        for member, message in outbox:
            connection = self._connections.get(member)
            if connection is not None:
                connection.offer(message)

    def tell(self, news: Sequence[tuple[str, str]]) -> None:
        """Hand each line to its user, if still online (a user who has gone misses it)."""
        for user, message in news:
            connection = self._online.get(user)
            if connection is not None:
                connection.offer(message)

    def logged_in(self, connection: LobbyConnection, member: Member) -> Outbox:
        """``connection`` is now ``member``'s (its user's, a bot or a guest); what to send after.

        An older connection of the same user is told BYE:elsewhere and closed, and
        its game goes on here; a game the user was away from takes it back.
        """
        self.rooms.challenges.logged_in(member)
        connection.member = member
        self._connections[member] = connection
        older = self._online.get(member.name)
        self._online[member.name] = connection
        self._stop_grace(member.name)
        if older is None or older.member is None:
            comeback = self.rooms.rejoin(member)
        else:
            older_member, older.member = older.member, None
            self._connections.pop(older_member, None)
            older.say_bye(wire.ByeReason.ELSEWHERE)
            comeback = self.rooms.take_over(older_member, member)
        return comeback + self._still_away(member)

    async def act(self, member: Member, request: R, dialect: Dialect[R, S, M]) -> None:
        """Carry out a room request; one who enters a game hears who is away from it."""
        entering = self.rooms.room_of(member) is None
        if isinstance(request, wire.Chat):
            self.metrics.chat_line()
        await self.announce(dialect.dispatch(self.rooms, member, request), member)
        if entering:
            self.deliver(self._still_away(member))
            if self.rooms.room_of(member) is not None:  # its challenges end (§5.5), and more
                self.deliver(self.rooms.challenges.entered(member.name))

    def _still_away(self, member: Member) -> Outbox:
        """AWAY, to ``member``, for each player still away from its game: seconds left."""
        loop = asyncio.get_running_loop()
        outbox: Outbox = []
        for user in self.rooms.away_from_room_of(member):
            timer = self._graces.get(user)
            left = (self.rooms.grace or 0) if timer is None else timer.when() - loop.time()
            # To the millisecond first: (t + grace) - t may be a hair over grace in floats.
            outbox.append((member, wire.away(user, max(0, math.ceil(round(left, 3))))))
        return outbox

    def leave(self, connection: LobbyConnection) -> None:
        """The connection is gone: leave its room (a player is away, or forfeits), forget it."""
        member, connection.member = connection.member, None
        if member is None:
            return
        self.announce_soon(self.rooms.leave(member))
        self.deliver(self.rooms.challenges.logged_out(member))
        self._connections.pop(member, None)
        if self._online.get(member.name) is connection:
            del self._online[member.name]
        if self.rooms.is_away(member.name):
            self.start_grace(member.name)

    def online(self) -> list[Member]:
        """Every logged-in member (the newest login of each user)."""
        return [c.member for c in self._online.values() if c.member is not None]

    def start_grace(self, user: str) -> None:
        """Give ``user``, away from its game, the grace period to come back."""
        self._stop_grace(user)
        if self._stopping:  # a restart gives every player its grace again
            return
        grace = self.rooms.grace or 0.0
        self._graces[user] = asyncio.get_running_loop().call_later(grace, self._expire, user)

    def _stop_grace(self, user: str) -> None:
        if (timer := self._graces.pop(user, None)) is not None:
            timer.cancel()

    def _expire(self, user: str) -> None:
        """The grace ran out: the game ends as a forfeit, unless the user is back."""
        self._graces.pop(user, None)
        self.announce_soon(self.rooms.expire(user))  # the forfeit is kept before it is told

    def start_clocks(self) -> None:
        """Look for fallen flags (``keep_time``) and moderators' changes until ``shut_down``."""
        self.moderation.start()
        if self._timekeeping is None:
            self._timekeeping = asyncio.create_task(self.keep_time())

    async def keep_time(self) -> None:
        """Every ``CLOCK_CHECK`` seconds, end each game whose mover ran out of time.

        A silent player loses on time without sending anything (GAMEEND :3), kept
        before it is told; the rooms look only at the flags that are due.
        """
        while True:
            await asyncio.sleep(CLOCK_CHECK)
            await self.announce(self.rooms.out_of_time())

    async def shut_down(self, within: float) -> None:
        """The server stops: BYE:shutdown to every connection; wait for them to close."""
        self._stopping = True
        self.moderation.stop()
        if self._timekeeping is not None:  # a restart resumes the clocks where they stood
            self._timekeeping.cancel()
        for timer in self._graces.values():
            timer.cancel()
        self._graces.clear()
        for connection in list(self.open):
            connection.say_bye(wire.ByeReason.SHUTDOWN)
        deadline = time.monotonic() + within
        while self.open and time.monotonic() < deadline:
            await asyncio.sleep(0.01)


def rooms_handler(service: LobbyService[S, M], dialect: Dialect[R, S, M]) -> Handler:
    """The server's handler for a room protocol: ``dialect`` spoken in ``service``'s rooms."""

    async def serve(stream: MessageStream, client: Client) -> str:
        return await serve_rooms(stream, client, service, dialect)

    return serve


async def serve_rooms(
    stream: RoomStream,
    client: Client,
    service: LobbyService[S, M],
    dialect: Dialect[R, S, M],
) -> str:
    """Serve one client of a room protocol until it leaves; why it ended (for the log)."""
    connection = LobbyConnection(stream, client, dialect.farewell)
    writer = asyncio.create_task(connection.write_all())
    service.open.add(connection)
    try:
        while True:
            line = await _next_line(connection, client.idle_timeout, service.rooms)
            try:
                request = dialect.parse(line)
            except wire.Violation as violation:
                return f"protocol error: {violation}"
            await answer(service, connection, request, dialect)
    except TimeoutError:
        if connection.dropped:
            return f"dropped: {connection.dropped}"
        if connection.say_bye(wire.ByeReason.IDLE):
            with contextlib.suppress(asyncio.CancelledError, OSError, ProtocolError, TimeoutError):
                await asyncio.wait_for(writer, client.idle_timeout)
        return f"idle for {client.idle_timeout:g} s"
    except (ConnectionError, OSError, ProtocolError):
        if connection.dropped:
            return f"dropped: {connection.dropped}"
        raise
    finally:
        service.open.discard(connection)
        service.leave(connection)
        writer.cancel()
        with contextlib.suppress(asyncio.CancelledError, OSError, ProtocolError):
            await writer


async def _next_line(connection: LobbyConnection, idle: float, rooms: Lobby[S, M]) -> str:
    """The client's next line; silence counts as idle only while nothing is sent to it either.

    A player or a viewer in a room is never idle: waiting and thinking are silent.
    """
    while True:
        quiet = time.monotonic() - connection.last_activity
        try:
            line = await connection.stream.read(max(0.0, idle - quiet))
        except TimeoutError:
            member = connection.member
            if member is not None and rooms.room_of(member) is not None:
                connection.last_activity = time.monotonic()
            elif time.monotonic() - connection.last_activity >= idle:
                raise
            continue
        connection.last_activity = time.monotonic()
        return line
