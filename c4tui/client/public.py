"""Our side of the lobby in public (spec/protocols.md §7), as ``LobbyLink``'s methods.

BLOCK and the rest are answered by their ACKSTATUS alone, but for REPORTS, whose
answer is followed by one REPORTED line per open report: the link's reader hands
those to the asker (``_followed``), never to ``pushed``. A CHAT refused (muted, too
fast) comes unasked, since a delivered chat line is never acknowledged: the link
pushes its ACK, and ``chat_refusal`` reads it. The refusals in words are
``public_words``'.

Every request is first read by our own codec, as the server reads it: one the
server would answer with a bad format (a name against the rules, a text with a
control character — a newline among them, which would smuggle in a second
request) is answered that status here, and never sent.
"""

from __future__ import annotations

import asyncio
from abc import ABC, abstractmethod

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
    UnknownStatus,
    outcome_of,
)
from c4tui.net.errors import NetworkError, ProtocolError
from c4tui.numbers import whole_number
from c4tui.protocols import lobby as wire
from c4tui.protocols.public import ReportInfo, ReportReason

#: Seconds to wait for the REPORTED lines after REPORTS's answer (as for any answer).
FOLLOWERS_TIMEOUT = 30.0


def chat_refusal(message: object) -> ChatRefused | UnknownStatus | None:
    """Why our chat line reached nobody, when ``message`` (a push) is CHAT's ACK; else None."""
    if isinstance(message, wire.Ack) and message.command == "CHAT":
        return outcome_of(ChatRefused, message.status)
    return None


def reports_count(answer: wire.Ack) -> int | None:
    """How many REPORTED lines follow a REPORTS answer (None: it lists none, or is no count)."""
    if answer.command != "REPORTS" or answer.status != 0 or len(answer.extra) != 1:
        return None
    return whole_number(answer.extra[0])


class Public(ABC):
    """BLOCK, UNBLOCK, BLOCKS, REPORT, the moderators' five and DELETEACCOUNT, typed."""

    def _start_public(self) -> None:
        """The reader's side of REPORTS (called once, by the link's ``__init__``)."""
        self._reported: asyncio.Queue[ReportInfo | None] = asyncio.Queue()
        self._reported_due = 0  # REPORTED lines announced and not read yet
        self._listing = asyncio.Lock()  # one REPORTS at a time: its lines are its own
        self._ended_because = ""  # why the reader stopped, once it has

    @abstractmethod
    async def ask(self, line: str) -> wire.Ack:
        """Send a request and wait for its ACKSTATUS (``LobbyLink.ask``)."""

    # ----- the reader's hooks ----------------------------------------------------------

    def _announced(self, answer: wire.Ack) -> None:
        """The reader read ``answer``: count the REPORTED lines a REPORTS answer announces.

        One REPORTS is asked at a time, so any line still waiting then is a stray of an
        asker that gave up (cancelled, timed out): forgotten, never the new asker's.
        """
        if answer.command == "REPORTS" and answer.status == 0:
            while not self._reported.empty():
                self._reported.get_nowait()
            self._reported_due = reports_count(answer) or 0

    def _followed(self, message: object) -> bool:
        """True if ``message`` is a REPORTED line announced, now taken for its asker."""
        if not isinstance(message, ReportInfo) or self._reported_due <= 0:
            return False
        self._reported_due -= 1
        self._reported.put_nowait(message)
        return True

    def _public_ended(self, why: str) -> None:
        """The reader stopped (``why``, in words): an asker waiting for REPORTED lines learns it."""
        self._ended_because = why
        self._reported.put_nowait(None)

    # ----- requests --------------------------------------------------------------------

    async def _checked(self, line: str) -> wire.Ack:
        """``ask``, unless our codec finds a bad format: then its status, and nothing sent."""
        parsed = wire.parse_request(line)
        if not isinstance(parsed, wire.BadFormat):
            return await self.ask(line)
        answer = wire.parse_server_message(parsed.reply)
        if not isinstance(answer, wire.Ack):  # every §7 bad format is an ACKSTATUS
            raise ValueError(f"not an answer: {parsed.reply!r}")
        return answer

    async def block(self, user: str) -> BlockOutcome | UnknownStatus:
        """Hear nothing more from ``user``, and play nothing with it (kept by the server)."""
        return outcome_of(BlockOutcome, (await self._checked(f"BLOCK:{user}")).status)

    async def unblock(self, user: str) -> UnblockOutcome | UnknownStatus:
        """Stop blocking ``user``."""
        return outcome_of(UnblockOutcome, (await self._checked(f"UNBLOCK:{user}")).status)

    async def blocks(self) -> list[str] | None:
        """Whom we block; None if the server refuses to say (one from before §7)."""
        answer = await self.ask("BLOCKS")
        if answer.status != 0:
            return None
        return [name for name in ":".join(answer.extra).split(",") if name]

    async def report(
        self, user: str, reason: ReportReason, text: str
    ) -> ReportOutcome | UnknownStatus:
        """Tell the moderators about ``user``; ``text`` 0-200 characters, by chat's rules."""
        answer = await self._checked(f"REPORT:{user}:{reason.value}:{text}")
        return outcome_of(ReportOutcome, answer.status)

    async def ban(self, user: str, hours: int, reason: str) -> BanOutcome | UnknownStatus:
        """Ban ``user`` for ``hours`` (0: until unbanned), saying why (moderators only)."""
        return outcome_of(BanOutcome, (await self._checked(f"BAN:{user}:{hours}:{reason}")).status)

    async def unban(self, user: str) -> UnbanOutcome | UnknownStatus:
        """Lift ``user``'s ban (moderators only)."""
        return outcome_of(UnbanOutcome, (await self._checked(f"UNBAN:{user}")).status)

    async def mute(self, user: str, minutes: int) -> MuteOutcome | UnknownStatus:
        """Let ``user``'s chat reach nobody for ``minutes`` (1-10080; moderators only)."""
        return outcome_of(MuteOutcome, (await self._checked(f"MUTE:{user}:{minutes}")).status)

    async def reports(self) -> list[ReportInfo] | ReportsRefused | UnknownStatus:
        """The open reports, oldest first (moderators only): the answer, then its lines.

        Raises ProtocolError for an answer without its count, NetworkError when the
        connection goes before the lines came, TimeoutError when they do not come.
        """
        async with self._listing:
            answer = await self.ask("REPORTS")
            if answer.status != 0:
                return outcome_of(ReportsRefused, answer.status)
            count = reports_count(answer)
            if count is None:
                raise ProtocolError(f"REPORTS answered without a count: {answer.extra!r}")
            async with asyncio.timeout(FOLLOWERS_TIMEOUT):
                return [await self._next_reported() for _ in range(count)]

    async def _next_reported(self) -> ReportInfo:
        report = await self._reported.get()
        if report is None:
            self._reported.put_nowait(None)  # for any later asker too
            raise NetworkError(self._ended_because)
        return report

    async def close_report(self, number: int) -> CloseReportOutcome | UnknownStatus:
        """Close the open report ``number`` (moderators only)."""
        answer = await self._checked(f"CLOSEREPORT:{number}")
        return outcome_of(CloseReportOutcome, answer.status)

    async def delete_account(self, password: str) -> DeleteOutcome | UnknownStatus:
        """Erase our account (its password again, to be sure); BYE:deleted follows, and a close."""
        answer = await self._checked(f"DELETEACCOUNT:{password}")
        return outcome_of(DeleteOutcome, answer.status)
