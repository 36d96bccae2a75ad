"""§7's moderators and account deletion over real sockets, on a real server and store.

Golden exchanges of every BAN, UNBAN, MUTE, REPORTS, CLOSEREPORT and DELETEACCOUNT
status (``ann> LINE`` is sent by ann, ``ann< LINE`` the next line ann reads); a ban
in the middle of a game (the banned hears BYE:banned, the game is kept as a forfeit,
LOGIN answers :4, the leaderboard leaves it out, an unban lets it back); a player
who is no moderator trying every moderator's request (nothing happens); deleting an
account (the password throttled like LOGIN, the name never registered again, its
games kept under ``deleted-<n>``).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Sequence
from pathlib import Path

import pytest

from c4tui.engine import Move
from c4tui.lobby.journal import GameEvent
from c4tui.lobby.kinds import ConnectFourSettings
from c4tui.protocols.public import ReportReason
from c4tui.server.core import C4Server
from tests.net.lobby_client import LobbyClient, lobby_server, logged_in
from tests.net.stores import run_sql
from tests.net.test_lobby_table_talk import EMPTY, bottom, exchange, played, table
from tests.net.test_tictactoe_server import playing as tictactoe_playing
from tests.net.test_tictactoe_server import port_of
from tests.net.tictactoe_client import TicTacToeClient, tictactoe_server

#: When the report in the golden exchange was made: 2026-12-02T10:00:00Z.
REPORTED_AT = 1_796_205_600.0


async def moderator(server: C4Server, name: str = "mod") -> LobbyClient:
    """A client logged in as ``name``, given the moderator's role before its login."""
    client = await LobbyClient.connect(server.port)
    assert await client.ask(f"REGISTER:{name}:pw") == "REGISTER:ACKSTATUS:0"
    assert await server.lobby.store.set_role(name, "moderator", "test")
    assert await client.ask(f"LOGIN:{name}:pw") == "LOGIN:ACKSTATUS:0"
    return client


async def gone(client: LobbyClient, reason: str) -> None:
    """``client`` hears BYE:<reason> as its last line, and the connection closes."""
    assert await client.line() == f"BYE:{reason}"
    assert await client.closed()


async def test_every_moderator_status_golden(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, "c4tui.server")
    async with lobby_server(tmp_path) as server:
        mod = await moderator(server)
        clients = {"mod": mod, "ann": await logged_in(server.port, "ann")}
        clients["bob"] = await logged_in(server.port, "bob")
        store = server.lobby.store
        assert await store.report("bob", "ann", ReportReason.CHAT, "rude: very", REPORTED_AT) == 0
        await exchange(
            clients,
            """
            ann> PROFILE:mod
            ann< PROFILE:ACKSTATUS:0:mod:1500:350:0:0:0:0:0:moderator
            mod> PROFILE:ann
            mod< PROFILE:ACKSTATUS:0:ann:1500:350:0:0:0:0:0
            mod> BAN:nobody:1:spam
            mod< BAN:ACKSTATUS:1
            mod> BAN:ann:x:spam
            mod< BAN:ACKSTATUS:3
            mod> BAN:ann:1
            mod< BAN:ACKSTATUS:3
            mod> UNBAN:ann
            mod< UNBAN:ACKSTATUS:1
            mod> UNBAN:no one
            mod< UNBAN:ACKSTATUS:1
            mod> MUTE:nobody:5
            mod< MUTE:ACKSTATUS:1
            mod> MUTE:ann:0
            mod< MUTE:ACKSTATUS:3
            mod> MUTE:ann:10081
            mod< MUTE:ACKSTATUS:3
            mod> REPORTS
            mod< REPORTS:ACKSTATUS:0:1
            mod< REPORTED:1:bob:ann:chat:2026-12-02T10:00:00Z::rude: very
            mod> CLOSEREPORT:1
            mod< CLOSEREPORT:ACKSTATUS:0
            mod> CLOSEREPORT:1
            mod< CLOSEREPORT:ACKSTATUS:1
            mod> CLOSEREPORT:x
            mod< CLOSEREPORT:ACKSTATUS:1
            mod> REPORTS
            mod< REPORTS:ACKSTATUS:0:0
            mod> MUTE:ann:10080
            mod< MUTE:ACKSTATUS:0
            ann> CHAT:anyone?
            ann< CHAT:ACKSTATUS:1
            ann> CREATE:r1:4:4:classic
            ann< CREATE:ACKSTATUS:0
            bob> JOIN:r1:VIEWER
            bob< JOIN:ACKSTATUS:0
            ann> CHAT:hello
            ann< CHAT:ACKSTATUS:1
            bob> CHAT:hi ann
            bob< CHAT:bob:hi ann
            ann< CHAT:bob:hi ann
            mod> BAN:ann:0:cheating again
            mod< BAN:ACKSTATUS:0
            ann< BYE:banned
            mod> UNBAN:ann
            mod< UNBAN:ACKSTATUS:0
            mod> UNBAN:ann
            mod< UNBAN:ACKSTATUS:1
            """,
        )
        assert await clients["bob"].quiet()  # ann's muted line reached nobody
        assert await clients["ann"].closed()
        actions = [(a.moderator, a.action, a.target) for a in await store.moderator_actions(20)]
        assert actions == [  # newest first, each kept
            ("mod", "unban", "ann"),
            ("mod", "ban", "ann"),
            ("mod", "mute", "ann"),
            ("mod", "close-report", "ann"),
            ("test", "role", "mod"),
        ]
        said = caplog.text
        for words in ("mod muted ann", "mod banned ann", "mod unbanned ann", "closed report 1"):
            assert words in said, words


