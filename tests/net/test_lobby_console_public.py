"""``console --lobby`` in public (§7), as a real process against a real server and raw clients.

Blocks, reports, deleting the account, and a moderator's bans, mutes and reports:
each command's answer in words, and what the server did (a raw client sees it);
what a person types against the wire's rules is explained and never sent.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from c4tui.console.game import SERVER_LOST
from c4tui.console.public import BAN_USAGE, MUTE_USAGE, REPORT_USAGE
from c4tui.server.core import C4Server
from tests.net.lobby_client import LobbyClient, lobby_server, logged_in
from tests.net.moderators import make_moderator, moderator_logged_in
from tests.net.test_lobby_console import (
    TIMEOUT,
    ConsoleProcess,
    a_raw_ann_against_a_console_bob,
    console_user,
    waiting_in_a_room,
)


async def console_moderator(server: C4Server, user: str) -> ConsoleProcess:
    """``console --lobby`` logged in as ``user``, a moderator (its account made first)."""
    await (await logged_in(server.port, user)).close()
    await make_moderator(server, user)
    console = await ConsoleProcess.start("--lobby", f"127.0.0.1:{server.port}", "--user", user)
    await console.type("pw")
    await console.until(f"Logged in as {user}")
    return console


async def reported_lines(moderator: LobbyClient) -> list[str]:
    """REPORTS's answer and its REPORTED lines, as a raw moderator reads them."""
    answer = await moderator.ask("REPORTS")
    count = int(answer.rsplit(":", 1)[1])
    return [answer, *[await moderator.line() for _ in range(count)]]


async def test_a_console_blocks_unblocks_and_lists_whom_it_blocks(tmp_path: Path) -> None:
    async with lobby_server(tmp_path) as server:
        bob = await logged_in(server.port, "bob")
        ann = await console_user(server.port, "ann")
        await ann.type("block bob")
        await ann.until("You block bob now: their chat no longer reaches you")
        assert (
            await bob.ask("CHALLENGE:ann:4:4:classic:casual") == "CHALLENGE:ACKSTATUS:1"
        )  # the server keeps it
        await ann.type("blocks")
        await ann.until("You block 1: bob.")
        await ann.type("block nobody")
        await ann.until("There is no user nobody.")
        await ann.type("block Ann")  # §5.6: one account, whatever the case
        await ann.until("You cannot block yourself.")
        await ann.type("report ann chat hello")
        await ann.until("You cannot report yourself.")
        await ann.type("challenge bob")  # the wire says :1, as for a user not there
        await ann.until("You block bob: unblock them to challenge them.")
        await ann.type("block zoë")  # no account can have it: never sent
        await ann.until("No such user: zoë (a user name is")
        await ann.type("block bob carl")
        await ann.until("Usage: block USER")
        await ann.type("unblock bob")
        await ann.until("You no longer block bob.")
        await ann.type("unblock bob")
        await ann.until("You do not block bob.")
        await ann.type("blocks")
        await ann.until("You block nobody.")
        assert await bob.ask("CHALLENGE:ann:4:4:classic:casual") == "CHALLENGE:ACKSTATUS:0"
        await ann.type("help")
        await ann.until("block USER, unblock USER")
        await ann.type("quit")
        assert await asyncio.wait_for(ann.process.wait(), TIMEOUT) == 0


async def test_a_console_reports_and_its_text_is_checked_before_it_goes(tmp_path: Path) -> None:
    async with lobby_server(tmp_path) as server:
        await (await logged_in(server.port, "bob")).close()
        mod = await moderator_logged_in(server)
        ann = await console_user(server.port, "ann")
        await ann.type("report bob chat he swore: twice")
        await ann.until("You reported bob (chat): the moderators will read it.")
        await ann.type("report bob spam in the room")  # no such reason
        await ann.until(REPORT_USAGE)
        await ann.type("report bob other " + "x" * 201)
        await ann.until("That text has 201 characters: it may have 200 at most.")
        await ann.type("report nobody name")
        await ann.until("There is no user nobody.")
        answer, line = await reported_lines(mod)  # only the one report that was good
        assert answer == "REPORTS:ACKSTATUS:0:1"
        assert line.startswith("REPORTED:1:ann:bob:chat:") and line.endswith("::he swore: twice")
        await ann.type("quit")
        assert await asyncio.wait_for(ann.process.wait(), TIMEOUT) == 0


