"""What the lobby's store keeps of §7 as values: sanctions, the change feed, moderators' actions.

The store (``LobbyStore``) answers with these; the running server reads the change
feed (``ModerationEvent``) to act on what ``c4tui admin`` or another node did, and
``c4tui admin`` prints the moderators' actions (``ModeratorAction``). Times are epoch
seconds where the server computes with them (a ban's end), UTC ISO 8601 text where
people read them (an action's time), as ``ReportInfo.when`` is.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from enum import StrEnum


def iso_utc(seconds: float) -> str:
    """``seconds`` since the epoch as UTC ISO 8601 to the second (``2026-12-02T10:00:00Z``)."""
    return datetime.fromtimestamp(seconds, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


@dataclass(frozen=True)
class Sanctions:
    """What holds against an account now: a ban, a mute (an ended one is as none).

    ``banned`` with ``banned_until`` None: until unbanned. ``muted_until`` None: not muted.
    """

    banned: bool
    banned_until: float | None
    ban_reason: str
    muted_until: float | None


#: No ban, no mute.
NO_SANCTIONS = Sanctions(banned=False, banned_until=None, ban_reason="", muted_until=None)


class EventKind(StrEnum):
    """What a change of the feed did to its account (a ``str``: ``kind == "ban"`` holds)."""

    ROLE = "role"
    BAN = "ban"
    UNBAN = "unban"
    MUTE = "mute"
    DELETE = "delete"
    BLOCKS = "blocks"  # whom the account blocks changed: every node's rooms read them again


@dataclass(frozen=True)
class ModerationEvent:
    """One change of the feed, numbered in commit order: a running server reads it and acts.

    ``user`` is the account's name; a deletion's is its folded name (the feed keeps only
    its stand-in, ``deleted-<n>``), which ``deleted_as`` finds the connections' name by.
    What the change made of the account is read from the store.
    """

    number: int
    kind: EventKind
    user: str


@dataclass(frozen=True)
class ModeratorAction:
    """One moderator's act as kept: who did what to whom, why, and when (UTC ISO 8601).

    ``action`` is ``role``, ``ban``, ``unban``, ``mute``, ``close-report`` or ``delete``;
    ``reason`` a ban's reason, the role given, a closed report's number, or empty;
    ``until`` a ban's or a mute's end (None: none, or a ban until unbanned).
    ``c4tui admin``'s moderator is ``admin:<login name>``.
    """

    number: int
    moderator: str
    action: str
    target: str
    reason: str
    until: str | None
    when: str


async def deleted_as(
    folded: str, names: Iterable[str], role: Callable[[str], Awaitable[str | None]]
) -> str:
    """The name logged in as the deleted account whose folded name is ``folded`` (a feed's).

    ``names``: those logged in; ``role``: the store's (None: no such account). Of two
    names that differ in case only (let in before §5.6), the one with no account left;
    ``folded`` itself if none is logged in.
    """
    for name in names:
        if name.lower() == folded and await role(name) is None:
            return name
    return folded
