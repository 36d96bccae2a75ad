"""The lobby in public (§7) in words, for the console and the app alike.

Each refusal of BLOCK, REPORT, the moderators' requests, DELETEACCOUNT and a refused CHAT.
Split from ``words`` (one table of words, by concern); the handout's voice has none of
these requests, so its words are empty. A template may name ``{user}`` and ``{number}``
(CLOSEREPORT's). ``words`` keeps LOGIN's banned, REGISTER's too-many and BYE's reasons.
"""

from __future__ import annotations

from c4tui.client.outcomes import (
    BanOutcome,
    BlockOutcome,
    ChatRefused,
    CloseReportOutcome,
    DeleteOutcome,
    MuteOutcome,
    ReportOutcome,
    ReportsRefused,
    UnbanOutcome,
    UnblockOutcome,
)
from c4tui.client.words import Refusals, Words
from c4tui.protocols.public import (
    MAX_BAN_HOURS,
    MAX_BLOCKS,
    MAX_REPORT_TEXT,
    MUTE_MINUTES,
    REPORTS_PER_HOUR,
    ReportReason,
)


def _same(text: str) -> Words:
    """The same words for the console and the app (the handout has none of §7)."""
    return Words(text, "", text)


_NO_SUCH_USER = _same("There is no user {user}.")
_NOT_A_MODERATOR = _same("Only moderators may do that.")
_UNKNOWN = _same("Refused ({status}).")
_REASONS = ", ".join(reason.value for reason in ReportReason)
_LAST_MUTE = MUTE_MINUTES.stop - 1

BLOCK = Refusals[BlockOutcome](
    {
        BlockOutcome.NO_SUCH_USER: _NO_SUCH_USER,
        BlockOutcome.TOO_MANY: _same(
            f"You have blocked {MAX_BLOCKS} players already: unblock one first."
        ),
    },
    unknown=_UNKNOWN,
)
UNBLOCK = Refusals[UnblockOutcome](
    {UnblockOutcome.NOT_BLOCKED: _same("You do not block {user}.")}, unknown=_UNKNOWN
)
REPORT = Refusals[ReportOutcome](
    {
        ReportOutcome.NO_SUCH_USER: _NO_SUCH_USER,
        ReportOutcome.BAD_FORMAT: _same(
            f"A report's reason is one of {_REASONS}, and its text at most "
            f"{MAX_REPORT_TEXT} printable characters."
        ),
        ReportOutcome.TOO_MANY: _same(
            f"You have sent {REPORTS_PER_HOUR} reports in the last hour: try again later."
        ),
    },
    unknown=_UNKNOWN,
)
BAN = Refusals[BanOutcome](
    {
        BanOutcome.NO_SUCH_USER: _NO_SUCH_USER,
        BanOutcome.NOT_A_MODERATOR: _NOT_A_MODERATOR,
        BanOutcome.BAD_FORMAT: _same(
            f"A ban lasts 0 (until unbanned) to {MAX_BAN_HOURS:,} hours, and its reason is at "
            f"most {MAX_REPORT_TEXT} printable characters."
        ),
    },
    unknown=_UNKNOWN,
)
UNBAN = Refusals[UnbanOutcome](
    {
        UnbanOutcome.NOT_BANNED: _same("{user} is not banned."),
        UnbanOutcome.NOT_A_MODERATOR: _NOT_A_MODERATOR,
    },
    unknown=_UNKNOWN,
)
MUTE = Refusals[MuteOutcome](
    {
        MuteOutcome.NO_SUCH_USER: _NO_SUCH_USER,
        MuteOutcome.NOT_A_MODERATOR: _NOT_A_MODERATOR,
        MuteOutcome.BAD_FORMAT: _same(f"A mute lasts 1 to {_LAST_MUTE} minutes (a week)."),
    },
    unknown=_UNKNOWN,
)
REPORTS = Refusals[ReportsRefused](
    {
        ReportsRefused.BAD_FORMAT: _same("The server did not understand that."),
        ReportsRefused.NOT_A_MODERATOR: _NOT_A_MODERATOR,
    },
    unknown=_UNKNOWN,
)
CLOSE_REPORT = Refusals[CloseReportOutcome](
    {
        CloseReportOutcome.NO_SUCH_REPORT: _same("There is no open report {number}."),
        CloseReportOutcome.NOT_A_MODERATOR: _NOT_A_MODERATOR,
    },
    unknown=_UNKNOWN,
)
DELETE_ACCOUNT = Refusals[DeleteOutcome](
    {DeleteOutcome.WRONG_PASSWORD: _same("Wrong password: the account is kept.")},
    unknown=_UNKNOWN,
)
#: A chat line of ours that reached nobody (pushed: ``client.public.chat_refusal``).
CHAT = Refusals[ChatRefused](
    {
        ChatRefused.MUTED: _same(
            "A moderator has muted you: your chat reaches nobody until the mute ends."
        ),
        ChatRefused.TOO_FAST: _same(
            "You are sending chat too fast: wait a few seconds (that line was not sent)."
        ),
    },
    unknown=_same("Your chat line was refused ({status})."),
)
