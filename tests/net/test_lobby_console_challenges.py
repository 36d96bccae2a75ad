"""``c4tui console --lobby``'s challenges against a raw client (spec §5.5), as real processes."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

from tests.net.lobby_client import lobby_server, logged_in
from tests.net.test_lobby_console import TIMEOUT, console_user


async def test_a_console_challenges_is_declined_then_accepted_and_asks_a_rematch(
    tmp_path: Path,
) -> None:
    async with lobby_server(tmp_path) as server:
        ann = await logged_in(server.port, "ann")
        bob = await console_user(server.port, "bob")
        await bob.type("players")
        assert "[bot]" not in await bob.until("ann")
        await bob.type("challenge ann 4 4 classic rated 3+2")
        assert await ann.line() == "CHALLENGED:bob:4:4:classic:rated:3+2"
        await bob.until("Challenge sent to ann (4 × 4 Classic, rated 3+2, you play red)")
        assert await ann.ask("DECLINE:bob") == "DECLINE:ACKSTATUS:0"
        await bob.until("ann declined your challenge")
        await bob.type("challenge ann")
        assert await ann.line() == "CHALLENGED:bob:7:6:classic:casual:-"
        assert await ann.ask("ACCEPT:bob") == "ACCEPT:ACKSTATUS:0"
        assert await ann.line() == "BEGIN:bob:ann:7:6:classic"
        await bob.until("Game on: bob (RED) against ann (YELLOW)")
        await bob.until("Your move")
        await bob.type("forfeit")
        await bob.type("y")  # Forfeit the game? [y/N]
        assert (await ann.line()).endswith(":2:ann")
        await bob.until("Back in the lobby")
        await bob.type("rematch")
        assert await ann.line() == "CHALLENGED:bob:7:6:classic:casual:-"
        await bob.until("Rematch asked")
        await bob.type("quit")
        assert await asyncio.wait_for(bob.process.wait(), TIMEOUT) == 0


async def test_a_challenge_to_the_console_shows_at_the_prompt_and_accept_plays_it(
    tmp_path: Path,
) -> None:
    async with lobby_server(tmp_path) as server:
        bob = await console_user(server.port, "bob")
        ann = await logged_in(server.port, "ann")
        await bob.type("challenge nobody")
        await bob.until("nobody is not logged in")
        await bob.type("challenge ann 4 4 chess")
        await bob.until("Usage: challenge USER")
        await bob.type("challenge ann 1+0")  # a clock alone: casual, the default board
        await bob.until("Challenge sent to ann (7 × 6 Classic, casual 1+0, you play red)")
        assert await ann.line() == "CHALLENGED:bob:7:6:classic:casual:1+0"
        assert await ann.ask("CHALLENGE:bob:5:4:popout:casual:1+0") == "CHALLENGE:ACKSTATUS:0"
        await bob.until("ann challenges you: 5 × 4 Pop Out, casual 1+0. Type accept ann")
        await bob.type("accept zed")
        await bob.until("No challenge from zed is open")
        await bob.type("accept ann")
        assert await ann.line() == "BEGIN:ann:bob:5:4:popout"
        assert re.fullmatch(r"CLOCK:(60000|5[0-9]{4}):60000", await ann.line())  # 1+0: red's runs
        await bob.until("Game on: ann (RED) against bob (YELLOW)")
        await ann.send("FORFEIT")
        assert (await ann.line()).endswith(":2:bob")
        await bob.until("bob (you, YELLOW) wins: ann forfeited.")
        await bob.until("Back in the lobby")
        assert await ann.ask("REMATCH") == "REMATCH:ACKSTATUS:0"
        await bob.until("ann challenges you: 5 × 4 Pop Out, casual 1+0")
        await bob.type("decline ann")
        assert await ann.line() == "DECLINED:bob"
        await bob.type("quit")
        assert await asyncio.wait_for(bob.process.wait(), TIMEOUT) == 0
