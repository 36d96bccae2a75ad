"""``console --lobby`` in public (spec §7): blocks, reports, deleting the account, moderating.

Typed at ``lobby>``: ``block USER``, ``unblock USER``, ``blocks``, ``report USER
REASON TEXT…`` and ``delete-account`` (the password without echo, then a
question); a moderator's ``ban``, ``unban``, ``mute``, ``reports`` (a table of the
open ones) and ``close-report``. In a game, ``block`` and ``report REASON TEXT``
are about the opponent. What a person types is checked by the wire's rules first
(``client.in_public``): a typo is explained and the prompt comes back, nothing is
sent. Every answer is said in the sentences the app says too.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from c4tui.client import in_public
from c4tui.client.in_public import HOURS_RULE, MINUTES_RULE, REASON_WORDS, TEXT_RULE
from c4tui.client.link import LobbyLink
from c4tui.client.outcomes import ReportsRefused, UnknownStatus
from c4tui.client.public_words import REPORTS
from c4tui.client.words import Voice
from c4tui.console.lines import printable
from c4tui.console.typed import user_refused
from c4tui.protocols.public import ReportInfo, ReportReason

Say = Callable[[str], None]
#: Reads a secret after its prompt (without echo at a terminal).
Secret = Callable[[str], Awaitable[str]]
#: Reads a line after its prompt.
Ask = Callable[[str], Awaitable[str]]

HELP = f"""\
  block USER, unblock USER       block a player (their chat no longer reaches you; neither
                                 of you can challenge, join or be paired with the other)
  blocks                         whom you block
  report USER REASON TEXT        tell the moderators about USER (REASON: chat, cheating,
                                 name or other; TEXT {TEXT_RULE})
  delete-account                 erase your account for good (asks your password first)"""
MODERATOR_HELP = """Moderators:
  ban USER HOURS REASON          close USER's connections and refuse its logins for HOURS
                                 (0: until unbanned); REASON is kept with the ban
  unban USER                     lift USER's ban
  mute USER MINUTES              let USER's chat reach nobody for 1-10080 minutes (a week)
  reports, close-report N        the open reports (oldest first); close report N"""
#: What ``help`` says of these words in a game (a viewer names the player).
IN_GAME_HELP = (
    "  block blocks the opponent (their chat no longer reaches you); report REASON TEXT\n"
    f"  tells the moderators about them (REASON: {REASON_WORDS})."
)
REPORT_USAGE = f"Usage: report USER REASON TEXT (REASON: {REASON_WORDS})"
BAN_USAGE = f"Usage: ban USER HOURS REASON (HOURS: {HOURS_RULE})"
MUTE_USAGE = f"Usage: mute USER MINUTES (MINUTES: {MINUTES_RULE})"
CLOSE_USAGE = "Usage: close-report N (N: a report's number, as reports lists them)"
#: Typed at ``delete-account``'s question to go on.
DELETE_WORD = "delete"


def _named(rest: str, usage: str, say: Say) -> str | None:
    """The one user named in ``rest``; None (having said why) when there is none, or no such."""
    if not rest or " " in rest:
        say(usage)
        return None
    refusal = user_refused(rest)
    if refusal is not None:
        say(refusal)
        return None
    return rest


async def block(link: LobbyLink, rest: str, say: Say) -> None:
    """``block USER``."""
    user = _named(rest, "Usage: block USER", say)
    if user is not None:
        say((await in_public.block(link, user, Voice.CONSOLE)).text)


async def unblock(link: LobbyLink, rest: str, say: Say) -> None:
    """``unblock USER``."""
    user = _named(rest, "Usage: unblock USER", say)
    if user is not None:
        say((await in_public.unblock(link, user, Voice.CONSOLE)).text)


async def blocks(link: LobbyLink, say: Say) -> None:
    """``blocks``: whom we block, in a sentence."""
    say(in_public.blocks_line(await link.blocks()))


def parse_report(rest: str, opponent: str | None = None) -> tuple[str, ReportReason, str] | None:
    """``USER REASON TEXT`` (with an ``opponent``, ``REASON TEXT`` is about them); None if wrong."""
    first, _, after = rest.strip().partition(" ")
    if opponent is not None and (reason := in_public.reason_of(first)) is not None:
        return opponent, reason, after.strip()
    second, _, text = after.strip().partition(" ")
    reason = in_public.reason_of(second)
    return None if not first or reason is None else (first, reason, text.strip())


async def report(link: LobbyLink, rest: str, say: Say, opponent: str | None = None) -> None:
    """``report USER REASON TEXT…`` (in a game, ``report REASON TEXT…`` names the opponent)."""
    parsed = parse_report(rest, opponent)
    if parsed is None:
        say(REPORT_USAGE)
        return
    user, reason, text = parsed
    refusal = user_refused(user) or in_public.text_refused(text)
    if refusal is not None:
        say(refusal)
        return
    say((await in_public.report(link, user, reason, text, Voice.CONSOLE)).text)


async def delete_account(link: LobbyLink, secret: Secret, ask: Ask, say: Say) -> bool:
    """``delete-account``: the password, then the question; True once the account is gone."""
    password = await secret(f"Password of {link.user}: ")
    answer = await ask(f"{in_public.deletion_question(link.user)} Type {DELETE_WORD} to go on: ")
    if answer.strip().lower() != DELETE_WORD:
        say("Not deleted: the account is kept.")
        return False
    said = await in_public.delete_account(link, password, Voice.CONSOLE)
    say(said.text)
    return not said.refused


# ----- the moderators' requests -------------------------------------------------------------


async def ban(link: LobbyLink, rest: str, say: Say) -> None:
    """``ban USER HOURS REASON…``."""
    user, _, after = rest.partition(" ")
    typed_hours, _, reason = after.strip().partition(" ")
    hours = in_public.hours_of(typed_hours)
    if not user or hours is None:
        say(BAN_USAGE)
        return
    refusal = user_refused(user) or in_public.text_refused(reason.strip())
    if refusal is not None:
        say(refusal)
        return
    say((await in_public.ban(link, user, hours, reason.strip(), Voice.CONSOLE)).text)


async def unban(link: LobbyLink, rest: str, say: Say) -> None:
    """``unban USER``."""
    user = _named(rest, "Usage: unban USER", say)
    if user is not None:
        say((await in_public.unban(link, user, Voice.CONSOLE)).text)


async def mute(link: LobbyLink, rest: str, say: Say) -> None:
    """``mute USER MINUTES``."""
    user, _, typed = rest.partition(" ")
    minutes = in_public.minutes_of(typed)
    if not user or minutes is None:
        say(MUTE_USAGE)
        return
    refusal = user_refused(user)
    if refusal is not None:
        say(refusal)
        return
    say((await in_public.mute(link, user, minutes, Voice.CONSOLE)).text)


async def reports(link: LobbyLink, say: Say) -> None:
    """``reports``: the open reports as a table, oldest first."""
    listed = await link.reports()
    if isinstance(listed, ReportsRefused | UnknownStatus):
        say(REPORTS.said(listed, Voice.CONSOLE))
        return
    if not listed:
        say("No open reports.")
        return
    counted = "1 open report" if len(listed) == 1 else f"{len(listed)} open reports"
    say(f"{counted}, oldest first (close-report N closes one):")
    for line in report_table(listed):
        say(line)


async def close_report(link: LobbyLink, rest: str, say: Say) -> None:
    """``close-report N``."""
    number = in_public.report_number(rest)
    if number is None:
        say(CLOSE_USAGE)
        return
    say((await in_public.close_report(link, number, Voice.CONSOLE)).text)


#: The table's columns: their headings.
_HEADINGS = ("N", "When", "Reporter", "Reported", "Reason", "Game", "Text")


def report_table(listed: list[ReportInfo]) -> list[str]:
    """The reports in aligned columns under their headings, the text last (unclipped)."""
    rows = [_HEADINGS] + [
        (
            str(one.number),
            in_public.report_when(one),
            one.reporter,
            one.reported,
            one.reason.value,
            "-" if one.game is None else str(one.game),
            printable(one.text) or "-",
        )
        for one in listed
    ]
    widths = [max(len(row[column]) for row in rows) for column in range(len(_HEADINGS) - 1)]
    return [
        "  ".join([*(cell.ljust(width) for cell, width in zip(row, widths, strict=False)), row[-1]])
        for row in rows
    ]


# ----- in a game ------------------------------------------------------------------------


async def in_game(link: LobbyLink, line: str, opponent: str | None, say: Say) -> bool:
    """``block``, ``report REASON TEXT`` or a moderator's word typed in a room; False if none.

    A moderator's ``ban``, ``unban`` and ``mute`` name their user there too. A player's
    words are about the opponent unless a user is named; a viewer (``opponent`` None)
    names the player, as at ``lobby>``.
    """
    word, _, rest = line.partition(" ")
    rest = rest.strip()
    if word == "block":
        await block(link, rest or opponent or "", say)
    elif word == "unblock":
        await unblock(link, rest or opponent or "", say)
    elif word == "report":
        await report(link, rest, say, opponent)
    elif word in _MODERATING:  # a moderator watching (or playing) acts where it sees
        await _MODERATING[word](link, rest, say)
    else:
        return False
    return True


#: A moderator's words that name their user, typed in a room as at ``lobby>``.
_MODERATING: dict[str, Callable[[LobbyLink, str, Say], Awaitable[None]]] = {
    "ban": ban,
    "unban": unban,
    "mute": mute,
}
