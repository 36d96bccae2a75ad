"""Serving rooms: logins, then the rooms of ``c4tui.lobby`` over real connections.

Both room protocols are served here: the lobby's (Connect Four) and, on a port
of its own, the INFO1112 handout's (tic-tac-toe, ``c4tui.server.tictactoe``).
Each is a ``Dialect``: how a message is parsed and what a request does to the
rooms. Accounts, logins, the throttle and the outgoing queues are shared.

Each connection reads its own lines; everything it is sent (answers and the
room's broadcasts alike) goes through a bounded queue that its own writer task
drains. So a broadcast never waits for anybody: a member whose queue fills
(a viewer that stopped reading) is dropped, and the game goes on.

Committed before announced: after each act the rooms' journal (a game began, a
move, a game ended) is written to the store, and only then is what the act
answered delivered, in the order the acts happened (``LobbyService.announce``).
So a BOARDSTATUS or GAMEEND never goes out for a move that is not on disk.

One account, two connections: the newest login wins. The older connection is
closed, and a game it was playing is forfeited as if it had hung up, so a
person who reconnects from another terminal is never locked out by a ghost.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import deque
from collections.abc import Callable, Sequence
from typing import Generic, Protocol, TypeVar

from c4tui.engine import Move
from c4tui.lobby import Lobby, Member, Outbox, RoomKind
from c4tui.lobby.journal import GameEvent
from c4tui.lobby.kinds import ConnectFourSettings
from c4tui.net.errors import ProtocolError
from c4tui.net.framing import MessageStream
from c4tui.protocols import lobby as wire
from c4tui.protocols.limits import MAX_ROOMS
from c4tui.server.accounts import LoginThrottle
from c4tui.server.context import Client, Handler
from c4tui.server.store import LobbyStore, LoginResult

log = logging.getLogger("c4tui.server")

#: Messages that may wait for one member before it counts as unable to keep up.
OUTBOX_LIMIT = 1024
#: A dialect's requests; one kind of them; the rooms' settings; a move in their game.
R = TypeVar("R")
T = TypeVar("T")
S = TypeVar("S")
M = TypeVar("M")


class Keeper(Protocol[S, M]):
    """Something that keeps what happened to one kind of rooms' games (the lobby's store)."""

    async def keep(self, journal: Sequence[GameEvent[S, M]]) -> None:
        """Keep ``journal``, in order; everything is on disk when this returns."""


class LobbyConnection:
    """One lobby client: its member (once logged in) and its outgoing queue."""

    def __init__(self, stream: MessageStream, number: int) -> None:
        self.stream = stream
        self.number = number
        self.member: Member | None = None
        self.failures = 0
        self.last_activity = time.monotonic()
        self.dropped = ""  # why the server cut it off, if it did
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
        self.stream.connection.abort()

    async def write_all(self) -> None:
        """Send queued messages, in order, until cancelled.

        Paced (``send_paced``): a JOIN answer and BEGIN reach a client that reads one
        message per ``recv`` apart.
        """
        while True:
            message = await self._queue.get()
            await self.stream.send_paced(message)
            self.last_activity = time.monotonic()


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
        keeper: Keeper[S, M] | None = None,
    ) -> None:
        self.store = store
        self.rooms = Lobby(kind, max_rooms)
        self.throttle = throttle or LoginThrottle()
        self.keeper = keeper
        self._online: dict[str, LobbyConnection] = {}
        self._connections: dict[Member, LobbyConnection] = {}
        self._unannounced: deque[tuple[list[GameEvent[S, M]], Outbox]] = deque()
        self._in_order = asyncio.Lock()
        self._announcing: set[asyncio.Task[None]] = set()  # announce_soon's, until done

    async def announce(self, outbox: Outbox) -> None:
        """Keep what the last act did to the games, then deliver ``outbox`` (what it answered).

        Acts are announced in the order they happened, each once its journal is on
        disk; when this returns, ``outbox`` has been delivered.
        """
        if self._queued(outbox):
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

    def _queued(self, outbox: Outbox) -> bool:
        """Queue ``outbox`` with the rooms' journal; False if it could be delivered at once."""
        journal = self.rooms.take_journal()
        if self.keeper is None:
            journal = []  # these rooms' games are not kept
        if not journal and not self._unannounced and not self._in_order.locked():
            self.deliver(outbox)  # nothing to keep, nothing announced before it still waits
            return False
        self._unannounced.append((journal, outbox))
        return True

    async def _announce_queued(self) -> None:
        """Keep and deliver everything queued: one write for all the acts waiting."""
        async with self._in_order:
            while self._unannounced:
                acts = list(self._unannounced)
                self._unannounced.clear()
                journal = [event for events, _ in acts for event in events]
                if self.keeper is not None and journal:
                    await self.keeper.keep(journal)
                for _, outbox in acts:
                    self.deliver(outbox)

    def deliver(self, outbox: Outbox) -> None:
        """Hand every message to its member's queue (never waits)."""
        for member, message in outbox:
            connection = self._connections.get(member)
            if connection is not None:
                connection.offer(message)

    def logged_in(self, connection: LobbyConnection, user: str) -> None:
        """``connection`` is now ``user``'s; an older connection of the same user is closed."""
        older = self._online.get(user)
        if older is not None and older is not connection:
            older.drop("the same user logged in on another connection")
            self.leave(older)
        member = Member(user)
        connection.member = member
        self._online[user] = connection
        self._connections[member] = connection

    def leave(self, connection: LobbyConnection) -> None:
        """The connection is gone: leave its room (a player forfeits) and forget it."""
        member, connection.member = connection.member, None
        if member is None:
            return
        self.announce_soon(self.rooms.leave(member))
        self._connections.pop(member, None)
        if self._online.get(member.name) is connection:
            del self._online[member.name]


