"""The link's §7 requests against a scripted lobby server on 127.0.0.1 (a real socket).

The server side of §7 is written alongside; this server answers each line by a
script, so every status (and what a hostile server might send) can be played.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, Sequence
from contextlib import asynccontextmanager

import pytest

from c4tui.client import public_words, words
from c4tui.client.comeback import worth_coming_back
from c4tui.client.link import LobbyLink
from c4tui.client.outcomes import (
    BanOutcome,
    BlockOutcome,
    ChatRefused,
    CloseReportOutcome,
    DeleteOutcome,
    LoginOutcome,
    MuteOutcome,
    RegisterOutcome,
    ReportOutcome,
    ReportsRefused,
    UnbanOutcome,
    UnblockOutcome,
    UnknownStatus,
)
from c4tui.client.public import chat_refusal
from c4tui.client.room_game import RoomGame
from c4tui.engine import GameState
from c4tui.net.errors import NetworkError, ProtocolError
from c4tui.protocols import lobby as wire
from c4tui.protocols.public import ReportInfo, ReportReason, reported

#: What the server says to each line it reads (nothing for a line not in the script);
#: a None among the lines closes the connection there.
Script = Mapping[str, Sequence[str | None]]
WHEN = "2026-12-02T10:00:00Z"
FIRST = ReportInfo(7, "ann", "bob", ReportReason.CHAT, WHEN, 42, "said: rude things")
SECOND = ReportInfo(8, "cid", "deleted-3", ReportReason.NAME, WHEN, None, "né 🙂")


class ScriptedLobby:
    """A lobby server that answers by a script and keeps every line it read."""

    def __init__(self, script: Script) -> None:
        self.script = script
        self.received: list[str] = []
        self.read_all = asyncio.Event()  # set when the client hangs up

    async def handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while line := await reader.readline():
                self.received.append(line.decode().rstrip("\n"))
                for answer in self.script.get(self.received[-1], ()):
                    if answer is None:
                        return
                    writer.write(answer.encode() + b"\n")  # one write each, as the server does
                    await writer.drain()
        finally:
            self.read_all.set()
            writer.close()


@asynccontextmanager
async def linked(script: Script) -> AsyncIterator[tuple[LobbyLink, ScriptedLobby]]:
    """A link connected to a scripted server (nothing logged in: the script decides)."""
    lobby = ScriptedLobby(script)
    server = await asyncio.start_server(lobby.handle, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    link = await LobbyLink.open("127.0.0.1", port)
    try:
        yield link, lobby
    finally:
        await link.close()
        server.close()


Ask = Callable[[LobbyLink], Awaitable[object]]


@pytest.mark.parametrize(
    ("line", "ask", "outcomes"),
    [
        ("BLOCK:bob", lambda link: link.block("bob"), list(BlockOutcome)),
        ("UNBLOCK:bob", lambda link: link.unblock("bob"), list(UnblockOutcome)),
        (
            "REPORT:bob:cheating:pops: always",
            lambda link: link.report("bob", ReportReason.CHEATING, "pops: always"),
            list(ReportOutcome),
        ),
        ("BAN:bob:0:spam", lambda link: link.ban("bob", 0, "spam"), list(BanOutcome)),
        ("UNBAN:bob", lambda link: link.unban("bob"), list(UnbanOutcome)),
        ("MUTE:bob:60", lambda link: link.mute("bob", 60), list(MuteOutcome)),
        ("CLOSEREPORT:7", lambda link: link.close_report(7), list(CloseReportOutcome)),
        ("DELETEACCOUNT:pa:ss", lambda link: link.delete_account("pa:ss"), list(DeleteOutcome)),
    ],
)
async def test_every_status_is_its_outcome(line: str, ask: Ask, outcomes: list[object]) -> None:
    command = line.partition(":")[0]
    for outcome in [*outcomes, UnknownStatus(9)]:
        status = outcome.status if isinstance(outcome, UnknownStatus) else outcome.value
        async with linked({line: [f"{command}:ACKSTATUS:{status}"]}) as (link, lobby):
            assert await ask(link) == outcome
            assert lobby.received == [line]


async def test_blocks_lists_the_names_and_none_is_an_empty_list() -> None:
    async with linked({"BLOCKS": ["BLOCKS:ACKSTATUS:0:ann,bob"]}) as (link, _):
        assert await link.blocks() == ["ann", "bob"]
    async with linked({"BLOCKS": ["BLOCKS:ACKSTATUS:0:"]}) as (link, _):
        assert await link.blocks() == []
    async with linked({"BLOCKS": ["BLOCKS:ACKSTATUS:1"]}) as (link, _):
        assert await link.blocks() is None


async def test_reports_reads_its_lines_and_every_push_stays_a_push() -> None:
    answer = [
        "CHAT:ann:before the answer",
        "REPORTS:ACKSTATUS:0:2",
        reported(FIRST),
        "DRAWOFFER:ann",  # a push between the lines (a server that interleaves)
        reported(SECOND),
        "CHAT:ann:after",
    ]
    async with linked({"REPORTS": answer}) as (link, _):
        assert await link.reports() == [FIRST, SECOND]
        pushed = [await link.pushed() for _ in range(3)]
        assert pushed == [
            wire.ChatLine("ann", "before the answer"),
            wire.parse_server_message("DRAWOFFER:ann"),
            wire.ChatLine("ann", "after"),
        ]


async def test_reports_twice_at_once_each_gets_its_own_lines() -> None:
    script = {"REPORTS": ["REPORTS:ACKSTATUS:0:2", reported(FIRST), reported(SECOND)]}
    async with linked(script) as (link, lobby):
        first, second = await asyncio.gather(link.reports(), link.reports())
        assert first == second == [FIRST, SECOND]
        assert lobby.received == ["REPORTS", "REPORTS"]


async def test_no_open_report_and_the_refusals() -> None:
    async with linked({"REPORTS": ["REPORTS:ACKSTATUS:0:0", "CHAT:ann:hi"]}) as (link, _):
        assert await link.reports() == []
        assert await link.pushed() == wire.ChatLine("ann", "hi")
    async with linked({"REPORTS": ["REPORTS:ACKSTATUS:2"]}) as (link, _):
        assert await link.reports() is ReportsRefused.NOT_A_MODERATOR
        said = public_words.REPORTS.said(ReportsRefused.NOT_A_MODERATOR, words.Voice.APP)
        assert said == "Only moderators may do that."


async def test_a_server_that_closes_before_the_lines_came_is_a_network_error() -> None:
    script = {"REPORTS": ["REPORTS:ACKSTATUS:0:3", reported(FIRST), None]}
    async with linked(script) as (link, _):
        with pytest.raises(NetworkError):
            await link.reports()


async def test_a_count_that_is_no_number_is_a_protocol_error() -> None:
    async with linked({"REPORTS": ["REPORTS:ACKSTATUS:0:many"]}) as (link, _):
        with pytest.raises(ProtocolError, match="without a count"):
            await link.reports()


async def test_a_hostile_reported_line_never_reaches_the_asker() -> None:
    """An escape sequence in a report's text breaks the protocol: the link breaks off."""
    script = {"REPORTS": ["REPORTS:ACKSTATUS:0:1", f"{reported(FIRST)}\x1b[2J"]}
    async with linked(script) as (link, _):
        with pytest.raises(NetworkError, match="broke off"):
            await link.reports()


