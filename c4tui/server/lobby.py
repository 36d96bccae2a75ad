"""Serving rooms: logins, then the rooms of ``c4tui.lobby`` over real connections.

Both room protocols are served here: the lobby's (Connect Four) and, on a port
of its own, the INFO1112 handout's (tic-tac-toe, ``c4tui.server.tictactoe``).
Each is a ``Dialect``: how a message is parsed and what a request does to the
rooms. Accounts, logins, the throttle and the outgoing queues are shared.

Each connection reads its own lines; everything it is sent (answers and the
room's broadcasts alike) goes through a bounded queue that its own writer task
drains. So a broadcast never waits for anybody: a member whose queue fills
(a viewer that stopped reading) is dropped, and the game goes on.

One account, two connections: the newest login wins. The older connection is
closed, and a game it was playing is forfeited as if it had hung up, so a
person who reconnects from another terminal is never locked out by a ghost.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from c4tui.lobby import CONNECT_FOUR, Lobby, Member, Outbox, RoomKind
from c4tui.net.framing import MessageStream
from c4tui.protocols import lobby as wire
from c4tui.protocols.common import ProtocolError
from c4tui.protocols.limits import MAX_ROOMS
from c4tui.server.accounts import AccountStore, LoginResult, LoginThrottle
from c4tui.server.context import ClientContext

log = logging.getLogger("c4tui.server")

#: Messages that may wait for one member before it counts as unable to keep up.
OUTBOX_LIMIT = 1024


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


class LobbyService:
    """What every lobby connection shares: the rooms, the accounts, who is online."""

    def __init__(
        self,
        accounts: AccountStore,
        kind: RoomKind = CONNECT_FOUR,
        max_rooms: int = MAX_ROOMS,
        throttle: LoginThrottle | None = None,
    ) -> None:
        self.accounts = accounts
        self.rooms = Lobby(kind, max_rooms)
        self.throttle = throttle or LoginThrottle()  # shared by services with one account store
        self._online: dict[str, LobbyConnection] = {}
        self._connections: dict[Member, LobbyConnection] = {}

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
        self.deliver(self.rooms.leave(member))
        self._connections.pop(member, None)
        if self._online.get(member.name) is connection:
            del self._online[member.name]


@dataclass(frozen=True)
class Dialect:
    """A room protocol: its parser (which raises ``wire.Violation``) and what requests do.

    Both protocols share REGISTER, LOGIN and their bad formats (``wire.BadFormat``);
    ``dispatch`` gets every other request of a logged-in member.
    """

    parse: Callable[[str], Any]
    dispatch: Callable[[Lobby, Member, Any], Outbox]


async def serve_lobby(stream: MessageStream, client: ClientContext) -> str:
    """Serve one lobby client until it leaves; why it ended (for the log)."""
    assert client.lobby is not None, "the server was started without a lobby"
    return await serve_rooms(stream, client, client.lobby, LOBBY)


async def serve_rooms(
    stream: MessageStream, client: ClientContext, service: LobbyService, dialect: Dialect
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
    service: LobbyService, connection: LobbyConnection, request: object, dialect: Dialect
) -> None:
    """Carry out one request and queue its answers."""
    if isinstance(request, wire.Register):
        created = await service.accounts.register(request.user, request.password)
        connection.offer(wire.ack("REGISTER", 0 if created else 1))
    elif isinstance(request, wire.Login):
        await _log_in(service, connection, request)
    elif isinstance(request, wire.BadFormat) and request.account:
        connection.offer(request.reply)
    elif connection.member is None:
        connection.offer(wire.BADAUTH)
    elif isinstance(request, wire.BadFormat):
        connection.offer(request.reply)
    else:
        service.deliver(dialect.dispatch(service.rooms, connection.member, request))


def _in_the_lobby(  # noqa: PLR0911 (one return per kind of request)
    rooms: Lobby, member: Member, request: wire.Request
) -> Outbox:
    """What a logged-in member's request does."""
    if isinstance(request, wire.RoomList):
        return [(member, wire.room_list(rooms.room_names(request.mode)))]
    if isinstance(request, wire.RoomInfo):
        return [(member, rooms.room_info(request.room))]
    if isinstance(request, wire.Create):
        return rooms.create(member, request.room, request.game)
    if isinstance(request, wire.Join):
        return rooms.join(member, request.room, request.mode)
    if isinstance(request, wire.QuickPlay):
        return rooms.quick_play(member, request.game)
    if isinstance(request, wire.Play):
        unreadable = None if request.move else f"{request.text[:20]!r} is not a column number"
        return rooms.play(member, request.move, unreadable)
    if isinstance(request, wire.Forfeit):
        return rooms.forfeit(member)
    if isinstance(request, wire.Chat):
        return rooms.chat(member, request.text)
    raise AssertionError(f"answered before the lobby: {request!r}")


async def _log_in(service: LobbyService, connection: LobbyConnection, login: wire.Login) -> None:
    """Check the password; failures are answered later and later (LoginThrottle)."""
    if connection.member is not None:
        connection.offer(wire.ack("LOGIN", 3))  # already logged in on this connection
        return
    began = time.monotonic()
    result = await service.accounts.check(login.user, login.password)
    if result is LoginResult.OK:
        service.throttle.succeeded(login.user)
        service.logged_in(connection, login.user)
    else:
        connection.failures += 1
        wait = service.throttle.failed(login.user, connection.failures)
        await asyncio.sleep(max(0.0, began + wait - time.monotonic()))
    connection.offer(wire.ack("LOGIN", result.value))


LOBBY = Dialect(wire.parse_request, _in_the_lobby)
