"""An opponent away and back (spec §5.1), as the console says it: the game waits, then goes on."""

from __future__ import annotations

from pathlib import Path

from tests.net.lobby_client import LobbyClient, lobby_server
from tests.net.test_lobby_console import ConsoleProcess, a_raw_ann_against_a_console_bob


async def test_the_console_says_the_opponent_is_away_then_back_and_plays_on(
    tmp_path: Path,
) -> None:
    async with lobby_server(tmp_path) as server:
        ann, bob = await a_raw_ann_against_a_console_bob(server.port)
        await ann.send("DROP:1")
        assert (await ann.line()).startswith("BOARDSTATUS")  # her own drop's board
        await bob.until("Your move")
        await bob.type("2")
        # bob's drop's board: only then is it ann's turn (CI once saw her leave before it).
        assert (await ann.line()).startswith("BOARDSTATUS")
        await ann.close()  # ann's connection drops on her turn
        await bob.until("ann lost the connection: the game waits 60 s for them to come back.")
        ann = await LobbyClient.connect(server.port)
        assert await ann.ask("LOGIN:ann:pw") == "LOGIN:ACKSTATUS:0"
        assert await ann.line() == "REJOIN:r1"
        await bob.until("ann is back.")
        assert (await ann.line()).startswith("INPROGRESS:ann:bob")
        assert (await ann.line()).startswith("BOARDSTATUS")
        await ann.send("DROP:1")
        assert (await ann.line()).startswith("BOARDSTATUS")
        await bob.until("ann: drop in column 1")  # the game went on for bob as for ann
        assert not any("Traceback" in line or "problem" in line for line in bob.seen)
        await ann.close()


async def test_a_console_that_logs_in_again_is_back_in_its_game_and_plays_on(
    tmp_path: Path,
) -> None:
    async with lobby_server(tmp_path) as server:
        ann, bob = await a_raw_ann_against_a_console_bob(server.port)
        await ann.send("DROP:1")
        assert (await ann.line()).startswith("BOARDSTATUS")
        await bob.until("Your move")
        bob.process.kill()  # bob's console dies on his turn
        await bob.process.wait()
        assert await ann.line() == "AWAY:bob:60"
        bob = await ConsoleProcess.start("--lobby", f"127.0.0.1:{server.port}", "--user", "bob")
        await bob.type("pw")
        await bob.until("Your game in r1 is still on: back in it.")
        await bob.until("Back in the game: ann (RED) against bob (YELLOW); bob is to move.")
        assert await ann.line() == "BACK:bob"
        await bob.until("Your move")
        await bob.type("2")
        assert (await ann.line()).startswith("BOARDSTATUS")  # the game went on
        await bob.until("RED's turn")
        assert not any("Traceback" in line or "problem" in line for line in bob.seen)
        await ann.close()
