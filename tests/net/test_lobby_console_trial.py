"""``c4tui console --lobby``'s defects from issue 38's trial, each against a real server."""

from __future__ import annotations

import asyncio
import io
import os
from pathlib import Path

from c4tui.console.lobby import ConsoleLobby, LobbySettings
from c4tui.protocols.names import ROOM_RULE, USER_RULE
from tests.net.lobby_client import LobbyClient, lobby_server, logged_in
from tests.net.test_lobby_console import (
    TIMEOUT,
    ConsoleProcess,
    a_raw_ann_against_a_console_bob,
    console_user,
)


async def a_game_under_way(port: int) -> tuple[LobbyClient, LobbyClient]:
    """ann (RED) and bob (YELLOW), raw clients, in r1's 4 × 4 classic game."""
    ann = await logged_in(port, "ann")
    bob = await logged_in(port, "bob")
    assert await ann.ask("CREATE:r1:4:4:classic") == "CREATE:ACKSTATUS:0"
    assert await bob.ask("JOIN:r1:PLAYER") == "JOIN:ACKSTATUS:0"
    await ann.line(), await bob.line()  # BEGIN
    return ann, bob


async def test_a_viewer_stops_watching_with_quit_leave_or_back(tmp_path: Path) -> None:
    async with lobby_server(tmp_path) as server:
        await a_game_under_way(server.port)
        vic = await console_user(server.port, "vic")
        for word in ("quit", "leave", "back"):
            await vic.type("watch r1")
            await vic.until("Watching ann (RED) against bob (YELLOW)")
            await vic.type(word)
            await vic.until("You left the room. Back in the lobby.")
            await vic.type("rooms")
            assert "0 watching" in await vic.until("r1:")
        assert not any(line.startswith("Watching:") for line in vic.seen)
        await vic.type("quit")
        assert await asyncio.wait_for(vic.process.wait(), TIMEOUT) == 0


async def test_non_ascii_words_are_refused_by_the_rules_never_a_crash(tmp_path: Path) -> None:
    """Each typed word that goes to the wire: a name is answered with its rule's words."""
    async with lobby_server(tmp_path) as server:
        zoe = await console_user(server.port, "zoe")
        room_rule = f"A room name is {ROOM_RULE}."
        user_rule = f"a user name is {USER_RULE}"
        for command, answer in [
            ("create café", room_rule),
            ("join café", room_rule),
            ("watch r:1", room_rule),
            ("profile zoë", user_rule),
            ("history zoë", user_rule),
            ("challenge zoë", user_rule),
            ("accept zoë", user_rule),
            ("decline a:b", user_rule),
        ]:
            await zoe.type(command)
            assert answer in await zoe.until(answer), command
        await zoe.type("create r1")
        await zoe.until("waiting for a second player")
        ann = await logged_in(server.port, "ann")
        assert await ann.ask("JOIN:r1:VIEWER") == "JOIN:ACKSTATUS:0"
        for text in ("héllo", "x" * 300, "plain"):  # waiting in the room, ann watching
            await zoe.type(f"say {text}")
        await zoe.until("Not sent")  # the long line at least; héllo too while chat is ASCII
        heard = await ann.line()
        while heard != "CHAT:zoe:plain":
            assert heard.startswith("CHAT:zoe:h"), heard  # héllo, once the wire carries it
            heard = await ann.line()
        await zoe.type("quit")
        await zoe.until("You left the room")
        await zoe.type("quit")
        assert await asyncio.wait_for(zoe.process.wait(), TIMEOUT) == 0
        assert not any("Traceback" in line or "Error" in line for line in zoe.seen), zoe.seen


async def test_cut_for_being_idle_at_the_prompt_the_console_comes_back(tmp_path: Path) -> None:
    async with lobby_server(tmp_path, idle_timeout=1.0) as server:  # under its keep-alive
        vic = await console_user(server.port, "vic")
        await vic.until("Disconnected after being idle — reconnecting (1)…")
        await vic.until("Back in the lobby.")
        await vic.type("rooms")
        await vic.until("No rooms yet")
        await vic.type("quit")
        assert await asyncio.wait_for(vic.process.wait(), TIMEOUT) == 0


async def test_a_console_at_the_prompt_keeps_its_connection_alive(tmp_path: Path) -> None:
    """Its keep-alive (shortened here) well under the server's idle limit: never cut off."""
    async with lobby_server(tmp_path, idle_timeout=2.0) as server:
        reader, writer = os.pipe()
        typed = os.fdopen(writer, "w", buffering=1)
        shown = Transcript()
        settings = LobbySettings("127.0.0.1", server.port, "vic", register=True, keep_alive=0.2)
        with os.fdopen(reader) as stdin:
            lobby = asyncio.create_task(ConsoleLobby(settings, stdin, shown).run())
            typed.write("pw\npw\n")  # registering: twice
            await shown.until("Logged in as vic")
            await asyncio.sleep(6)  # three idle limits at the prompt
            typed.write("rooms\n")
            await shown.until("No rooms yet")
            typed.write("quit\n")
            assert await asyncio.wait_for(lobby, TIMEOUT) == 0
            typed.close()
        assert "idle" not in shown.getvalue() and "reconnecting" not in shown.getvalue()


class Transcript(io.StringIO):
    """What the console wrote, waited on a line at a time."""

    async def until(self, text: str) -> None:
        async with asyncio.timeout(TIMEOUT):
            while text not in self.getvalue():
                await asyncio.sleep(0.05)


async def test_forfeit_asks_first(tmp_path: Path) -> None:
    async with lobby_server(tmp_path) as server:
        ann, bob = await a_raw_ann_against_a_console_bob(server.port)
        await ann.send("DROP:1")
        await bob.until("Your move")
        await bob.type("forfeit")
        await bob.type("n")  # the question's line ends with the answer's
        said = await bob.until("Not forfeited: the game goes on.")
        assert said == "Forfeit the game? [y/N] Not forfeited: the game goes on."
        await bob.type("2")  # a move again, not an answer
        assert (await ann.line()).startswith("BOARDSTATUS")
        await bob.type("forfeit")
        await bob.type("y")
        await bob.until("Back in the lobby")
        ended = await ann.line()
        while ended.startswith("BOARDSTATUS"):
            ended = await ann.line()
        assert ended.startswith("GAMEEND:") and ended.endswith(":2:ann"), ended
        await bob.type("quit")
        assert await asyncio.wait_for(bob.process.wait(), TIMEOUT) == 0


async def test_registering_asks_the_password_twice_and_says_when_they_differ(
    tmp_path: Path,
) -> None:
    async with lobby_server(tmp_path) as server:
        address = f"127.0.0.1:{server.port}"
        zoe = await ConsoleProcess.start("--lobby", address, "--user", "zoe", "--register")
        await zoe.type("secret")
        await zoe.type("secrets")
        await zoe.until("The two passwords differ: no account created.")
        assert await asyncio.wait_for(zoe.process.wait(), TIMEOUT) == 1
        assert not any("secret" in line for line in zoe.seen)  # never echoed
        client = await LobbyClient.connect(server.port)
        assert await client.ask("LOGIN:zoe:secret") == "LOGIN:ACKSTATUS:1"  # no such user
        await client.close()
        zoe = await console_user(server.port, "zoe")  # the same password twice: in
        await zoe.type("quit")
        assert await asyncio.wait_for(zoe.process.wait(), TIMEOUT) == 0
