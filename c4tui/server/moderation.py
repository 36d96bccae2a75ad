"""Moderators and account deletion in a running server (spec/protocols.md §7).

``answers.answer`` hands BAN, UNBAN, MUTE, REPORTS, CLOSEREPORT and DELETEACCOUNT
here. Only moderators may send the first five: the role is read from the store at
login and refreshed by the change feed, and anyone else is answered "not a
moderator" (status 2) with nothing done. Every moderator's action is kept by the
store (its ``moderator_actions``) and said in the server's log.

A ban, or an account's deletion, takes the user out at once (``Moderation.remove``):
its game in progress is forfeited (kept before it is told, like any forfeit), its
connections hear ``BYE:banned`` (or ``BYE:deleted``) and close. The store then
answers its LOGIN :4 (banned) or :1 (deleted) and leaves it off the leaderboard.

What ``c4tui admin`` does reaches a running server through the store's change feed
(``events_after``), read every ``POLL_SECONDS`` by the service that serves the
rooms (on a cluster, only the leading node's: it serves every node's clients).
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import TYPE_CHECKING, Any

from c4tui.lobby import Member
from c4tui.lobby.blocks import Blocks
from c4tui.lobby.removal import removed
from c4tui.protocols.presence import ByeReason
from c4tui.protocols.public import (
    COMMANDS,
    NOT_A_MODERATOR,
    REPORTS_LISTED,
    Ban,
    CloseReport,
    DeleteAccount,
    Mute,
    Reports,
    Role,
    Unban,
    reports_answer,
)
from c4tui.protocols.rooms import ack
from c4tui.server.moderation_store import EventKind, ModerationEvent, Sanctions, deleted_as
from c4tui.server.standing import checked_in_turn
from c4tui.server.store import LoginResult

if TYPE_CHECKING:
    from c4tui.server.lobby import LobbyConnection, LobbyService
    from c4tui.server.store import LobbyStore

log = logging.getLogger("c4tui.server")

#: The requests answered here.
MODERATION_REQUESTS = (Ban, Unban, Mute, Reports, CloseReport, DeleteAccount)
ModerationRequest = Ban | Unban | Mute | Reports | CloseReport | DeleteAccount
#: Seconds between two reads of the store's change feed (§7 allows 5 for it all).
POLL_SECONDS = 1.0
#: How many of the newest moderators' acts a change's log line looks for its act among.
ACTS_LOOKED_AT = 50
#: Seconds in an hour and in a minute: a ban's and a mute's units on the wire.
HOUR, MINUTE = 3600, 60


class Moderation:
    """Who moderates and who is muted, as the rooms' service knows them; who a ban reaches.

    ``services``: every service whose connections a ban or a deletion closes (the
    lobby's, and the tic-tac-toe port's, whose accounts are the same).
    """

    def __init__(self, service: LobbyService[Any, Any]) -> None:
        self.store: LobbyStore = service.store
        self.metrics = service.metrics  # c4tui_bans_total counts the feed's bans
        self.counts_bans = True  # a cluster's node that does not lead leaves it to the leader
        self.services: list[LobbyService[Any, Any]] = [service]
        self._moderators: set[str] = set()
        self._muted: dict[str, float] = {}  # user: until when (epoch seconds)
        self._watching: asyncio.Task[None] | None = None
        self._last: int | None = None  # the feed's last event acted on (None: not read yet)

    @property
    def _blocks(self) -> Blocks:
        """The rooms' blocks, one set for both ports (``core.py`` gives them the lobby's)."""
        blocks: Blocks = self.services[0].rooms.blocks
        return blocks

    def serve_too(self, other: LobbyService[Any, Any]) -> None:
        """``other``'s connections are the same accounts': a ban closes them too."""
        other.moderation = self
        self.services.append(other)

    # ----- what the service asks ---------------------------------------------------

    async def logged_in(self, user: str) -> LoginResult:
        """``user``'s password matched: read its role and mute; whether it may still come in.

        A ban or a deletion committed while the password was being checked (bcrypt takes
        a while) is read here, after the check: BANNED or NO_SUCH_USER, and the login is
        refused. One committed later reaches the feed, which then closes this login.
        """
        sanctions = await self.refresh(user)
        if sanctions is None:
            return LoginResult.NO_SUCH_USER
        return LoginResult.BANNED if sanctions.banned else LoginResult.OK

    def is_moderator(self, user: str) -> bool:
        """Whether ``user`` had the moderator's role at login or since."""
        return user in self._moderators

    def muted(self, user: str, now: float) -> bool:
        """Whether ``user``'s CHAT reaches nobody at ``now`` (epoch seconds)."""
        until = self._muted.get(user)
        if until is not None and until <= now:
            del self._muted[user]  # over: forgotten
            return False
        return until is not None

    async def refresh(self, user: str) -> Sanctions | None:
        """Read ``user``'s role and mute again from the store (a deleted account: None)."""
        role = await self.store.role(user)
        sanctions = await self.store.sanctions(user)
        if role == Role.MODERATOR.value:
            self._moderators.add(user)
        else:
            self._moderators.discard(user)
        muted_until = None if sanctions is None else sanctions.muted_until
        if muted_until is None or muted_until <= time.time():
            self._muted.pop(user, None)
        else:
            self._muted[user] = muted_until
        return sanctions

    # ----- taking a user out -------------------------------------------------------

    async def remove(self, user: str, reason: ByeReason) -> None:
        """``user`` may stay no longer (banned, deleted): out of every room, then BYE.

        Its game in progress ends as a forfeit, kept before anybody is told (the
        rooms' journal, ``LobbyService.announce``); each of its connections then hears
        ``BYE:<reason>`` and closes.
        """
        await self.take_out(user)
        self.close(user, reason)

    async def take_out(self, user: str) -> None:
        """``user`` out of every room (its game forfeited, kept, then told); still logged in."""
        for service in self.services:
            members = [c.member for c in service.open if c.member and c.member.name == user]
            await service.announce(removed(service.rooms, user, members))

    def close(self, user: str, reason: ByeReason) -> None:
        """Log ``user``'s connections out and close them, ``BYE:<reason>`` their last line.

        Whatever they did while the forfeit was being kept (a room entered) is undone
        first; any line of theirs still to come is a stranger's (BADAUTH, never sent).
        """
        for service in self.services:
            for connection in list(service.open):
                if connection.member is None or connection.member.name != user:
                    continue
                service.announce_soon(removed(service.rooms, user, [connection.member]))
                service.leave(connection)
                connection.say_bye(reason)

    # ----- the change feed ---------------------------------------------------------

    async def from_now(self) -> None:
        """Act on the changes after the feed's last one as of now (read before the blocks)."""
        self._last = await self.store.last_event()

    def start(self) -> None:
        """Act on the store's change feed from now on, every ``POLL_SECONDS`` (``stop`` ends it)."""
        if self._watching is None:
            self._watching = asyncio.create_task(self._watch())

    def stop(self) -> None:
        """Stop reading the change feed."""
        if self._watching is not None:
            self._watching.cancel()
            self._watching = None

    async def _watch(self) -> None:
        """Every ``POLL_SECONDS``, act on what changed; a read that fails is tried again."""
        failing = False
        while True:
            try:
                await self.act_on_news()
                failing = False
            except Exception as error:  # the database, or a bug: never the end of the lobby
                if not failing:
                    log.warning("cannot act on the moderators' changes (%s): trying again", error)
                failing = True
            await asyncio.sleep(POLL_SECONDS)

    async def act_on_news(self) -> None:
        """Act on each change the feed has had since the last one acted on, in order.

        The first read starts from the feed's last event: what happened before (a ban
        while no server ran, or while another node led) needs no acting on here, as
        the store answers every later LOGIN by it and a login reads the rest.
        """
        if self._last is None:
            self._last = await self.store.last_event()
        for event in await self.store.events_after(self._last):
            await self.act_on(event)
            self._last = event.number

    async def act_on(self, event: ModerationEvent) -> None:
        """Do what one change (from the wire or from ``c4tui admin``) asks of the running server.

        A ban is acted on only while it holds: one lifted since (the UNBAN is further on
        in the feed) must not close the connection its user has logged in on again.
        """
        await self._log_change(event)
        if event.kind is EventKind.BAN:  # from the wire or not, counted once: here
            if self.counts_bans:
                self.metrics.banned()
            sanctions = await self.store.sanctions(event.user)
            if sanctions is not None and sanctions.banned:
                await self.remove(event.user, ByeReason.BANNED)
        elif event.kind is EventKind.DELETE:  # named folded: its connections' own spelling
            names = [c.member.name for s in self.services for c in s.open if c.member]
            user = await deleted_as(event.user, names, self.store.role)
            await self.remove(user, ByeReason.DELETED)
            self._moderators.discard(user)
            self._muted.pop(user, None)
            self._blocks.forget(user)  # the store erased its blocks both ways
        elif event.kind is EventKind.BLOCKS:  # held as the store keeps them, on every node
            self._blocks.set_of(event.user, await self.store.blocks_of(event.user))
        else:  # a role, a mute, an unban: what the user may do from now on
            await self.refresh(event.user)

    async def _log_change(self, event: ModerationEvent) -> None:
        """Say a moderators' change in the log as their log keeps it: who, what, whom, why.

        The feed names only the account; the act is the newest of its kind on it among
        the last ``ACTS_LOOKED_AT`` (a deletion's is kept under the stand-in: the newest).
        A player's own change of blocks is no moderator's: not said.
        """
        if event.kind is EventKind.BLOCKS:
            return
        acts = await self.store.moderator_actions(ACTS_LOOKED_AT)
        deleting = event.kind is EventKind.DELETE
        act = next(
            (a for a in acts if a.action == event.kind and (deleting or a.target == event.user)),
            None,
        )
        if act is None:
            log.info("moderators' change %d: %s %s", event.number, event.kind, event.user)
            return
        until = f" until {act.until}" if act.until else ""
        why = f": {act.reason}" if act.reason else ""
        log.info(
            "moderators' change %d: %s %s by %s%s%s (%s)",
            *(event.number, event.kind, event.user, act.moderator, until, why, act.when),
        )