async def test_a_moderators_console_lists_closes_bans_mutes_and_unbans(tmp_path: Path) -> None:
    async with lobby_server(tmp_path) as server:
        bob = await logged_in(server.port, "bob")
        carl = await logged_in(server.port, "carl")
        assert await carl.ask("REPORT:bob:name:a rude name") == "REPORT:ACKSTATUS:0"
        ann = await console_user(server.port, "ann")  # no moderator
        await ann.type("help")
        await ann.until("delete-account")
        await ann.type("reports")
        await ann.until("Only moderators may do that.")
        await ann.type("ban bob 1 spam")
        await ann.until("Only moderators may do that.")
        mod = await console_moderator(server, "mod")
        await mod.type("help")
        await mod.until("Moderators:")
        await mod.until("close-report N")
        await mod.type("reports")
        await mod.until("1 open report, oldest first (close-report N closes one):")
        assert (await mod.until("Reported")).split() == [
            "N", "When", "Reporter", "Reported", "Reason", "Game", "Text",
        ]  # fmt: skip
        row = (await mod.until("carl")).split()
        assert row[0] == "1" and row[3:] == ["carl", "bob", "name", "-", "a", "rude", "name"]
        await mod.type("mute bob 0")
        await mod.until(MUTE_USAGE)
        await mod.type("mute bob 10")
        await mod.until("bob is muted for 10 minutes: their chat reaches nobody.")
        assert await bob.ask("CREATE:b1:4:4:classic") == "CREATE:ACKSTATUS:0"
        await bob.send("CHAT:hello?")
        assert await bob.line() == "CHAT:ACKSTATUS:1"
        await mod.type("ban bob 2x spam")
        await mod.until(BAN_USAGE)
        await mod.type("ban bob 2 spam, every room")
        await mod.until("bob is banned for 2 hours: their connections are closed.")
        while (line := await bob.line()) != "BYE:banned":  # its waiting room closes first
            assert not line.startswith("CHAT"), line
        again = await LobbyClient.connect(server.port)
        assert await again.ask("LOGIN:bob:pw") == "LOGIN:ACKSTATUS:4"
        await mod.type("unban bob")
        await mod.until("bob is no longer banned.")
        assert await again.ask("LOGIN:bob:pw") == "LOGIN:ACKSTATUS:0"
        await mod.type("unban bob")
        await mod.until("bob is not banned.")
        await mod.type("close-report one")
        await mod.until("Usage: close-report N")
        await mod.type("close-report 1")
        await mod.until("Report 1 is closed.")
        await mod.type("close-report 1")
        await mod.until("There is no open report 1.")
        await mod.type("reports")
        await mod.until("No open reports.")
        for console in (ann, mod):
            await console.type("quit")
            assert await asyncio.wait_for(console.process.wait(), TIMEOUT) == 0


async def test_delete_account_asks_the_password_and_a_yes_then_ends_cleanly(
    tmp_path: Path,
) -> None:
    async with lobby_server(tmp_path) as server:
        ann = await console_user(server.port, "ann")
        for typed in ("delete-account", "wrong", "delete"):
            await ann.type(typed)
        await ann.until("Wrong password: the account is kept.")
        for typed in ("delete-account", "pw", "no"):
            await ann.type(typed)
        await ann.until("Not deleted: the account is kept.")
        await ann.type("profile")  # still logged in, the account still there
        await ann.until("ann: rating 1500")
        for typed in ("delete-account", "pw", "DELETE"):
            await ann.type(typed)
        line = await ann.until("is deleted")
        assert line.endswith(
            "The account ann is deleted: its password is erased, its finished games stay "
            "under another name, and the name can never be registered again."
        )
        assert await asyncio.wait_for(ann.process.wait(), TIMEOUT) == 0
        client = await LobbyClient.connect(server.port)
        assert await client.ask("LOGIN:ann:pw") == "LOGIN:ACKSTATUS:1"
        assert await client.ask("REGISTER:ann:pw") == "REGISTER:ACKSTATUS:1"


async def test_a_banned_console_says_so_and_does_not_come_back(tmp_path: Path) -> None:
    async with lobby_server(tmp_path) as server:
        mod = await moderator_logged_in(server)
        ann = await console_user(server.port, "ann")  # comes back by itself after a drop
        assert await mod.ask("BAN:ann:0:cheating") == "BAN:ACKSTATUS:0"
        await ann.until("A moderator banned this account: you cannot log in while the ban lasts.")
        assert await asyncio.wait_for(ann.process.wait(), TIMEOUT) == SERVER_LOST
        assert not [line for line in ann.seen if "reconnecting" in line]


