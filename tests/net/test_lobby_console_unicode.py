"""``console --lobby`` chats in any printable Unicode over a real server (spec §5.6): ``say
héllo`` used to crash it with UnicodeEncodeError, costing the game; other fields stay ASCII."""

from __future__ import annotations

from pathlib import Path

from tests.net.lobby_client import LobbyClient, lobby_server
from tests.net.test_lobby_console import ConsoleProcess, console_user, waiting_in_a_room


async def test_the_console_says_and_hears_unicode_and_is_refused_a_non_ascii_room(
    tmp_path: Path,
) -> None:
    async with lobby_server(tmp_path) as server, ConsoleProcess.ended_afterwards():
        ann = await waiting_in_a_room(server.port, "ann", "r1:4:4:classic")
        bob = await console_user(server.port, "bob")
        await bob.type("create café")
        await bob.until("A room name is 1-20")  # the name rule, not a crash
        await bob.type("join r1")
        assert await ann.line() == "BEGIN:ann:bob:4:4:classic"
        await bob.until("Game on: ann (RED) against bob (YELLOW)")
        await bob.type("say héllo")
        assert await ann.line() == "CHAT:bob:héllo"
        await ann.send("CHAT:gg 🙂 漢字")
        assert await ann.line() == "CHAT:ann:gg 🙂 漢字"
        assert "ann says: gg 🙂 漢字" in await bob.until("ann says:")
        await ann.send("DROP:1")
        await ann.line()
        await bob.until("Your move")
        await bob.type("2")  # the game goes on: the console is still there
        assert (await ann.line()).startswith("BOARDSTATUS:")


async def bob_joins_and_ann_forfeits(port: int, bob: ConsoleProcess) -> LobbyClient:
    """ann waits in r1, the console bob joins, ann forfeits: bob is back at lobby>; ann."""
    ann = await waiting_in_a_room(port, "ann", "r1:4:4:classic")
    await bob.type("join r1")
    await ann.line()
    await bob.until("Game on")
    await ann.send("FORFEIT")
    await ann.line()
    await bob.until("Back in the lobby")
    return ann


async def test_the_console_hears_chat_after_the_game_at_its_lobby_prompt(tmp_path: Path) -> None:
    async with lobby_server(tmp_path) as server, ConsoleProcess.ended_afterwards():
        bob = await console_user(server.port, "bob")
        ann = await bob_joins_and_ann_forfeits(server.port, bob)
        await ann.send("CHAT:gg wp")
        assert await ann.line() == "CHAT:ann:gg wp"
        assert "ann says: gg wp" in await bob.until("ann says:")


async def test_the_console_says_gg_after_the_game_and_is_told_when_there_is_no_room(
    tmp_path: Path,
) -> None:
    async with lobby_server(tmp_path) as server, ConsoleProcess.ended_afterwards():
        bob = await console_user(server.port, "bob")
        await bob.type("say hello?")  # no game has ended: no room to say it in
        assert "chat is for a room" in await bob.until("Not sent")
        ann = await bob_joins_and_ann_forfeits(server.port, bob)
        await bob.type("say gg 🙂")  # §5.6: the finished room's chat goes on for a minute
        assert await ann.line() == "CHAT:bob:gg 🙂"