async def answer_moderation(
    service: LobbyService[Any, Any],
    connection: LobbyConnection,
    member: Member,
    request: ModerationRequest,
) -> None:
    """Answer one moderator's request, or DELETEACCOUNT; "not a moderator" to anyone else."""
    if isinstance(request, DeleteAccount):
        await _delete_account(service, connection, member, request)
        return
    word = COMMANDS[type(request)]
    if not service.moderation.is_moderator(member.name):
        log.info("%s (%s, no moderator) was refused %s", connection.name, member.name, word)
        connection.offer(ack(word, NOT_A_MODERATOR))
        return
    if isinstance(request, Reports):
        for line in reports_answer(await service.store.open_reports(REPORTS_LISTED)):
            connection.offer(line)
        return
    done = await _moderate(service, member.name, request)
    connection.offer(ack(word, 0 if done else 1))


async def _moderate(
    service: LobbyService[Any, Any], by: str, request: Ban | Unban | Mute | CloseReport
) -> bool:
    """Carry out and log one moderator's action; whether it applied (status 0, else 1)."""
    store, moderation = service.store, service.moderation
    if isinstance(request, Ban):
        until = time.time() + request.hours * HOUR if request.hours else None
        done = await store.ban(request.user, until, request.reason, by)
        how_long = f"for {request.hours} h" if request.hours else "until unbanned"
        did = f"banned {request.user} {how_long} ({request.reason!r})"
        _logged(by, did if done else f"asked to ban {request.user}: no such user")
        if done:
            await moderation.remove(request.user, ByeReason.BANNED)
        return done
    if isinstance(request, Unban):
        done = await store.unban(request.user, by)
        _logged(
            by, f"unbanned {request.user}" if done else f"asked to unban {request.user}: not banned"
        )
        return done
    if isinstance(request, Mute):
        done = await store.mute(request.user, time.time() + request.minutes * MINUTE, by)
        did = f"muted {request.user} for {request.minutes} min"
        _logged(by, did if done else f"asked to mute {request.user}: no such user")
        if done:
            await moderation.refresh(request.user)
        return done
    done = await store.close_report(request.number, by)
    number = request.number
    _logged(
        by,
        f"closed report {number}" if done else f"asked to close report {number}: no such open one",
    )
    return done


def _logged(by: str, what: str) -> None:
    """Say in the log what a moderator did (or why what it asked did nothing)."""
    log.info("moderator %s %s", by, what)


async def _delete_account(
    service: LobbyService[Any, Any],
    connection: LobbyConnection,
    member: Member,
    request: DeleteAccount,
) -> None:
    """DELETEACCOUNT: the password checked (throttled like LOGIN), then the account erased.

    Its game in progress is forfeited first (kept with its name, which the store
    then replaces), the deletion committed before the answer, BYE:deleted after it.
    """
    right = await checked_in_turn(service, connection, member.name, request.password)
    if right not in {LoginResult.OK, LoginResult.BANNED}:
        connection.offer(ack("DELETEACCOUNT", 1))
        return
    user, moderation = member.name, service.moderation
    await moderation.take_out(user)
    await service.store.delete_account(user, user)
    log.info("%s deleted its account, %s", connection.name, user)
    connection.offer(ack("DELETEACCOUNT", 0))
    moderation.close(user, ByeReason.DELETED)
