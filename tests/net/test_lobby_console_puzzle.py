"""``puzzle`` at the console's ``lobby>`` (§8): the daily puzzle solved, reported, rated."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from pathlib import Path

from c4tui.console.lobby_puzzle import USAGE
from c4tui.puzzles.attempt import task_words
from c4tui.puzzles.collection import daily_puzzle, shipped_puzzles
from c4tui.puzzles.progress import PuzzleProgress
from tests.net.lobby_client import LobbyClient, lobby_server
from tests.net.test_lobby_console import TIMEOUT, console_user
from tests.net.test_lobby_puzzles import a_wrong_move


async def test_the_console_solves_the_daily_puzzle_and_the_server_keeps_the_rating(
    tmp_path: Path,
) -> None:
    day = datetime.now(UTC).date()
    puzzle = daily_puzzle(shipped_puzzles(), day)
    at_home = PuzzleProgress()
    at_home.record(puzzle, True, day.isoformat())
    rating = round(at_home.rating.rating)
    async with lobby_server(tmp_path) as server:
        ann = await console_user(server.port, "ann")
        await ann.type("puzzle tomorrow")
        await ann.until(USAGE)
        await ann.type("puzzle")
        await ann.until(f"Puzzle {puzzle.id} (rated {puzzle.rating}; your puzzle rating 1500).")
        await ann.until(task_words(puzzle))
        await ann.type("banana")  # not a move: asked again
        await ann.until("'banana' is not a move: type a column (1-7).")
        solver, defences = puzzle.solution[::2], puzzle.solution[1::2]
        for ply, move in enumerate(solver):
            await ann.type(move[1:])  # the column's digit, as a person types it
            if ply < len(defences):
                await ann.until(f"Right. The answer: {defences[ply]}.")
        await ann.until(f"Solved! Your puzzle rating: {rating} ({rating - 1500:+d}); streak 1.")
        await ann.type("puzzle")  # the same puzzle again: a retry, failed with a wrong move
        await ann.until(f"your puzzle rating {rating})")
        wrong = int(a_wrong_move(puzzle)[1:])
        await ann.type(str(wrong))
        await ann.until(f"d{wrong} is not the move.")
        await ann.until(f"The solution: {' '.join(puzzle.solution)}")
        await ann.until(f"Not solved. A retry is not rated: your puzzle rating stays {rating}.")
        await ann.type("help")
        await ann.until("puzzle [next]")
        await ann.type("quit")
        assert await asyncio.wait_for(ann.process.wait(), TIMEOUT) == 0
        elsewhere = await LobbyClient.connect(server.port)  # another machine, the same rating
        assert await elsewhere.ask("LOGIN:ann:pw") == "LOGIN:ACKSTATUS:0"
        assert (await elsewhere.ask("PUZZLE")).endswith(f":{rating}")
