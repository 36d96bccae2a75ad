"""``console --lobby`` in a timed game: both clocks under each board, and a loss on time."""

from __future__ import annotations

import re
from pathlib import Path

from tests.net.lobby_client import LobbyClient, logged_in
from tests.net.test_lobby_clocks import MovableTime, timed_server
from tests.net.test_lobby_console import ConsoleProcess, console_user


async def a_console_bob_meets_a_raw_ann(
    port: int, typed: str, told: str, asked: tuple[str, str]
) -> tuple[ConsoleProcess, LobbyClient]:
    """bob types ``typed`` at ``lobby>`` and is ``told`` so; ann's request and answer
    (``asked``) start the game (BEGIN read)."""
    bob = await console_user(port, "bob")
    await bob.type(typed)
    assert told in await bob.until(told.partition(" (")[0])
    ann = await logged_in(port, "ann")
    assert await ann.ask(asked[0]) == asked[1]
    assert (await ann.line()).startswith("BEGIN:bob:ann:")
    return bob, ann


async def test_the_console_shows_the_clocks_and_a_silent_opponent_losing_on_time(
    tmp_path: Path,
) -> None:
    now = MovableTime()
    async with (
        ConsoleProcess.ended_afterwards(),
        timed_server(tmp_path / "lobby.sqlite3", now) as server,
    ):
        bob, ann = await a_console_bob_meets_a_raw_ann(
            server.port,
            "create r1 4 4 classic casual 1+0",
            "Room 'r1' created (casual 1+0, you play red)",
            ("JOIN:r1:PLAYER", "JOIN:ACKSTATUS:0"),
        )
        assert re.fullmatch(
            r"RED bob (1:00\.0|0:59\.[0-9]) · YELLOW ann 1:00\.0", await bob.until("RED bob")
        )
        await bob.type("2")  # the first CLOCK may come after the prompt: the board came first
        await ann.line(), await ann.line()  # BOARDSTATUS, CLOCK
        # bob's move came with its CLOCK: RED's time stands, YELLOW's runs.
        assert re.fullmatch(
            r"RED bob 0:5[0-9]\.[0-9] · YELLOW ann (1:00\.0|0:59\.[0-9])",
            await bob.until("RED bob"),
        )
        now.skipped += 61  # ann says nothing for a minute
        await bob.until("ann lost on time")
        await bob.until("RED bob")
        await bob.until("bob (you, RED) wins: ann lost on time.")


async def test_a_console_asks_quick_play_with_terms(tmp_path: Path) -> None:
    async with (
        ConsoleProcess.ended_afterwards(),
        timed_server(tmp_path / "db", MovableTime()) as server,
    ):
        bob, ann = await a_console_bob_meets_a_raw_ann(
            server.port,
            "quick 5 4 popout rated 3+2",
            "In room quick-1 (rated 3+2, colours decided when the game begins)",
            ("QUICKPLAY:5:4:popout:rated:3+2:yellow", "QUICKPLAY:ACKSTATUS:0:quick-1"),
        )
        assert await ann.line() == "CLOCK:180000:180000"
        shown = await bob.until("RED bob")
        assert re.fullmatch(r"RED bob (3:00\.0|2:59\.[0-9]) · YELLOW ann 3:00\.0", shown)


async def test_the_room_list_says_which_rooms_are_rated_or_timed(tmp_path: Path) -> None:
    async with (
        ConsoleProcess.ended_afterwards(),
        timed_server(tmp_path / "db", MovableTime()) as server,
    ):
        ann = await logged_in(server.port, "ann")
        assert await ann.ask("CREATE:r1:4:4:classic:rated:1+0") == "CREATE:ACKSTATUS:0"
        bob = await console_user(server.port, "bob")
        await bob.type("rooms")
        listed = await bob.until("r1:")
        assert listed.endswith("r1: 4 × 4 classic rated 1+0, ann waits, 0 watching (waiting)")
