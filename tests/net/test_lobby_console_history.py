"""``history``, ``show`` and ``save`` in ``c4tui console --lobby``, against a real server."""

from __future__ import annotations

import asyncio
from pathlib import Path

from c4tui.engine import render_board
from c4tui.protocols.names import USER_RULE
from c4tui.records.store import read_record, saved_games
from tests.net.lobby_client import LobbyClient, lobby_server
from tests.net.test_lobby_console import (
    TIMEOUT,
    ConsoleProcess,
    a_raw_ann_against_a_console_bob,
    console_user,
)

PROMPT = "lobby> "
#: The board bob wins on (``bob_wins_a_game``), its winning four marked.
FINAL_BOARD = ["1  2  3  4", ".  Y* .  .", ".  Y* .  .", "R  Y* .  .", "R  Y* R  R"]


async def answer(console: ConsoleProcess, command: str, last: str) -> list[str]:
    """Type ``command``; the lines printed up to the one holding ``last``, prompts left out."""
    start = len(console.seen)
    await console.type(command)
    await console.until(last)
    return [line.removeprefix(PROMPT) for line in console.seen[start:]]


async def bob_wins_a_game(port: int) -> tuple[LobbyClient, ConsoleProcess]:
    """ann (raw, RED) and bob (the console, YELLOW) play 4 × 4 classic; bob wins up column 2."""
    ann, bob = await a_raw_ann_against_a_console_bob(port)
    for column in (1, 1, 3, 4):
        await ann.send(f"DROP:{column}")
        await ann.line()
        await bob.until("Your move")
        await bob.type("2")
        await ann.line()
    await bob.until("Back in the lobby")
    return ann, bob


async def started_of_game_one(ann: LobbyClient) -> str:
    """When game 1 started, as the history says it: ``2026-11-26 23:05``."""
    kept = await ann.ask("GAME:1")
    assert kept.startswith("GAME:ACKSTATUS:0:1:ann:bob:4:4:classic:bob:four:"), kept
    started = kept.split(":", 13)[13]  # 2026-11-26T23:05:16Z
    return started[:10] + " " + started[11:16]


async def test_history_lists_your_games_and_another_users(tmp_path: Path) -> None:
    async with lobby_server(tmp_path) as server:
        carol = await console_user(server.port, "carol")
        assert await answer(carol, "history", "finished") == ["You have no finished games yet."]
        await carol.type("quit")
        assert await asyncio.wait_for(carol.process.wait(), TIMEOUT) == 0
        ann, bob = await bob_wins_a_game(server.port)
        when = await started_of_game_one(ann)
        assert await answer(bob, "history", "moves") == [
            f"1  {when} UTC  against ann  YELLOW  won (four in a row)  8 moves"
        ]
        assert await answer(bob, "history ann", "moves") == [
            f"1  {when} UTC  against bob  RED  lost (four in a row)  8 moves"
        ]
        assert await answer(bob, "history nobody", "No such user") == ["No such user: nobody."]
        assert await answer(bob, "history 1x!", "No such user") == [
            f"No such user: 1x! (a user name is {USER_RULE})."  # nobody can be: the rule says why
        ]
        assert (await answer(bob, "help", "save ID"))[-3:] == [
            "  history [USER]                 your finished games (or USER's), newest first",
            "  show ID                        one finished game: its moves and final board",
            "  save ID [FILE]                 save it as a game record (c4tui replay opens it)",
        ]
        await bob.type("quit")
        assert await asyncio.wait_for(bob.process.wait(), TIMEOUT) == 0


async def test_show_prints_the_game_and_its_final_board(tmp_path: Path) -> None:
    async with lobby_server(tmp_path) as server:
        ann, bob = await bob_wins_a_game(server.port)
        when = await started_of_game_one(ann)
        assert await answer(bob, "show 1", "save 1") == [
            "Game 1: ann (RED) against bob (YELLOW)",
            f"4 × 4 classic, started {when} UTC",
            "Result: bob (YELLOW) wins (four in a row).",
            "Moves (8): d1 d2 d1 d2 d3 d2 d4 d2",
            *FINAL_BOARD,
            "(The winning four are marked *.)",
            "save 1 [FILE] saves it as a game record (c4tui replay FILE opens it).",
        ]
        assert await answer(bob, "show 999", "No game") == ["No game 999."]
        assert await answer(bob, "show one", "Usage") == ["Usage: show ID"]
        await bob.type("quit")
        assert await asyncio.wait_for(bob.process.wait(), TIMEOUT) == 0


async def test_save_writes_a_record_that_replays_to_the_final_position(
    tmp_path: Path, private_data_directory: Path
) -> None:
    async with lobby_server(tmp_path) as server:
        _, bob = await bob_wins_a_game(server.port)
        file = tmp_path / "won.c4g"
        assert await answer(bob, f"save 1 {file}", "Saved") == [
            f"Saved game 1 as {file} (c4tui replay {file} opens it)."
        ]
        (default,) = await answer(bob, "save 1", "Saved")
        assert await answer(bob, "save 999", "No game") == ["No game 999."]
        await bob.type("quit")
        assert await asyncio.wait_for(bob.process.wait(), TIMEOUT) == 0
    (in_folder,) = saved_games()
    assert default == f"Saved game 1 as {in_folder} (c4tui replay {in_folder} opens it)."
    for path in (file, in_folder):
        record = read_record(path)
        assert (record.red, record.yellow, record.columns, record.rows) == ("ann", "bob", 4, 4)
        assert record.result.value == "yellow wins" and record.reason == "four in a row"
        assert render_board(record.final_state(), mark_win=True).splitlines() == FINAL_BOARD


async def test_save_into_a_missing_folder_is_refused_naming_it(
    tmp_path: Path, private_data_directory: Path
) -> None:
    """No folder is made silently (a typo in a path would hide the record elsewhere)."""
    async with lobby_server(tmp_path) as server:
        _, bob = await bob_wins_a_game(server.port)
        missing = tmp_path / "no" / "such"
        assert await answer(bob, f"save 1 {missing / 'won.c4g'}", "Not saved") == [
            f"Not saved: there is no folder {missing} (make it first, or name another)."
        ]
        assert not (tmp_path / "no").exists()
        await bob.type("quit")
        assert await asyncio.wait_for(bob.process.wait(), TIMEOUT) == 0