async def test_a_ban_mid_game_forfeits_it_kept_then_closes_and_locks_out(
    tmp_path: Path,
) -> None:
    async with lobby_server(tmp_path) as server:
        clients = await table(server.port)
        clients["mod"] = await moderator(server)
        run_sql(
            str(tmp_path / "accounts.sqlite3"),
            "UPDATE accounts SET rating = ?, deviation = 50, rated_games = 20 WHERE name = ?",
            [(1700.0, "bob"), (1600.0, "ann")],
        )
        assert await clients["vic"].ask("LEADERBOARD") == (
            "LEADERBOARD:ACKSTATUS:0:bob=1700,ann=1600"
        )
        one = bottom("1000")
        await exchange(
            clients,
            f"""
            {played("ann", "DROP:1", one)}
            mod> BAN:bob:2:cheating
            ann< GAMEEND:{one}:2:ann
            bob< GAMEEND:{one}:2:ann
            vic< GAMEEND:{one}:2:ann
            bob< BYE:banned
            mod< BAN:ACKSTATUS:0
            """,
        )
        assert await clients["bob"].closed()
        ann, vic = clients["ann"], clients["vic"]
        history = await ann.ask("HISTORY")
        game = history.rsplit(":", 1)[1]
        assert (await ann.ask(f"GAME:{game}")).startswith(
            f"GAME:ACKSTATUS:0:{game}:ann:bob:4:4:classic:ann:forfeit:d1:"
        )
        assert await vic.ask("LEADERBOARD") == "LEADERBOARD:ACKSTATUS:0:ann=1600"
        again = await LobbyClient.connect(server.port)
        assert await again.ask("LOGIN:bob:wrong") == "LOGIN:ACKSTATUS:2"  # only a right one hears
        assert await again.ask("LOGIN:bob:pw") == "LOGIN:ACKSTATUS:4"
        assert await clients["mod"].ask("UNBAN:bob") == "UNBAN:ACKSTATUS:0"
        assert await again.ask("LOGIN:bob:pw") == "LOGIN:ACKSTATUS:0"
        assert await vic.ask("LEADERBOARD") == "LEADERBOARD:ACKSTATUS:0:bob=1700,ann=1600"


