"""The lobby in public (§7) as both front ends carry it out: each request, and what came of it.

The console and the app send the same requests and say the same sentences: a
block done, a report sent, a ban given, or the refusal in ``public_words``' words.
Each function here sends one request and returns a ``Said``; the front end shows
its text (the app marks a refusal as an error). What a person types is checked
by the wire's rules before it goes (``hours_of``, ``minutes_of``, ``text_refused``),
so a typo is explained in words, not answered with a bad format. A REPORTED line's
time is said in this computer's time zone, as My games says a game's start.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

from c4tui.client import public_words, words
from c4tui.client.link import LobbyLink, RoomSummary
from c4tui.client.outcomes import (
    BanOutcome,
    BlockOutcome,
    ChallengeOutcome,
    CloseReportOutcome,
    DeleteOutcome,
    JoinOutcome,
    MuteOutcome,
    Outcome,
    ReportOutcome,
    UnbanOutcome,
    UnblockOutcome,
    UnknownStatus,
)
from c4tui.client.words import Refusals, Voice, closed_because
from c4tui.numbers import number_in_range, whole_number
from c4tui.protocols.presence import ByeReason
from c4tui.protocols.public import (
    MAX_BAN_HOURS,
    MAX_REPORT_TEXT,
    MUTE_MINUTES,
    ReportInfo,
    ReportReason,
    Role,
    valid_text,
)

#: The reasons a report may give, as people read them (in the wire's order).
REASONS = tuple(reason.value for reason in ReportReason)
REASON_WORDS = ", ".join(REASONS[:-1]) + f" or {REASONS[-1]}"
#: What a report's text or a ban's reason may be.
TEXT_RULE = f"at most {MAX_REPORT_TEXT} printable characters"
#: What a ban's hours and a mute's minutes may be.
HOURS_RULE = f"0 (until unbanned) or 1 to {MAX_BAN_HOURS:,}"
_LAST_MINUTE = MUTE_MINUTES.stop - 1
MINUTES_RULE = f"{MUTE_MINUTES.start} to {_LAST_MINUTE} (a week)"
#: The BYE reasons after which the account cannot log in again (§7).
FOR_GOOD = frozenset({ByeReason.BANNED.value, ByeReason.DELETED.value})


@dataclass(frozen=True)
class Said:
    """What came of a request, in a sentence; ``refused``: it was not done."""

    text: str
    refused: bool = False


def _said(
    outcome: Outcome | UnknownStatus,
    done: Outcome,
    refusals: Refusals[Outcome],
    sentence: str,
    voice: Voice,
    **names: str,
) -> Said:
    """``sentence`` when ``outcome`` is ``done``; else the refusal in ``voice``'s words."""
    if outcome is done:
        return Said(sentence)
    return Said(refusals.said(outcome, voice, **names), refused=True)


# ----- a player's requests ----------------------------------------------------------------


def blocked(user: str) -> str:
    """What a block does, said once it is done."""
    return (
        f"You block {user} now: their chat no longer reaches you, and neither of you can "
        "challenge, join or be paired with the other."
    )


def _is_us(link: LobbyLink, user: str) -> bool:
    """Whether ``user`` is our own account (§5.6: names that differ in case are one)."""
    return user.lower() == link.user.lower()


#: Said, without asking the server, to one who would block or report themselves (the
#: wire's answer, "no such user", would say something false of them).
NOT_YOURSELF = {"block": "You cannot block yourself.", "report": "You cannot report yourself."}


async def block(link: LobbyLink, user: str, voice: Voice = Voice.APP) -> Said:
    """BLOCK ``user``."""
    if _is_us(link, user):
        return Said(NOT_YOURSELF["block"], refused=True)
    outcome = await link.block(user)
    return _said(outcome, BlockOutcome.BLOCKED, public_words.BLOCK, blocked(user), voice, user=user)


async def unblock(link: LobbyLink, user: str, voice: Voice = Voice.APP) -> Said:
    """UNBLOCK ``user``."""
    outcome = await link.unblock(user)
    sentence = f"You no longer block {user}."
    return _said(
        outcome, UnblockOutcome.UNBLOCKED, public_words.UNBLOCK, sentence, voice, user=user
    )


async def challenge_refused(link: LobbyLink, user: str, voice: Voice) -> str:
    """CHALLENGE's "no such user" (§7 answers it for a player we block too), in words.

    Only the blocker learns why, from its own BLOCKS: the blocked one is told, as §7
    wants, what it would be told of a user who is not there.
    """
    ours = await link.blocks() or []
    if user.lower() in (name.lower() for name in ours):
        return f"You block {user}: unblock them to challenge them."
    return words.CHALLENGE.said(ChallengeOutcome.NO_SUCH_USER, voice, user=user)


async def join_refused(link: LobbyLink, room: str, voice: Voice) -> str:
    """JOIN's refusal "no such room" (§7 answers it across a block too), in words.

    The blocker sees the blocked one's waiting room, marked (``LobbyLink.rooms``); told
    it does not exist, it would be puzzled: ROOMINFO says who waits there, and our own
    BLOCKS whether we block them. The blocked one never sees that room, and a name it
    types is answered as for a room that is not there.
    """
    summary = RoomSummary.of(room, await link.room_info(room))
    waiter = summary.waiter if summary is not None else ""
    if waiter and waiter.casefold() in {user.casefold() for user in await link.blocks() or ()}:
        return f"You block {waiter}: unblock them to play them."
    return words.JOIN.said(JoinOutcome.NO_SUCH_ROOM, voice)


