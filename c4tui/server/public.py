"""The players' side of the lobby in public (spec/protocols.md §7): blocks, reports, limits.

``answers.answer`` hands every request here first (``answered_in_public``): a
REGISTER over its address's hourly limit and a CHAT over its sender's rate are
refused before anything else looks at them; BLOCK, UNBLOCK, BLOCKS and REPORT of a
logged-in member are answered from the store. The rooms keep players apart by the
blocks they hold in memory (``lobby.blocks``): this module loads them from the store
when the lobby opens or a node takes it over (``load_blocks``), and puts each change
there as soon as the store has committed it.

What this server chose where §7 is silent:
- a REGISTER counts whether it creates an account or finds the name taken (each costs a
  bcrypt hash, so the limit also bounds the work one address makes); a refused one
  does not count. A bad format is answered before it could count.
- a CHAT counts once it passes the limit, delivered or answered NOROOM; one refused
  for its rate does not count, so at most ``--chat-rate`` lines are said in any 10 s.
- REPORT of oneself is "no such user" (:1), as BLOCK of oneself is.
- blocks are nobody's business but the blocker's: the log says nothing of them; a
  report is logged (who, whom, why; never its text, which moderators read in REPORTS).
- on a cluster the leader serves every lobby line, so both limits count across its
  nodes; a node taking the lobby over starts counting afresh.
- the tic-tac-toe port keeps its handout's REGISTER (no status 3): its service's
  limits are off.
"""

from __future__ import annotations

import logging
import time
from typing import TYPE_CHECKING, TypeVar

from c4tui.lobby import Member
from c4tui.net.address import address_group
from c4tui.protocols import lobby as wire
from c4tui.protocols.competition import RegisterBot
from c4tui.protocols.public import (
    CHAT_MUTED,
    CHAT_TOO_FAST,
    TOO_MANY_REGISTRATIONS,
    Block,
    Blocks,
    Report,
    Unblock,
    blocks_answer,
)

if TYPE_CHECKING:
    from c4tui.server.lobby import LobbyConnection, LobbyService

log = logging.getLogger("c4tui.server")

#: The rooms' settings and their game's moves.
S = TypeVar("S")
M = TypeVar("M")
#: The §7 requests any logged-in player may send.
PLAYER_REQUESTS = (Block, Unblock, Blocks, Report)
#: REPORT's "no such user" (and, here, oneself).
NO_SUCH_USER = 1


async def answered_in_public(
    service: LobbyService[S, M], connection: LobbyConnection, request: object
) -> bool:
    """Answer ``request`` if it is this module's; False if it is not (``answer`` goes on).

    A REGISTER over the limit and a CHAT too fast are refused here (REGISTER:ACKSTATUS:3,
    CHAT:ACKSTATUS:<status>); a player's BLOCK, UNBLOCK, BLOCKS and REPORT are answered.
    """
    if isinstance(request, wire.Register):
        command = "REGISTERBOT" if isinstance(request, RegisterBot) else "REGISTER"
        return await registrations_refused(service, connection, command)
    member = connection.member
    if member is None:
        return False  # BADAUTH, as for anything but an account's request
    if isinstance(request, wire.Chat):
        status = chat_refusal(service, member)
        if status is not None:
            connection.offer(wire.ack("CHAT", status))
        return status is not None
    if isinstance(request, PLAYER_REQUESTS):
        connection.offer(await _answer(service, member, request))
        return True
    return False


async def registrations_refused(
    service: LobbyService[S, M], connection: LobbyConnection, command: str, address: str = ""
) -> bool:
    """Count one registration from an address; True if refused (answer sent).

    ``command``: REGISTER, REGISTERBOT or (§9) KEYREGISTER, whose status 3 it answers.
    ``address``: where it comes from ("": the connection's; an ssh visitor's, for KEYREGISTER).
    """
    group = address_group(address or connection.address)
    if await service.registrations.take(group):
        return False
    limit = service.registrations.limit
    log.info("%s refused %s: %d from %s in the last hour", connection.name, command, limit, group)
    connection.offer(wire.ack(command, TOO_MANY_REGISTRATIONS))
    return True


def chat_refusal(service: LobbyService[S, M], member: Member) -> int | None:
    """CHAT's status for a line of ``member`` that must not be said (None: it may be said).

    The one place a CHAT is checked before the rooms deliver it: a moderator's mute
    (CHAT:ACKSTATUS:1) belongs here, before the rate, so that a muted line never counts.
    """
    if service.moderation.muted(member.name, time.time()):
        return CHAT_MUTED  # reaches nobody, and counts for nothing
    if not service.chat_lines.take(member.name, service.now()):
        return CHAT_TOO_FAST
    return None


async def _answer(
    service: LobbyService[S, M], member: Member, request: Block | Unblock | Blocks | Report
) -> str:
    """The answer to a player's §7 request (a block's effects on the rooms are at once)."""
    if isinstance(request, Block):
        return await _block(service, member, request.user)
    if isinstance(request, Unblock):
        removed = await service.store.unblock(member.name, request.user)
        await _blocks_changed(service, member.name)
        return wire.ack("UNBLOCK", 0 if removed else 1)
    if isinstance(request, Blocks):
        return blocks_answer(await service.store.blocks_of(member.name))
    return await _report(service, member, request)


async def _block(service: LobbyService[S, M], member: Member, user: str) -> str:
    """BLOCK: kept in the store (it says 0, 1 or 2), then held by the rooms."""
    status = await service.store.block(member.name, user)
    if status == 0:
        for blocked in await _blocks_changed(service, member.name):
            service.deliver(service.rooms.challenges.blocked(member.name, blocked))
    return wire.ack("BLOCK", status)


async def _blocks_changed(service: LobbyService[S, M], blocker: str) -> set[str]:
    """The rooms hold ``blocker``'s blocks as the store now has them; those that are new."""
    before = set(service.rooms.blocks.of(blocker))
    now = await service.store.blocks_of(blocker)
    service.rooms.blocks.set_of(blocker, now)
    return set(now) - before


async def _report(service: LobbyService[S, M], member: Member, report: Report) -> str:
    """REPORT: kept by the store with the last game between the two (it says 0, 1 or 3)."""
    if report.user == member.name:
        return wire.ack("REPORT", NO_SUCH_USER)
    status = await service.store.report(
        member.name, report.user, report.reason, report.text, time.time()
    )
    if status == 0:
        log.info("%s reported %s (%s)", member.name, report.user, report.reason.value)
        service.metrics.reported()  # §7's c4tui_reports_total
    return wire.ack("REPORT", status)


async def load_blocks(service: LobbyService[S, M]) -> None:
    """The rooms hold every block the store keeps (the lobby opens, or a node takes it over)."""
    pairs = await service.store.all_blocks()
    service.rooms.blocks.load(pairs)
    log.info("%d blocks held", len(pairs))