async def test_a_ban_reaches_a_player_away_in_its_grace(tmp_path: Path) -> None:
    async with lobby_server(tmp_path, reconnect_grace=60) as server:
        clients = await table(server.port)
        clients["mod"] = await moderator(server)
        await clients["bob"].close()
        await exchange(
            clients,
            f"""
            ann< AWAY:bob:60
            vic< AWAY:bob:60
            mod> BAN:bob:0:gone
            ann< GAMEEND:{EMPTY}:2:ann
            vic< GAMEEND:{EMPTY}:2:ann
            mod< BAN:ACKSTATUS:0
            """,
        )
        again = await LobbyClient.connect(server.port)
        assert await again.ask("LOGIN:bob:pw") == "LOGIN:ACKSTATUS:4"
        assert await clients["ann"].quiet() and await clients["vic"].quiet()


async def test_a_ban_closes_a_waiting_room_and_a_viewers_seat(tmp_path: Path) -> None:
    async with lobby_server(tmp_path) as server:
        clients = {name: await logged_in(server.port, name) for name in ("ann", "vic")}
        clients["mod"] = await moderator(server)
        await exchange(
            clients,
            """
            ann> CREATE:r1:4:4:classic
            ann< CREATE:ACKSTATUS:0
            mod> JOIN:r1:VIEWER
            mod< JOIN:ACKSTATUS:0
            vic> CREATE:r2:4:4:classic
            vic< CREATE:ACKSTATUS:0
            ann> JOIN:r2:VIEWER
            ann< JOIN:ACKSTATUS:3
            mod> BAN:ann:1:spam
            ann< BYE:banned
            mod< BAN:ACKSTATUS:0
            mod> ROOMLIST:VIEWER
            mod< ROOMLIST:ACKSTATUS:0:r2
            mod> JOIN:r2:PLAYER
            mod< JOIN:ACKSTATUS:0
            vic< BEGIN:vic:mod:4:4:classic
            mod< BEGIN:vic:mod:4:4:classic
            """,
        )


#: Every moderator's request, well formed, and what it answers a player who is no moderator.
MODERATOR_REQUESTS = {
    "BAN:bob:0:for nothing": "BAN:ACKSTATUS:2",
    "BAN:ann:1:myself": "BAN:ACKSTATUS:2",
    "UNBAN:bob": "UNBAN:ACKSTATUS:2",
    "MUTE:bob:10": "MUTE:ACKSTATUS:2",
    "REPORTS": "REPORTS:ACKSTATUS:2",
    "CLOSEREPORT:1": "CLOSEREPORT:ACKSTATUS:2",
}


async def test_a_player_who_is_no_moderator_can_do_none_of_it(tmp_path: Path) -> None:
    async with lobby_server(tmp_path) as server:
        store = server.lobby.store
        ann, bob = await logged_in(server.port, "ann"), await logged_in(server.port, "bob")
        assert await store.report("ann", "bob", ReportReason.OTHER, "spam", REPORTED_AT) == 0
        mod = await moderator(server)
        assert await mod.ask("BAN:bob:0:cheating") == "BAN:ACKSTATUS:0"
        await gone(bob, "banned")
        for _ in range(3):  # again and again: never more than its refusal
            for request, refusal in MODERATOR_REQUESTS.items():
                assert await ann.ask(request) == refusal
        assert await ann.quiet()
        bob = await LobbyClient.connect(server.port)
        assert await bob.ask("LOGIN:bob:pw") == "LOGIN:ACKSTATUS:4"  # still banned
        assert len(await store.open_reports(50)) == 1  # still open
        actions = await store.moderator_actions(50)
        assert [(a.moderator, a.action, a.target) for a in actions] == [
            ("mod", "ban", "bob"),
            ("test", "role", "mod"),
        ]
        assert await ann.ask("CREATE:r1") == "CREATE:ACKSTATUS:0"  # ann unmuted, unbanned
        await ann.send("CHAT:still here")
        assert await ann.line() == "CHAT:ann:still here"


