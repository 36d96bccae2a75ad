"""``console --lobby`` choosing a colour (spec §5.6): create, challenge and quick, as processes."""

from __future__ import annotations

import asyncio
from pathlib import Path

from tests.net.lobby_client import lobby_server, logged_in
from tests.net.test_lobby_console import TIMEOUT, ConsoleProcess, console_user


async def forfeited(console: ConsoleProcess) -> None:
    """The console's player gives the game up and is back at ``lobby>``."""
    await console.type("forfeit")
    await console.type("y")  # Forfeit the game? [y/N]
    await console.until("Back in the lobby")


async def test_a_room_created_as_yellow_seats_the_joiner_as_red(tmp_path: Path) -> None:
    async with lobby_server(tmp_path) as server:
        bob = await console_user(server.port, "bob")
        await bob.type("create r1 4 4 classic rated yellow")
        await bob.until("Room 'r1' created (rated, you play yellow): waiting for a second player")
        ann = await logged_in(server.port, "ann")
        assert await ann.ask("JOIN:r1:PLAYER") == "JOIN:ACKSTATUS:0"
        assert await ann.line() == "BEGIN:ann:bob:4:4:classic"
        await bob.until("Game on: ann (RED) against bob (YELLOW)")
        await forfeited(bob)
        await bob.type("create r2 yellow mauve")  # not a colour: part of the name
        await bob.until("Room 'r2 yellow mauve' created (you play red)")
        await bob.type("quit")
        await bob.type("quit")
        assert await asyncio.wait_for(bob.process.wait(), TIMEOUT) == 0


async def test_a_challenge_as_random_leaves_the_colours_to_the_game(tmp_path: Path) -> None:
    async with lobby_server(tmp_path) as server:
        ann = await logged_in(server.port, "ann")
        bob = await console_user(server.port, "bob")
        await bob.type("challenge ann 5 4 popout 3+2 random")
        assert await ann.line() == "CHALLENGED:bob:5:4:popout:casual:3+2"
        await bob.until(
            "Challenge sent to ann (5 × 4 Pop Out, casual 3+2, colours decided when the game "
            "begins): waiting for the answer."
        )
        assert await ann.ask("ACCEPT:bob") == "ACCEPT:ACKSTATUS:0"
        assert await ann.line() in ("BEGIN:ann:bob:5:4:popout", "BEGIN:bob:ann:5:4:popout")
        await bob.until("Game on")
        await forfeited(bob)
        while not (await ann.line()).startswith("GAMEEND:"):
            pass  # the clocks' lines
        await bob.type("challenge ann yellow")
        assert await ann.line() == "CHALLENGED:bob:7:6:classic:casual:-"
        await bob.until("Challenge sent to ann (7 × 6 Classic, casual, you play yellow)")
        assert await ann.ask("ACCEPT:bob") == "ACCEPT:ACKSTATUS:0"
        assert await ann.line() == "BEGIN:ann:bob:7:6:classic"
        await bob.until("Game on: ann (RED) against bob (YELLOW)")
        await forfeited(bob)
        await bob.type("quit")
        assert await asyncio.wait_for(bob.process.wait(), TIMEOUT) == 0


async def test_quick_play_is_random_unless_a_colour_is_wished(tmp_path: Path) -> None:
    async with lobby_server(tmp_path) as server:
        bob = await console_user(server.port, "bob")
        await bob.type("quick")
        await bob.until("In room quick-1 (colours decided when the game begins): waiting")
        await bob.type("quit")
        await bob.until("Back in the lobby")
        await bob.type("quick 4 4 classic yellow")
        await bob.until("(you play yellow): waiting")
        ann = await logged_in(server.port, "ann")
        answer = await ann.ask("QUICKPLAY:4:4:classic")  # random: fits bob's yellow
        assert answer.startswith("QUICKPLAY:ACKSTATUS:0:")
        assert await ann.line() == "BEGIN:ann:bob:4:4:classic"
        await bob.until("Game on: ann (RED) against bob (YELLOW)")
        await forfeited(bob)
        await bob.type("help")
        await bob.until("[red|yellow|random]")
        await bob.type("quit")
        assert await asyncio.wait_for(bob.process.wait(), TIMEOUT) == 0