@pytest.mark.parametrize(
    ("ask", "answer"),
    [
        (lambda link: link.block("bob\nBAN:cid:0:"), BlockOutcome.NO_SUCH_USER),
        (lambda link: link.unblock("bob:cid"), UnblockOutcome.NOT_BLOCKED),
        (
            lambda link: link.report("bob", ReportReason.CHAT, "x\nDELETEACCOUNT:pw"),
            ReportOutcome.BAD_FORMAT,
        ),
        (lambda link: link.report("bob", ReportReason.CHAT, "x" * 201), ReportOutcome.BAD_FORMAT),
        (lambda link: link.ban("bob", -1, "x"), BanOutcome.BAD_FORMAT),
        (lambda link: link.ban("bob", 1, "\x1b[2J"), BanOutcome.BAD_FORMAT),
        (lambda link: link.mute("bob", 0), MuteOutcome.BAD_FORMAT),
        (lambda link: link.mute("bob", 10081), MuteOutcome.BAD_FORMAT),
        (lambda link: link.close_report(-1), CloseReportOutcome.NO_SUCH_REPORT),
        (lambda link: link.delete_account("pw\nBLOCKS"), DeleteOutcome.WRONG_PASSWORD),
    ],
)
async def test_what_the_server_would_refuse_is_never_sent(ask: Ask, answer: object) -> None:
    """A newline in an argument would be a second request: the codec refuses it first."""
    async with linked({"PLAYERS": ["PLAYERS:ACKSTATUS:0:"]}) as (link, lobby):
        assert await ask(link) == answer
        await link.players()  # the server has read everything sent before it
        assert lobby.received == ["PLAYERS"]


async def test_a_refused_chat_line_is_pushed_and_said() -> None:
    script = {"CHAT:hi": ["CHAT:ACKSTATUS:1"], "CHAT:hey": ["CHAT:ACKSTATUS:2"]}
    async with linked(script) as (link, _):
        await link.send("CHAT:hi")
        await link.send("CHAT:hey")
        muted, too_fast = await link.pushed(), await link.pushed()
        assert chat_refusal(muted) is ChatRefused.MUTED
        assert chat_refusal(too_fast) is ChatRefused.TOO_FAST
        assert chat_refusal(wire.ChatLine("ann", "hi")) is None
        said = public_words.CHAT.said(ChatRefused.TOO_FAST, words.Voice.CONSOLE)
        assert said.startswith("You are sending chat too fast: wait a few seconds")
        assert public_words.CHAT.said(ChatRefused.MUTED, words.Voice.APP).startswith(
            "A moderator has muted you"
        )