async def test_a_moderator_whose_role_is_taken_away_is_refused_from_then_on(
    tmp_path: Path,
) -> None:
    async with lobby_server(tmp_path) as server:
        mod = await moderator(server)
        await logged_in(server.port, "bob")
        assert await mod.ask("MUTE:bob:5") == "MUTE:ACKSTATUS:0"
        assert await server.lobby.store.set_role("mod", "player", "test")
        await server.lobby.moderation.act_on_news()
        assert await mod.ask("MUTE:bob:5") == "MUTE:ACKSTATUS:2"


async def test_deleting_an_account_throttled_forfeited_kept_then_gone(tmp_path: Path) -> None:
    async with lobby_server(tmp_path) as server:
        clients = await table(server.port)
        ann, bob = clients["ann"], clients["bob"]
        loop = asyncio.get_running_loop()
        times = []
        for _ in range(3):
            began = loop.time()
            assert await bob.ask("DELETEACCOUNT:wrong") == "DELETEACCOUNT:ACKSTATUS:1"
            times.append(loop.time() - began)
        assert times[2] >= 0.95  # the third failure waits 1 s, as LOGIN's does
        guesser = await LobbyClient.connect(server.port)
        began = loop.time()  # and counts for the user: LOGIN is slowed as well
        assert await guesser.ask("LOGIN:bob:wrong") == "LOGIN:ACKSTATUS:2"
        assert loop.time() - began >= 1.95
        one = bottom("1000")
        await exchange(
            clients,
            f"""
            {played("ann", "DROP:1", one)}
            bob> DELETEACCOUNT:pw
            ann< GAMEEND:{one}:2:ann
            bob< GAMEEND:{one}:2:ann
            vic< GAMEEND:{one}:2:ann
            bob< DELETEACCOUNT:ACKSTATUS:0
            bob< BYE:deleted
            """,
        )
        assert await bob.closed()
        game = (await ann.ask("HISTORY")).rsplit(":", 1)[1]
        kept = await ann.ask(f"GAME:{game}")
        assert kept.startswith(f"GAME:ACKSTATUS:0:{game}:ann:deleted-"), kept
        assert ":ann:forfeit:d1:" in kept
        assert await guesser.ask("LOGIN:bob:pw") == "LOGIN:ACKSTATUS:1"
        assert await guesser.ask("REGISTER:bob:pw") == "REGISTER:ACKSTATUS:1"
        assert await guesser.ask("REGISTER:BOB:pw") == "REGISTER:ACKSTATUS:1"
        assert await ann.ask("PROFILE:bob") == "PROFILE:ACKSTATUS:1"
        assert await ann.ask("HISTORY:bob") == "HISTORY:ACKSTATUS:1"


async def test_deleting_an_account_in_no_game_and_a_bad_password(tmp_path: Path) -> None:
    async with lobby_server(tmp_path) as server:
        ann = await logged_in(server.port, "ann", "right:pw")
        assert await ann.ask("DELETEACCOUNT:") == "DELETEACCOUNT:ACKSTATUS:1"
        assert await ann.ask("DELETEACCOUNT:right") == "DELETEACCOUNT:ACKSTATUS:1"
        assert await ann.ask("DELETEACCOUNT:right:pw") == "DELETEACCOUNT:ACKSTATUS:0"
        await gone(ann, "deleted")
        stranger = await LobbyClient.connect(server.port)
        assert await stranger.ask("LOGIN:ann:right:pw") == "LOGIN:ACKSTATUS:1"
        assert await stranger.ask("DELETEACCOUNT:right:pw") == "BADAUTH"


async def test_a_ban_closes_the_users_tic_tac_toe_connection_too(tmp_path: Path) -> None:
    async with tictactoe_server(tmp_path) as server:
        ttt_ann, ttt_bob = await tictactoe_playing(port_of(server))
        mod = await moderator(server)
        assert await mod.ask("BAN:bob:1:cheating") == "BAN:ACKSTATUS:0"
        await ttt_ann.expect("GAMEEND:000000000:2:ann")  # its game there forfeited too
        assert await ttt_bob.last_words() == b""  # cut off at once: the handout has no BYE
        again = await TicTacToeClient.connect(port_of(server))
        await again.ask("LOGIN:bob:pw", "LOGIN:ACKSTATUS:4")


