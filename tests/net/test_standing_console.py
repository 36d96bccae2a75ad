"""The console lobby's standing: ratings after a rated game, profile, leaderboard, password."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

from c4tui.lobby.ratings import Rating, Result, rated
from tests.net.lobby_client import LobbyClient, lobby_server
from tests.net.test_lobby_console import TIMEOUT, console_user, waiting_in_a_room


async def test_a_console_player_hears_the_new_ratings_and_reads_profiles(tmp_path: Path) -> None:
    won = round(rated(Rating(), [Result(Rating(), 1)]).rating)
    lost = round(rated(Rating(), [Result(Rating(), 0)]).rating)
    async with lobby_server(tmp_path) as server:
        ann = await waiting_in_a_room(server.port, "ann", "r1:4:4:classic:rated")
        bob = await console_user(server.port, "bob")
        await bob.type("join r1")
        assert (await ann.line()).startswith("BEGIN")
        await bob.until("Game on")
        for turn in range(4):  # ann: column 1, four times; bob: column 2
            await ann.send("DROP:1")
            assert (await ann.line()).startswith("BOARDSTATUS" if turn < 3 else "GAMEEND")
            if turn < 3:
                await bob.until("Your move")
                await bob.type("2")
                assert (await ann.line()).startswith("BOARDSTATUS")
        line = await bob.until("Your rating")
        assert line.endswith(
            f"Your rating: {lost} ({lost - 1500:+d}); ann's: {won} (+{won - 1500})"
        )
        await bob.type("profile")
        assert (await bob.until("bob: rating")).endswith(
            f"bob: rating {lost} (provisional); 1 game: 0 won, 0 drawn, 1 lost"
        )
        await bob.type("profile nobody")
        await bob.until("No such user: nobody.")
        await bob.type("leaderboard")  # both provisional after one game: listed, marked
        assert (await bob.until(" 1. ")).split()[-3:] == ["ann", str(won), "(provisional)"]
        assert (await bob.until(" 2. ")).split() == ["2.", "bob", str(lost), "(provisional)"]
        await bob.type("help")
        await bob.until("leaderboard ")
        await bob.type("quit")
        assert await asyncio.wait_for(bob.process.wait(), TIMEOUT) == 0


async def test_the_console_leaderboard_marks_bots(tmp_path: Path) -> None:
    async with lobby_server(tmp_path) as server:
        robo = await LobbyClient.connect(server.port)
        assert await robo.ask("REGISTERBOT:robo:pw") == "REGISTERBOT:ACKSTATUS:0"
        ann = await console_user(server.port, "ann")
        connection = sqlite3.connect(tmp_path / "accounts.sqlite3")
        connection.execute("UPDATE accounts SET rating = 1700, deviation = 80, rated_games = 9")
        connection.execute("UPDATE accounts SET rating = 1600 WHERE name = 'ann'")
        connection.commit()
        connection.close()
        await ann.type("leaderboard")
        assert (await ann.until(" 1. ")).split()[-4:] == ["1.", "robo", "(bot)", "1700"]
        assert (await ann.until(" 2. ")).split() == ["2.", "ann", "1600"]
        await ann.type("profile robo")
        await ann.until("robo (bot): rating 1700; 0 games: 0 won, 0 drawn, 0 lost")
        await ann.type("quit")
        assert await asyncio.wait_for(ann.process.wait(), TIMEOUT) == 0


async def test_the_console_changes_the_password(tmp_path: Path) -> None:
    async with lobby_server(tmp_path) as server:
        ann = await console_user(server.port, "ann")
        for typed in ("password", "wrong", "new:pw", "new:pw"):
            await ann.type(typed)
        await ann.until("That is not your current password: nothing changed.")
        for typed in ("password", "pw", "new:pw", "other"):
            await ann.type(typed)
        await ann.until("The new password and its repetition differ: nothing changed.")
        for typed in ("password", "pw", "new:pw", "new:pw"):
            await ann.type(typed)
        await ann.until("Password changed: log in with the new one from now on.")
        await ann.type("quit")  # before its login elsewhere would close it
        assert await asyncio.wait_for(ann.process.wait(), TIMEOUT) == 0
        other = await LobbyClient.connect(server.port)
        assert await other.ask("LOGIN:ann:pw") == "LOGIN:ACKSTATUS:2"
        assert await other.ask("LOGIN:ann:new:pw") == "LOGIN:ACKSTATUS:0"
