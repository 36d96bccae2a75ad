"""What the server answers itself, before the rooms: accounts, the past, and (§5.3-5.5) standing.

``serve_rooms`` hands every request here. REGISTER and LOGIN (and §9's KEYACCOUNT,
KEYREGISTER and KEYGUEST) are answered for anybody; a request of a logged-in member is
answered from the store (HISTORY, GAME) or is the rooms' (``LobbyService.act``, by the
dialect's table). A guest (§9) is answered only what watching needs (``server.guests``).
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, TypeVar

from c4tui.lobby import Member
from c4tui.protocols import lobby as wire
from c4tui.protocols.competition import Players, RegisterBot
from c4tui.server.challenges import players_answer
from c4tui.server.guests import guest_refused
from c4tui.server.keys import BEFORE_LOGIN, MEMBER_KEY_REQUESTS, answer_before_login, answer_keys
from c4tui.server.metrics import login_result
from c4tui.server.moderation import MODERATION_REQUESTS, answer_moderation
from c4tui.server.public import answered_in_public
from c4tui.server.puzzles import PUZZLE_REQUESTS, answer_puzzle
from c4tui.server.standing import STANDING_REQUESTS, answer_standing, checked_in_turn
from c4tui.server.store import LobbyStore, LoginResult

log = logging.getLogger("c4tui.server")

if TYPE_CHECKING:
    from c4tui.server.dialects import Dialect
    from c4tui.server.lobby import LobbyConnection, LobbyService

#: §5.3-5.5's requests, answered by the server itself (not by the rooms' table).
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
    if guest_refused(connection.member, request):
        connection.offer(wire.BADAUTH)  # §9: a guest only watches, as if not logged in
        return
    if await answered_in_public(service, connection, request):
        return  # §7: a limit refused it, or a player's BLOCK, UNBLOCK, BLOCKS or REPORT
    if await _answered_for_anybody(service, connection, request):
        return
    if connection.member is None:
        connection.offer(wire.BADAUTH)
    elif isinstance(request, wire.BadFormat):
        connection.offer(request.reply)
    elif isinstance(request, wire.History | wire.GameLookup):
        connection.offer(await _look_up(service.store, connection.member, request))
    elif isinstance(request, STANDING_REQUESTS):
        await answer_standing(service, connection, connection.member, request)
    elif isinstance(request, Players):
        connection.offer(await players_answer(service))
    elif isinstance(request, MODERATION_REQUESTS):
        await answer_moderation(service, connection, connection.member, request)
    elif isinstance(request, PUZZLE_REQUESTS):
        await answer_puzzle(service, connection, connection.member, request)
    elif isinstance(request, MEMBER_KEY_REQUESTS):
        await answer_keys(service, connection, connection.member, request)
    else:
        await service.act(connection.member, request, dialect)


async def _answered_for_anybody(
    service: LobbyService[S, M], connection: LobbyConnection, request: object
) -> bool:
    """Answer an account's request, logged in or not; False if ``request`` is none of them."""
    if isinstance(request, wire.Register):
        bot = isinstance(request, RegisterBot)  # §5.5: the account is marked as a bot
        created = await service.store.register(request.user, request.password, bot)
        _log_registration(connection, request.user, bot, created)
        service.metrics.registered(created)
        connection.offer(wire.ack("REGISTERBOT" if bot else "REGISTER", 0 if created else 1))
    elif isinstance(request, wire.Login):
        await _log_in(service, connection, request)
    elif isinstance(request, wire.BadFormat) and request.account:
        connection.offer(request.reply)
    elif isinstance(request, BEFORE_LOGIN):  # §9: KEYACCOUNT, KEYREGISTER, KEYGUEST
        await answer_before_login(service, connection, request)
    else:
        return False
    return True


def _log_registration(connection: LobbyConnection, user: str, bot: bool, created: bool) -> None:
    """Say who registered (never the password), or that the name was taken."""
    if created:
        log.info("%s registered %s%s", connection.name, user, " (a bot)" if bot else "")
    else:
        log.info("%s could not register %s (the name is taken)", connection.name, user)


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
        clock=stored.clock,
    )


async def _log_in(
    service: LobbyService[S, M], connection: LobbyConnection, login: wire.Login
) -> None:
    """Check the password; failures are answered later and later (LoginThrottle)."""
    if connection.member is not None:
        connection.offer(wire.ack("LOGIN", 3))  # already logged in on this connection
        return
    result = await checked_in_turn(service, connection, login.user, login.password)
    service.metrics.logged_in(login_result(result))
    if result is not LoginResult.OK:
        connection.offer(wire.ack("LOGIN", result.value))
        return
    _, bot = (await service.store.ratings([login.user])).get(login.user, (0.0, False))
    late = await service.moderation.logged_in(login.user)  # its role and mute (§7)
    if late is not LoginResult.OK:  # banned or deleted while its password was checked
        connection.offer(wire.ack("LOGIN", late.value))
        return
    comeback = service.logged_in(connection, Member(login.user, bot))
    log.info("%s logged in as %s", connection.name, login.user)
    connection.offer(wire.ack("LOGIN", result.value))
    service.deliver(comeback)  # REJOIN and the game, after the answer