async def test_a_ban_lifted_before_the_feed_is_read_leaves_the_new_login_alone(
    tmp_path: Path,
) -> None:
    async with lobby_server(tmp_path) as server:
        mod, bob = await moderator(server), await logged_in(server.port, "bob")
        assert await mod.ask("BAN:bob:1:a mistake") == "BAN:ACKSTATUS:0"
        await gone(bob, "banned")
        assert await mod.ask("UNBAN:bob") == "UNBAN:ACKSTATUS:0"
        bob = await LobbyClient.connect(server.port)
        assert await bob.ask("LOGIN:bob:pw") == "LOGIN:ACKSTATUS:0"
        await server.lobby.moderation.act_on_news()  # the ban, then the unban, from the feed
        await asyncio.sleep(1.5)  # and the server's own read of it
        assert await bob.quiet()
        assert await bob.ask("ROOMLIST:VIEWER") == "ROOMLIST:ACKSTATUS:0:"


async def test_a_second_mute_replaces_the_first(tmp_path: Path) -> None:
    async with lobby_server(tmp_path) as server:
        mod, _ = await moderator(server), await logged_in(server.port, "bob")
        began = time.time()
        assert await mod.ask("MUTE:bob:10080") == "MUTE:ACKSTATUS:0"
        assert await mod.ask("MUTE:bob:1") == "MUTE:ACKSTATUS:0"
        sanctions = await server.lobby.store.sanctions("bob")
        assert sanctions is not None and sanctions.muted_until is not None
        assert began + 60 <= sanctions.muted_until < began + 120  # a minute, not a week


async def test_a_banned_player_racing_its_ban_is_left_in_no_game(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """bob keeps JOINing cid's waiting room while its ban (and its game's forfeit) is
    kept, on a slow disk: the game it begins meanwhile is forfeited too before it is
    closed, never left with bob away in it."""
    async with lobby_server(tmp_path) as server:
        clients = await table(server.port, viewer=False)
        cid = clients["cid"] = await logged_in(server.port, "cid")
        assert await cid.ask("CREATE:w:4:4:classic") == "CREATE:ACKSTATUS:0"
        mod = await moderator(server)
        keeper = server.lobby.keeper
        assert keeper is not None
        keep = keeper.keep

        async def slowly(journal: Sequence[GameEvent[ConnectFourSettings, Move]]) -> object:
            await asyncio.sleep(0.3)
            return await keep(journal)

        monkeypatch.setattr(keeper, "keep", slowly)
        await mod.send("BAN:bob:1:flooding")
        answer = asyncio.create_task(mod.line())
        while not answer.done():  # until the ban is done: its forfeit kept, bob closed
            clients["bob"].writer.write(b"JOIN:w:PLAYER\r\n")
            await asyncio.sleep(0.01)
        assert answer.result() == "BAN:ACKSTATUS:0"
        assert (await clients["ann"].line()).startswith("GAMEEND:")
        await _banned_hears_the_rest(clients["bob"])
        await server.lobby.announced()
        assert await mod.ask("ROOMINFO:w") == "ROOMINFO:ACKSTATUS:1"  # that game is lost too
        # bob sat down in the window (the attack happened): cid's game with him began
        assert await cid.line() == "BEGIN:cid:bob:4:4:classic"
        assert await cid.line() == f"GAMEEND:{EMPTY}:2:cid"
        assert not server.lobby.rooms.is_away("bob")


async def _banned_hears_the_rest(bob: LobbyClient) -> None:
    """bob's last lines: answers, then BYE:banned and the close — or a reset.

    bob wrote JOINs until the ban's answer came: the server may close while some lie
    unread, and TCP then resets the connection, which may drop what was on its way to
    bob. That is TCP's doing, not the server's: a reset counts as closed here.
    """
    try:
        while (line := await bob.line()) != "BYE:banned":
            assert line.startswith(("GAMEEND:", "JOIN:ACKSTATUS:", "BEGIN:")), line
        assert await bob.closed()
    except ConnectionResetError:
        pass