class Dialect(Generic[R, S, M]):
    """A room protocol: its parser (which raises ``wire.Violation``) and what its requests do.

    Both protocols share REGISTER, LOGIN and their bad formats (``wire.BadFormat``),
    which ``serve_rooms`` answers; every other request of a logged-in member goes to
    the act that ``on`` registered for its type. Generic over its requests and over
    its rooms' settings and moves, so a dialect serves only rooms of its own game.
    """

    def __init__(self, parse: Callable[[str], R | wire.BadFormat]) -> None:
        self.parse = parse
        self._acts: dict[type[object], Callable[[Lobby[S, M], Member, R], Outbox]] = {}

    def on(
        self, kind: type[T], act: Callable[[Lobby[S, M], Member, T], Outbox]
    ) -> Dialect[R, S, M]:
        """Let requests of type ``kind`` do ``act``; the dialect, for the next ``on``."""

        def narrowed(rooms: Lobby[S, M], member: Member, request: R) -> Outbox:
            if not isinstance(request, kind):  # dispatch looks acts up by type: cannot happen
                raise TypeError(f"{type(request).__name__} reached the act for {kind.__name__}")
            return act(rooms, member, request)

        self._acts[kind] = narrowed
        return self

    @property
    def kinds(self) -> frozenset[type[object]]:
        """The types of request that do something in the rooms."""
        return frozenset(self._acts)

    def dispatch(self, rooms: Lobby[S, M], member: Member, request: R) -> Outbox:
        """What a logged-in member's request does (its type must have an act)."""
        act = self._acts.get(type(request))
        if act is None:  # a request the parser makes but no act answers: a server bug
            raise TypeError(f"this dialect has no act for {type(request).__name__}")
        return act(rooms, member, request)


def rooms_handler(service: LobbyService[S, M], dialect: Dialect[R, S, M]) -> Handler:
    """The server's handler for a room protocol: ``dialect`` spoken in ``service``'s rooms."""

    async def serve(stream: MessageStream, client: Client) -> str:
        return await serve_rooms(stream, client, service, dialect)

    return serve


async def serve_rooms(
    stream: MessageStream,
    client: Client,
    service: LobbyService[S, M],
    dialect: Dialect[R, S, M],
) -> str:
    """Serve one client of a room protocol until it leaves; why it ended (for the log)."""
    connection = LobbyConnection(stream, client.number)
    writer = asyncio.create_task(connection.write_all())
    try:
        while True:
            line = await _next_line(connection, client.idle_timeout)
            try:
                request = dialect.parse(line)
            except wire.Violation as violation:
                return f"protocol error: {violation}"
            await _answer(service, connection, request, dialect)
    except (ConnectionError, OSError, ProtocolError, TimeoutError):
        if connection.dropped:
            return f"dropped: {connection.dropped}"
        raise
    finally:
        service.leave(connection)
        writer.cancel()
        with contextlib.suppress(asyncio.CancelledError, OSError, ProtocolError):
            await writer


