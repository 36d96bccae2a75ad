"""ssh guests (§9, issue 42): a visit's key without an account watches the lobby.

``c4tui serve --ssh-guests`` lets an ssh visitor without an account play at its own
keyboard; KEYGUEST lets it watch the lobby too. The lobby learns that its ssh door
takes guests from the server's own options (``LobbyService.guests``, set by
``core.C4Server``): on a cluster every node runs with the same options, and the
visit itself is checked in the store as any token is.

A guest is a ``Member`` marked ``guest`` with a name of the server's choosing
(``guest-<n>``, the first one neither online nor an account's: no account may be
registered with such a name now, §7's ``reserved_name``). Nothing of it is stored. It
may ask only what watching needs (``GUEST_MAY``, and JOIN as a VIEWER); anything else
is answered BADAUTH, as a request before a login is. A bad format is answered as for
anyone: it does nothing. Guests are no one's to challenge (``lobby.challenges``), and
PLAYERS leaves them out.

What this server chose where §9 is silent: KEYGUEST on a connection that is
logged in already is status 3 (LOGIN's word for it); a guest's login is in the log
and counts in no metric (it is no account's).
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, TypeVar

from c4tui.lobby import Member
from c4tui.protocols import keys as wire_keys
from c4tui.protocols import lobby as wire
from c4tui.protocols.competition import Leaderboard, Players, Profile
from c4tui.protocols.public import Blocks
from c4tui.protocols.rooms import ack

if TYPE_CHECKING:
    from c4tui.server.lobby import LobbyConnection, LobbyService

log = logging.getLogger("c4tui.server")

S = TypeVar("S")
M = TypeVar("M")
#: What a guest may ask besides JOIN as a VIEWER: the rooms, who is online, standing,
#: the past, and BLOCKS (a guest blocks no one: the answer is always empty).
GUEST_MAY = (
    wire.RoomList,
    wire.RoomInfo,
    Players,
    Leaderboard,
    Profile,
    wire.History,
    wire.GameLookup,
    Blocks,
    wire.BadFormat,
)


def guest_refused(member: Member | None, request: object) -> bool:
    """True if ``member`` is a guest and ``request`` is more than watching needs."""
    if member is None or not member.guest:
        return False
    if isinstance(request, wire.Join):
        return request.mode is not wire.Mode.VIEWER
    return not isinstance(request, GUEST_MAY)


async def _free_name(service: LobbyService[S, M]) -> str:
    """The first ``guest-<n>`` neither online nor an account's, as of the caller's next step.

    No account can take such a name now, but one made before the rule may hold it:
    the store is asked, and the names online looked at again after each answer.
    """
    accounts: set[str] = set()

    def first_free() -> str:
        return wire_keys.guest_name({member.name for member in service.online()} | accounts)

    while True:
        name = first_free()
        if await service.store.ratings([name]):  # an account's, from before the rule
            accounts.add(name)
        elif name == first_free():  # still free: no one took it while the store answered
            return name


async def answer_guest(
    service: LobbyService[S, M], connection: LobbyConnection, request: wire_keys.KeyGuest
) -> None:
    """KEYGUEST: log the connection in as the next free ``guest-<n>``, if the visit is live."""
    if not service.guests:
        connection.offer(ack("KEYGUEST", wire_keys.GUESTS_NOT_TAKEN))
        return
    if connection.member is not None:
        connection.offer(ack("KEYGUEST", wire_keys.GUEST_LOGGED_IN))
        return
    if await service.store.live_visit(wire_keys.token_hash(request.token)) is None:
        connection.offer(ack("KEYGUEST", wire_keys.GUEST_NO_VISIT))
        return
    name = await _free_name(service)  # no await from here to the login: it stays free
    comeback = service.logged_in(connection, Member(name, guest=True))
    log.info("%s watches as %s (an ssh key without an account)", connection.name, name)
    connection.offer(ack("KEYGUEST", 0, name))
    service.deliver(comeback)
