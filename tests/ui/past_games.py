"""Finished games played through real clients on a real lobby server, for the app's My games.

ann (RED) and bob (YELLOW) play two games, both kept by the server:
1. 7 × 6 classic: ann holds a draw until her move 10 (column 1, where column 5 held),
   then bob wins (``tests/test_turning_point.py`` proves that endgame).
2. 5 × 4 classic: bob forfeits after two moves, ann wins; kept as if played on a 3+2
   clock (set in the store, as the start times are: its moves are not timed).
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from tests.net.lobby_client import LobbyClient, logged_in

#: Game 1's moves (1-based columns): the opening, then the endgame with ann's blunder.
BLUNDER_GAME = "3651433667521135" + "33155444"
#: The server's start time of every game, pinned so that lists and snapshots stay the same.
STARTED = "2026-11-26T23:05:16Z"
#: The clock the short game is kept with.
SHORT_GAME_CLOCK = "3+2"


async def play(ann: LobbyClient, bob: LobbyClient, room: str, game: str, digits: str) -> None:
    """ann creates ``room`` with ``game`` (``COLS:ROWS:RULES``), bob joins, they play ``digits``."""
    assert await ann.ask(f"CREATE:{room}:{game}") == "CREATE:ACKSTATUS:0"
    assert await bob.ask(f"JOIN:{room}:PLAYER") == "JOIN:ACKSTATUS:0"
    assert (await ann.line()).startswith("BEGIN"), "ann sees the game begin"
    assert (await bob.line()).startswith("BEGIN")
    for index, digit in enumerate(digits):
        await (ann if index % 2 == 0 else bob).send(f"DROP:{digit}")
        await ann.line()
        await bob.line()


async def two_finished_games(port: int, database: Path) -> None:
    """ann and bob (password ``pw``) finish the two games above; their start times pinned."""
    ann = await logged_in(port, "ann")
    bob = await logged_in(port, "bob")
    await play(ann, bob, "long game", "7:6:classic", BLUNDER_GAME)
    await play(ann, bob, "short game", "5:4:classic", "34")
    await bob.send("FORFEIT")
    assert (await ann.line()).startswith("GAMEEND")
    await bob.line()
    await ann.close()
    await bob.close()
    with sqlite3.connect(database) as db:  # both kept and ended before GAMEEND was sent
        pinned = db.execute("UPDATE games SET started = ? WHERE ended IS NOT NULL", (STARTED,))
        assert pinned.rowcount == 2, f"{pinned.rowcount} finished games kept, not 2"
        timed = "UPDATE games SET clock = ? WHERE room = 'short game'"
        assert db.execute(timed, (SHORT_GAME_CLOCK,)).rowcount == 1