def blocks_line(users: list[str] | None) -> str:
    """BLOCKS's answer in a sentence (None: a server that keeps no blocks)."""
    if users is None:
        return "This server keeps no blocks."
    if not users:
        return "You block nobody."
    return f"You block {len(users)}: {', '.join(sorted(users, key=str.casefold))}."


async def report(
    link: LobbyLink, user: str, reason: ReportReason, text: str, voice: Voice = Voice.APP
) -> Said:
    """REPORT ``user`` for ``reason``, in ``text``."""
    if _is_us(link, user):
        return Said(NOT_YOURSELF["report"], refused=True)
    outcome = await link.report(user, reason, text)
    sentence = f"You reported {user} ({reason.value}): the moderators will read it."
    return _said(outcome, ReportOutcome.REPORTED, public_words.REPORT, sentence, voice, user=user)


async def delete_account(link: LobbyLink, password: str, voice: Voice = Voice.APP) -> Said:
    """DELETEACCOUNT with ``password`` (BYE:deleted follows a yes, and the server closes)."""
    outcome = await link.delete_account(password)
    return _said(
        outcome, DeleteOutcome.DELETED, public_words.DELETE_ACCOUNT, deleted(link.user), voice
    )


def deleted(user: str) -> str:
    """Said once the account ``user`` is erased."""
    return (
        f"The account {user} is deleted: its password is erased, its finished games stay "
        "under another name, and the name can never be registered again."
    )


def deletion_question(user: str) -> str:
    """Asked before deleting the account ``user``: nothing can bring it back."""
    return (
        f"Delete the account {user} for good? Its password is erased, its finished games "
        "stay under another name, and nobody can register the name again."
    )


# ----- the moderators' requests ---------------------------------------------------------


def for_hours(hours: int) -> str:
    """``for 3 hours``, ``for 1 hour``, or ``until unbanned`` (0)."""
    if hours == 0:
        return "until unbanned"
    return f"for {hours:,} hour{'' if hours == 1 else 's'}"


def for_minutes(minutes: int) -> str:
    """``for 10 minutes``, ``for 1 minute``."""
    return f"for {minutes} minute{'' if minutes == 1 else 's'}"


async def ban(
    link: LobbyLink, user: str, hours: int, reason: str, voice: Voice = Voice.APP
) -> Said:
    """BAN ``user`` for ``hours`` (0: until unbanned), saying why."""
    outcome = await link.ban(user, hours, reason)
    sentence = f"{user} is banned {for_hours(hours)}: their connections are closed."
    return _said(outcome, BanOutcome.BANNED, public_words.BAN, sentence, voice, user=user)


async def unban(link: LobbyLink, user: str, voice: Voice = Voice.APP) -> Said:
    """UNBAN ``user``."""
    outcome = await link.unban(user)
    sentence = f"{user} is no longer banned."
    return _said(outcome, UnbanOutcome.UNBANNED, public_words.UNBAN, sentence, voice, user=user)


async def mute(link: LobbyLink, user: str, minutes: int, voice: Voice = Voice.APP) -> Said:
    """MUTE ``user`` for ``minutes``."""
    outcome = await link.mute(user, minutes)
    sentence = f"{user} is muted {for_minutes(minutes)}: their chat reaches nobody."
    return _said(outcome, MuteOutcome.MUTED, public_words.MUTE, sentence, voice, user=user)


async def close_report(link: LobbyLink, number: int, voice: Voice = Voice.APP) -> Said:
    """CLOSEREPORT ``number``."""
    outcome = await link.close_report(number)
    sentence = f"Report {number} is closed."
    refusals = public_words.CLOSE_REPORT
    return _said(outcome, CloseReportOutcome.CLOSED, refusals, sentence, voice, number=str(number))


def is_moderator(role: str) -> bool:
    """PROFILE's role says a moderator."""
    return role == Role.MODERATOR.value


# ----- what a person types, checked before it goes ---------------------------------------


def reason_of(word: str) -> ReportReason | None:
    """The report reason ``word`` names (any case), or None."""
    lowered = word.lower()
    return next((reason for reason in ReportReason if reason.value == lowered), None)


def text_refused(text: str) -> str | None:
    """Why ``text`` cannot be a report's text or a ban's reason; None when it can."""
    if len(text) > MAX_REPORT_TEXT:
        return f"That text has {len(text)} characters: it may have {MAX_REPORT_TEXT} at most."
    if not valid_text(text):
        return f"That text holds a control character: it may be {TEXT_RULE}."
    return None


def hours_of(text: str) -> int | None:
    """A ban's hours as typed (0: until unbanned); None if not ``HOURS_RULE``'s."""
    return number_in_range(text.strip(), 0, MAX_BAN_HOURS)


def minutes_of(text: str) -> int | None:
    """A mute's minutes as typed; None if not ``MINUTES_RULE``'s."""
    return number_in_range(text.strip(), MUTE_MINUTES.start, _LAST_MINUTE)


def report_number(text: str) -> int | None:
    """A report's number as typed (``12`` or ``#12``); None if it is none."""
    return whole_number(text.strip().removeprefix("#"))


# ----- what the server says -----------------------------------------------------------------


def report_when(report: ReportInfo) -> str:
    """When the report was made, in this computer's time zone: ``2026-12-02 11:00``."""
    made = datetime.strptime(report.when, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=UTC)
    return made.astimezone().strftime("%Y-%m-%d %H:%M")


def sent_away(reason: str | None) -> str | None:
    """Why the server sent us away for good (BYE:banned, BYE:deleted); None for any other."""
    if reason == ByeReason.BANNED.value:
        return f"{closed_because(reason)}: you cannot log in while the ban lasts."
    if reason == ByeReason.DELETED.value:
        return f"{closed_because(reason)}: it cannot log in again."
    return None
