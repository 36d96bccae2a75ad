"""What the server answers itself, before the rooms: accounts, the past, and (§5.3-5.5) standing.

``serve_rooms`` hands every request here. REGISTER and LOGIN are answered for
anybody; a request of a logged-in member is answered from the store (HISTORY,
GAME) or is the rooms' (``LobbyService.act``, by the dialect's table).
"""

from __future__ import annotations

import asyncio
import time
from typing import TYPE_CHECKING, TypeVar, get_args

from c4tui.lobby import Member
from c4tui.protocols import lobby as wire
from c4tui.protocols.competition import (
    Accept,
    Challenge,
    CompetitionRequest,
    Decline,
    Players,
    Rematch,
)
from c4tui.server.challenges import players_answer
from c4tui.server.store import LobbyStore, LoginResult

if TYPE_CHECKING:
    from c4tui.server.dialects import Dialect
    from c4tui.server.lobby import LobbyConnection, LobbyService

#: §5.3-5.5's requests, answered by the server itself (not by the rooms' table).
SERVED_LATER = tuple(
    kind
    for kind in get_args(CompetitionRequest)
    if kind
    not in (
        Players,
        Challenge,
        Accept,
        Decline,
        Rematch,
    )  # served: PLAYERS here, the rest by the rooms
)
R = TypeVar("R")
S = TypeVar("S")
M = TypeVar("M")


async def answer(
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
    elif isinstance(request, Players):
        connection.offer(await players_answer(service))
    elif isinstance(request, SERVED_LATER):  # issue 29 in progress: served by its next commits
        connection.offer(wire.invalid(f"{type(request).__name__.upper()} is not served yet"))
    else:
        await service.act(connection.member, request, dialect)


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
    earliest = time.monotonic()
    if result is not LoginResult.OK:
        connection.failures += 1
        earliest = began + service.throttle.failed(login.user, connection.failures)
    now = time.monotonic()
    await asyncio.sleep(max(0.0, service.throttle.turn(login.user, earliest, now) - now))
    if result is not LoginResult.OK:
        connection.offer(wire.ack("LOGIN", result.value))
        return
    service.throttle.succeeded(login.user)
    _, bot = (await service.store.ratings([login.user])).get(login.user, (0.0, False))
    comeback = service.logged_in(connection, login.user, bot)
    connection.offer(wire.ack("LOGIN", result.value))
    service.deliver(comeback)  # REJOIN and the game, after the answer