async def _next_line(connection: LobbyConnection, idle: float) -> str:
    """The client's next line; silence counts as idle only while nothing is sent to it either."""
    while True:
        quiet = time.monotonic() - connection.last_activity
        try:
            line = await connection.stream.read(max(0.0, idle - quiet))
        except TimeoutError:
            if time.monotonic() - connection.last_activity >= idle:
                raise
            continue
        connection.last_activity = time.monotonic()
        return line


async def _answer(
    service: LobbyService[S, M],
    connection: LobbyConnection,
    request: R | wire.BadFormat,
    dialect: Dialect[R, S, M],
) -> None:
    """Carry out one request and queue its answers: accounts here, the rooms' by the table."""
    if isinstance(request, wire.Register):
        created = await service.store.register(request.user, request.password)
        connection.offer(wire.ack("REGISTER", 0 if created else 1))
    elif isinstance(request, wire.Login):
        await _log_in(service, connection, request)
    elif isinstance(request, wire.BadFormat) and request.account:
        connection.offer(request.reply)
    elif connection.member is None:
        connection.offer(wire.BADAUTH)
    elif isinstance(request, wire.BadFormat):
        connection.offer(request.reply)
    elif isinstance(request, wire.History | wire.GameLookup):
        connection.offer(await _look_up(service.store, connection.member, request))
    else:
        await service.announce(dialect.dispatch(service.rooms, connection.member, request))


async def _look_up(
    store: LobbyStore, member: Member, request: wire.History | wire.GameLookup
) -> str:
    """HISTORY's or GAME's answer, from the store."""
    if isinstance(request, wire.History):
        return wire.history(await store.history(request.user or member.name))
    stored = await store.game(request.number)
    if stored is None:
        return wire.ack("GAME", 1)
    return wire.game_record(
        number=stored.number,
        red=stored.red,
        yellow=stored.yellow,
        game=stored.settings,
        winner=stored.winner,
        reason="" if stored.reason is None else stored.reason.value,  # in progress
        moves=stored.moves,
        rated=stored.rated,
        started=stored.started,
    )


async def _log_in(
    service: LobbyService[S, M], connection: LobbyConnection, login: wire.Login
) -> None:
    """Check the password; failures are answered later and later (LoginThrottle)."""
    if connection.member is not None:
        connection.offer(wire.ack("LOGIN", 3))  # already logged in on this connection
        return
    began = time.monotonic()
    result = await service.store.check(login.user, login.password)
    if result is LoginResult.OK:
        service.throttle.succeeded(login.user)
        service.logged_in(connection, login.user)
    else:
        connection.failures += 1
        wait = service.throttle.failed(login.user, connection.failures)
        await asyncio.sleep(max(0.0, began + wait - time.monotonic()))
    connection.offer(wire.ack("LOGIN", result.value))


def _room_list(rooms: Lobby[S, M], member: Member, request: wire.RoomList) -> Outbox:
    """ROOMLIST's answer, to the asker alone."""
    return [(member, wire.room_list(rooms.room_names(request.mode)))]


def _join(rooms: Lobby[S, M], member: Member, request: wire.Join) -> Outbox:
    """JOIN: as the second player (the game begins) or as a viewer."""
    return rooms.join(member, request.room, request.mode)


def _forfeit(rooms: Lobby[S, M], member: Member, request: wire.Forfeit) -> Outbox:
    """FORFEIT: the other player wins."""
    return rooms.forfeit(member)


def with_shared_acts(dialect: Dialect[R, S, M]) -> Dialect[R, S, M]:
    """``dialect`` with the acts of the room commands both protocols share."""
    return dialect.on(wire.RoomList, _room_list).on(wire.Join, _join).on(wire.Forfeit, _forfeit)


def _play(rooms: Lobby[ConnectFourSettings, Move], member: Member, request: wire.Play) -> Outbox:
    """DROP or POP; a column that is no number is refused in the codec's words."""
    return rooms.play(member, request.move, request.unreadable)


#: The lobby protocol: Connect Four rooms.
LOBBY = (
    with_shared_acts(Dialect[wire.Request, ConnectFourSettings, Move](wire.parse_request))
    .on(wire.RoomInfo, lambda rooms, member, request: [(member, rooms.room_info(request.room))])
    .on(
        wire.Create, lambda rooms, member, request: rooms.create(member, request.room, request.game)
    )
    .on(wire.QuickPlay, lambda rooms, member, request: rooms.quick_play(member, request.game))
    .on(wire.Play, _play)
    .on(wire.Chat, lambda rooms, member, request: rooms.chat(member, request.text))
)
