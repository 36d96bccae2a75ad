"""``c4tui console --lobby``'s defects from issue 38's trial, each against a real server."""

from __future__ import annotations

import asyncio
from pathlib import Path

from tests.net.lobby_client import LobbyClient, lobby_server, logged_in
from tests.net.test_lobby_console import TIMEOUT, console_user


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