async def test_in_a_game_block_and_report_are_about_the_opponent(tmp_path: Path) -> None:
    async with lobby_server(tmp_path) as server:
        mod = await moderator_logged_in(server)
        ann, bob = await a_raw_ann_against_a_console_bob(server.port)
        await bob.until("Game on")
        await bob.type("help")
        await bob.until("block blocks the opponent")
        await bob.type("report cheating every move at once")
        await bob.until("You reported ann (cheating): the moderators will read it.")
        await bob.type("block")
        await bob.until("You block ann now")
        await ann.send("CHAT:can you hear me?")  # blocked: never reaches bob
        assert await ann.line() == "CHAT:ann:can you hear me?"  # the room's own echo
        await bob.type("say still here")
        assert await ann.line() == "CHAT:bob:still here"  # bob's chat still reaches ann
        await bob.type("report")
        await bob.until(REPORT_USAGE)
        assert not [line for line in bob.seen if "can you hear me" in line]
        answer, line = await reported_lines(mod)
        assert answer == "REPORTS:ACKSTATUS:0:1"
        game = line.split(":")[8]
        assert line.startswith("REPORTED:1:bob:ann:cheating:") and game  # the game under way
        await bob.type("forfeit")
        await bob.type("y")
        await bob.until("Back in the lobby")
        await bob.type("quit")
        assert await asyncio.wait_for(bob.process.wait(), TIMEOUT) == 0


async def test_a_muted_players_chat_is_said_to_reach_nobody(tmp_path: Path) -> None:
    async with lobby_server(tmp_path) as server:
        mod = await moderator_logged_in(server)
        ann, bob = await a_raw_ann_against_a_console_bob(server.port)
        await bob.until("Game on")
        assert await mod.ask("MUTE:bob:5") == "MUTE:ACKSTATUS:0"
        await bob.type("say hello")
        await bob.until("A moderator has muted you: your chat reaches nobody until the mute ends.")
        assert await ann.quiet()


async def test_the_blocked_one_is_never_shown_the_blockers_waiting_room(tmp_path: Path) -> None:
    """§7: ROOMLIST:PLAYER hides ann's waiting room from bob, whom she blocks; the console's
    rooms (every room, with ROOMINFO) listed it anyway, and its join said "No such room"."""
    async with lobby_server(tmp_path) as server:
        ann = await logged_in(server.port, "ann")
        await (await logged_in(server.port, "bob")).close()
        assert await ann.ask("BLOCK:bob") == "BLOCK:ACKSTATUS:0"
        assert await ann.ask("CREATE:anns:4:4:classic") == "CREATE:ACKSTATUS:0"
        cid = await waiting_in_a_room(server.port, "cid", "cids:4:4:classic")
        bob = await ConsoleProcess.start("--lobby", f"127.0.0.1:{server.port}", "--user", "bob")
        await bob.type("pw")
        await bob.until("Logged in as bob")
        await bob.type("rooms")
        await bob.until("cids: 4 × 4 classic, cid waits")
        await bob.type("blocks")  # its answer comes after the whole list
        await bob.until("You block nobody.")
        assert not any("anns" in line for line in bob.seen)
        await bob.type("join anns")  # told of it some other way: as if not there
        await bob.until("No such room")
        dan = await logged_in(server.port, "dan")
        assert await dan.ask("JOIN:anns:PLAYER") == "JOIN:ACKSTATUS:0"  # its game is on
        await bob.type("rooms")
        await bob.until("anns: 4 × 4 classic, ann vs dan")  # each may watch the other's games
        await bob.type("quit")
        await cid.close()


async def test_a_moderator_watching_a_room_bans_and_mutes_there(tmp_path: Path) -> None:
    async with lobby_server(tmp_path) as server:
        bob = await waiting_in_a_room(server.port, "bob", "w:4:4:classic")
        mod = await console_moderator(server, "zoe")
        await mod.type("watch w")
        await mod.until("Watching w (quit stops): its game shows once it is under way.")
        await mod.type("help")
        await mod.until("a moderator's ban, unban, mute too.")
        await mod.type("mute bob 5")
        await mod.until("bob is muted for 5 minutes: their chat reaches nobody.")
        await mod.type("ban bob 1 spam")
        await mod.until("bob is banned for 1 hour: their connections are closed.")
        assert await bob.line() == "BYE:banned"
        await mod.type("quit")


async def test_the_blocker_is_shown_the_blocked_ones_room_and_told_why_it_cannot_play(
    tmp_path: Path,
) -> None:
    async with lobby_server(tmp_path) as server:
        bob = await waiting_in_a_room(server.port, "bob", "bobs:4:4:classic")
        ann = await console_user(server.port, "ann")
        await ann.type("block bob")
        await ann.until("You block bob now")
        await ann.type("rooms")
        await ann.until("bobs: 4 × 4 classic, bob waits")  # it knows: shown
        await ann.type("join bobs")  # the wire: JOIN:ACKSTATUS:1, as for no such room
        await ann.until("You block bob: unblock them to play them.")
        await ann.type("unblock bob")
        await ann.type("join bobs")
        assert await bob.line() == "BEGIN:bob:ann:4:4:classic"
        await ann.until("Game on: bob (RED) against ann (YELLOW).")