async def test_a_room_game_says_a_refused_chat_line() -> None:
    async with linked({"CHAT:hi": ["CHAT:ACKSTATUS:1"]}) as (link, _):
        game = RoomGame(link, "ann", "bob", GameState.new())
        said: asyncio.Queue[str] = asyncio.Queue()
        game.on_presence = said.put_nowait
        try:
            await link.send("CHAT:hi")
            assert (await said.get()).startswith("A moderator has muted you")
        finally:
            await game.close()


async def test_bye_banned_says_why_and_the_link_does_not_come_back() -> None:
    async with linked({"LOGIN:mallory:pw": ["LOGIN:ACKSTATUS:0", "BYE:banned", None]}) as (
        link,
        _,
    ):
        assert await link.login("mallory", "pw") is LoginOutcome.LOGGED_IN
        why = await link.gone()
        assert why == "A moderator banned this account."
        assert not worth_coming_back(link)
        assert words.connection_went(why) == "A moderator banned this account."


async def test_delete_account_then_bye_deleted() -> None:
    script = {"DELETEACCOUNT:s3cret": ["DELETEACCOUNT:ACKSTATUS:0", "BYE:deleted", None]}
    async with linked(script) as (link, _):
        assert await link.delete_account("s3cret") is DeleteOutcome.DELETED
        assert await link.gone() == "This account was deleted."
        assert not worth_coming_back(link)
        with pytest.raises(NetworkError, match="deleted"):
            await link.blocks()


async def test_a_banned_login_and_too_many_registrations() -> None:
    script = {
        "LOGIN:mallory:pw": ["LOGIN:ACKSTATUS:4"],
        "REGISTER:zed:pw": ["REGISTER:ACKSTATUS:3"],
    }
    async with linked(script) as (link, _):
        banned = await link.login("mallory", "pw")
        assert banned is LoginOutcome.BANNED and link.user == ""
        assert words.LOGIN.said(banned, words.Voice.APP) == "That account is banned."
        too_many = await link.register("zed", "pw")
        assert too_many is RegisterOutcome.TOO_MANY_FROM_HERE
        assert words.REGISTER.said(too_many, words.Voice.CONSOLE) == (
            "Too many accounts were registered from your address in the last hour; try again later."
        )


async def test_profile_gives_the_role_and_an_old_server_means_player() -> None:
    script = {
        "PROFILE:mod": ["PROFILE:ACKSTATUS:0:mod:1500:350:0:0:0:0:0:moderator"],
        "PROFILE:old": ["PROFILE:ACKSTATUS:0:old:1500:350:0:0:0:0:0"],
    }
    async with linked(script) as (link, _):
        mod, old = await link.profile("mod"), await link.profile("old")
        assert mod is not None and mod.role == "moderator"
        assert old is not None and old.role == "player"


@pytest.mark.parametrize(
    ("table", "outcome", "words_said"),
    [
        (public_words.BLOCK, BlockOutcome.TOO_MANY, "You have blocked 200 players already"),
        (public_words.BLOCK, BlockOutcome.NO_SUCH_USER, "There is no user bob"),
        (public_words.REPORT, ReportOutcome.TOO_MANY, "You have sent 10 reports in the last hour"),
        (public_words.MUTE, MuteOutcome.BAD_FORMAT, "A mute lasts 1 to 10080 minutes"),
        (public_words.UNBAN, UnbanOutcome.NOT_BANNED, "bob is not banned"),
        (public_words.CLOSE_REPORT, CloseReportOutcome.NO_SUCH_REPORT, "no open report 7"),
        (public_words.DELETE_ACCOUNT, DeleteOutcome.WRONG_PASSWORD, "Wrong password"),
        (public_words.BAN, UnknownStatus(9), "Refused (9)"),
    ],
)
def test_each_refusal_has_its_words(table: object, outcome: object, words_said: str) -> None:
    assert isinstance(table, words.Refusals)
    for voice in (words.Voice.APP, words.Voice.CONSOLE):
        assert words_said in table.said(outcome, voice, user="bob", number="7")


def test_every_refusal_of_every_request_has_words() -> None:
    tables = [
        (public_words.BLOCK, BlockOutcome),
        (public_words.UNBLOCK, UnblockOutcome),
        (public_words.REPORT, ReportOutcome),
        (public_words.BAN, BanOutcome),
        (public_words.UNBAN, UnbanOutcome),
        (public_words.MUTE, MuteOutcome),
        (public_words.REPORTS, ReportsRefused),
        (public_words.CLOSE_REPORT, CloseReportOutcome),
        (public_words.DELETE_ACCOUNT, DeleteOutcome),
        (public_words.CHAT, ChatRefused),
    ]
    for table, kind in tables:
        refusals = {outcome for outcome in kind if outcome.value != 0 or kind is ChatRefused}
        assert set(table.known) == refusals, kind
