"""What the server answers about ssh keys as accounts (§9, issue 42), from the store.

``answers.answer`` hands KEYACCOUNT, KEYREGISTER and KEYGUEST here from anybody (a visitor's app
asks them before it logs in, often as its first line), and a logged-in member's
KEYBIND, KEYADD, KEYS and KEYREMOVE. A visit's token is only ever looked up by its
SHA-256 (``protocols.keys.token_hash``); the store checks a token given as a password
itself (``LobbyStore.check``), so LOGIN, PASSWORD and DELETEACCOUNT take one alike,
in the login throttle's turn. KEYREGISTER counts in REGISTER's limit per address
(§7): each one may cost a bcrypt hash, as a REGISTER does.

What this server chose where the contract is silent: a malformed token is "no such
visit"; KEYBIND past ``MAX_KEYS`` is refused with status 3, as KEYADD's; the log says
who bound, added or removed which fingerprint (never a token). KEYACCOUNT and
KEYREGISTER with a made-up token are not slowed down as a wrong LOGIN is: a token is
256 random bits, which no one guesses, and neither answer says anything of an account
without one; a LOGIN with a guessed token is a wrong password, and slowed.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, TypeVar

from c4tui.lobby import Member
from c4tui.protocols import keys as wire
from c4tui.protocols.rooms import ack
from c4tui.server.guests import answer_guest
from c4tui.server.public import registrations_refused

if TYPE_CHECKING:
    from c4tui.server.lobby import LobbyConnection, LobbyService

log = logging.getLogger("c4tui.server")

#: The requests answered here before a login, and those of a logged-in member.
BEFORE_LOGIN = wire.BEFORE_LOGIN
MEMBER_KEY_REQUESTS = (wire.KeyBind, wire.KeyAdd, wire.KeyList, wire.KeyRemove)
S = TypeVar("S")
M = TypeVar("M")


async def answer_before_login(
    service: LobbyService[S, M],
    connection: LobbyConnection,
    request: wire.KeyAccountAsk | wire.KeyRegister | wire.KeyGuest,
) -> None:
    """KEYACCOUNT: which account the visit's key logs in; KEYREGISTER: one made for it.

    KEYGUEST (a guest who watches, without an account) is ``server.guests``'.
    """
    store = service.store
    if isinstance(request, wire.KeyGuest):
        await answer_guest(service, connection, request)
        return
    if isinstance(request, wire.KeyAccountAsk):
        visit = await store.live_visit(wire.token_hash(request.token))
        if visit is None:
            connection.offer(ack("KEYACCOUNT", wire.NO_VISIT))
        else:
            connection.offer(wire.key_account_answer(await store.key_account(visit.fingerprint)))
        return
    visit = await store.live_visit(wire.token_hash(request.token))
    if visit is None:  # nothing to make an account for: nothing counted
        connection.offer(ack("KEYREGISTER", wire.REGISTER_NO_VISIT))
        return
    # Counted where the visitor is: its app connects from this machine, as every visitor's.
    if await registrations_refused(service, connection, "KEYREGISTER", visit.address):
        return
    status = await store.key_register(request.user, wire.token_hash(request.token))
    if status == 0:
        log.info("%s registered %s with an ssh key", connection.name, request.user)
    service.metrics.registered(status == 0)
    connection.offer(ack("KEYREGISTER", status))


async def answer_keys(
    service: LobbyService[S, M],
    connection: LobbyConnection,
    member: Member,
    request: wire.KeyBind | wire.KeyAdd | wire.KeyList | wire.KeyRemove,
) -> None:
    """A member's KEYBIND, KEYADD, KEYS or KEYREMOVE, answered from the store."""
    store, user = service.store, member.name
    if isinstance(request, wire.KeyBind):
        status = await store.bind_key(user, wire.token_hash(request.token))
        if status == 0:
            log.info("%s bound its visit's ssh key to %s", connection.name, user)
        connection.offer(ack("KEYBIND", status))
    elif isinstance(request, wire.KeyAdd):
        fingerprint = wire.fingerprint_of(request.key)
        status = await store.add_key(user, wire.Visit(fingerprint, request.key))
        if status == 0:
            log.info("%s added the ssh key %s", user, fingerprint)
            connection.offer(wire.key_added_answer(fingerprint))
        else:
            connection.offer(ack("KEYADD", status))
    elif isinstance(request, wire.KeyList):
        connection.offer(wire.keys_answer(await store.keys_of(user)))
    else:
        removed = await store.remove_key(user, request.fingerprint)
        if removed:
            log.info("%s removed the ssh key %s", user, request.fingerprint)
        connection.offer(ack("KEYREMOVE", 0 if removed else wire.REMOVE_NO_SUCH_KEY))
