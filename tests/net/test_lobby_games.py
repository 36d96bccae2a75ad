"""Every lobby game kept (spec §5.1, §5.2): the store, HISTORY and GAME, and a kill -9."""

from __future__ import annotations

import asyncio
import re
import signal
import sqlite3
from collections.abc import Sequence
from pathlib import Path

import bcrypt

from c4tui.engine import Move, Rules
from c4tui.lobby.journal import EndReason, GameEvent, MoveMade
from c4tui.lobby.kinds import ConnectFourSettings
from c4tui.server.sqlite_store import SCHEMA_VERSION, SqliteStore
from c4tui.server.store import LoginResult, NewRatings, password_digest
from tests.net.lobby_client import TEST_ROUNDS, LobbyClient, lobby_server, logged_in
from tests.net.stores import store_at
from tests.net.test_lobby_server import play, playing
from tests.net.test_serve_command import start

ISO_UTC = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ")
#: ann (red) wins in column 1 on a 4 x 4 classic board: seven moves.
ANN_WINS = ["DROP:1", "DROP:2", "DROP:1", "DROP:2", "DROP:1", "DROP:2", "DROP:1"]


def _accounts_only_database(path: Path) -> None:
    """A file as servers wrote it before games were kept (user_version 0)."""
    connection = sqlite3.connect(path, isolation_level=None)
    connection.execute("PRAGMA journal_mode=WAL")
    connection.execute(
        "CREATE TABLE IF NOT EXISTS accounts ("
        "name TEXT PRIMARY KEY, hash BLOB NOT NULL, created REAL NOT NULL)"
    )
    hashed = bcrypt.hashpw(password_digest("old-pw"), bcrypt.gensalt(TEST_ROUNDS))
    connection.execute("INSERT INTO accounts VALUES ('old', ?, 0)", (hashed,))
    connection.close()


async def test_an_accounts_only_database_opens_and_gains_the_games(tmp_path: Path) -> None:
    path = tmp_path / "accounts.sqlite3"
    _accounts_only_database(path)
    store = SqliteStore(path, TEST_ROUNDS)
    await store.open()
    try:
        assert await store.check("old", "old-pw") is LoginResult.OK
        assert await store.history("old") == []
        number = await store.game_started("r", "old", "new", (7, 6, Rules.POPOUT))
        assert await store.game(number) is not None
    finally:
        await store.close()
    connection = sqlite3.connect(path)
    assert connection.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    tables = {row[0] for row in connection.execute("SELECT name FROM sqlite_master")}
    assert {"accounts", "games", "moves"} <= tables
    reopened = SqliteStore(path, TEST_ROUNDS)  # a second open changes nothing
    await reopened.open()
    assert await reopened.check("old", "old-pw") is LoginResult.OK
    await reopened.close()


async def test_the_store_keeps_a_game_from_start_to_end(lobby_db: str) -> None:
    store = store_at(lobby_db)
    await store.open()
    try:
        for user in ("ann", "bob"):
            assert await store.register(user, "pw")
        first = await store.game_started("r1", "ann", "bob", (4, 4, Rules.CLASSIC))
        second = await store.game_started("r2", "bob", "ann", (7, 6, Rules.POPOUT))
        await store.move_played(second, 1, Move.drop(3))
        await store.move_played(second, 2, Move.pop(3))
        assert [game.number for game in await store.unfinished_games()] == [first, second]
        await store.game_ended(first, None, EndReason.FULL)
        await store.game_ended(second, "ann", EndReason.FORFEIT)
        assert await store.unfinished_games() == []
        assert await store.history("ann") == [second, first]  # newest first
        assert await store.history("nobody") is None
        kept = await store.game(second)
        assert kept is not None
        assert (kept.room, kept.red, kept.yellow) == ("r2", "bob", "ann")
        assert kept.settings == (7, 6, Rules.POPOUT)
        assert kept.moves == (Move.drop(3), Move.pop(3))
        assert (kept.winner, kept.reason, kept.rated) == ("ann", EndReason.FORFEIT, False)
        assert ISO_UTC.fullmatch(kept.started) and kept.ended and ISO_UTC.fullmatch(kept.ended)
        assert await store.game(999) is None
    finally:
        await store.close()


async def test_history_and_game_answer_from_the_store(tmp_path: Path, lobby_db: str) -> None:
    async with lobby_server(tmp_path, lobby_db) as server:
        stranger = await LobbyClient.connect(server.port)
        assert await stranger.ask("REGISTER:cid:pw") == "REGISTER:ACKSTATUS:0"
        assert await stranger.ask("HISTORY") == "BADAUTH"
        ann, bob = await playing(server.port, ":4:4:classic")
        assert await ann.ask("HISTORY") == "HISTORY:ACKSTATUS:0:"  # in progress: not yet
        for index, move in enumerate(ANN_WINS):
            mover, other = (ann, bob) if index % 2 == 0 else (bob, ann)
            last = await play(mover, [other], move, "BOARDSTATUS" if index < 6 else "GAMEEND")
        assert last.endswith(":0:ann")
        history = await ann.ask("HISTORY")
        number = history.removeprefix("HISTORY:ACKSTATUS:0:")
        assert number.isdigit()
        assert await bob.ask("HISTORY") == history
        assert await ann.ask("HISTORY:bob") == history
        assert await ann.ask("HISTORY:cid") == "HISTORY:ACKSTATUS:0:"  # an account, no games
        assert await ann.ask("HISTORY:nobody") == "HISTORY:ACKSTATUS:1"
        assert await ann.ask("HISTORY:no body") == "HISTORY:ACKSTATUS:1"
        answer = await ann.ask(f"GAME:{number}")
        fields = answer.split(":", 15)
        moves = "d1 d2 d1 d2 d1 d2 d1"
        assert fields[:14] == [
            *["GAME", "ACKSTATUS", "0", number, "ann", "bob", "4", "4", "classic"],
            *["ann", "four", moves, "0", fields[13]],
        ]
        started, clock = answer.split(":", 13)[13].rsplit(":", 1)
        assert ISO_UTC.fullmatch(started) and clock == "-", answer  # no clock: "-", last
        assert await ann.ask("GAME:999") == "GAME:ACKSTATUS:1"
        assert await ann.ask("GAME:x") == "GAME:ACKSTATUS:1"
        assert await ann.ask("GAME") == "GAME:ACKSTATUS:1"


async def test_a_forfeit_and_a_disconnect_are_kept_with_their_reasons(
    tmp_path: Path, lobby_db: str
) -> None:
    async with lobby_server(tmp_path, lobby_db, reconnect_grace=1) as server:
        ann, bob = await playing(server.port)
        await play(ann, [bob], "DROP:4", "BOARDSTATUS")
        await play(bob, [ann], "FORFEIT", "GAMEEND")
        assert await bob.ask("CREATE:r2") == "CREATE:ACKSTATUS:0"
        assert await ann.ask("JOIN:r2:PLAYER") == "JOIN:ACKSTATUS:0"
        await ann.line(), await bob.line()
        await ann.close()
        assert await bob.line() == "AWAY:ann:1"
        assert (await bob.line()).endswith(":2:bob")  # the grace ran out
        numbers = (await bob.ask("HISTORY")).removeprefix("HISTORY:ACKSTATUS:0:").split(",")
        disconnect, forfeit = [await bob.ask(f"GAME:{n}") for n in numbers]
        assert disconnect.split(":")[9:12] == ["bob", "disconnect", ""]
        assert forfeit.split(":")[9:12] == ["ann", "forfeit", "d4"]


def test_every_announced_move_is_on_disk_after_a_kill(tmp_path: Path) -> None:
    database = tmp_path / "accounts.sqlite3"
    columns = [4, 4, 3, 5, 2, 6, 1]  # red's four along the bottom row is its seventh move

    async def announce_moves(port: int) -> None:
        ann = await logged_in(port, "ann")
        bob = await logged_in(port, "bob")
        assert await ann.ask("CREATE:r1") == "CREATE:ACKSTATUS:0"
        assert await bob.ask("JOIN:r1:PLAYER") == "JOIN:ACKSTATUS:0"
        await ann.line(), await bob.line()
        for index, column in enumerate(columns[:-1]):
            mover, other = (ann, bob) if index % 2 == 0 else (bob, ann)
            await play(mover, [other], f"DROP:{column}", "BOARDSTATUS")  # announced: kill now

    process, port = start(tmp_path / "serve.log", "--db", str(database), "--bcrypt-rounds", "4")
    try:
        asyncio.run(announce_moves(port))
    finally:
        process.send_signal(signal.SIGKILL)  # no clean shutdown: only what was committed
        process.wait(10)
    connection = sqlite3.connect(database)
    game = connection.execute("SELECT room, red, yellow, ended FROM games").fetchall()
    assert game == [("r1", "ann", "bob", None)]  # begun, not ended
    moves = connection.execute("SELECT ply, move FROM moves ORDER BY ply").fetchall()
    assert moves == [(ply, f"d{column}") for ply, column in enumerate(columns[:-1], start=1)]


class HeldStore(SqliteStore):
    """The real store, where a journal with a move waits for ``release`` before it is written."""

    def __init__(self, path: Path) -> None:
        super().__init__(path, TEST_ROUNDS, exclusive=False)  # beside the server's own
        self.release = asyncio.Event()

    async def keep(
        self, journal: Sequence[GameEvent[ConnectFourSettings, Move]]
    ) -> list[NewRatings]:
        if any(isinstance(event, MoveMade) for event in journal):
            await self.release.wait()
        return await super().keep(journal)


async def test_a_move_is_announced_only_once_it_is_written(tmp_path: Path) -> None:
    async with lobby_server(tmp_path) as server:
        held = HeldStore(tmp_path / "accounts.sqlite3")  # the same file, a second connection
        await held.open()
        server.lobby.keeper = held
        try:
            ann, bob = await playing(server.port)
            await ann.send("DROP:4")
            await bob.send("CHAT:waiting")  # acts after the move wait their turn too
            assert await ann.quiet(0.3) and await bob.quiet(0.1)
            held.release.set()
            for client in (ann, bob):
                assert (await client.line()).startswith("BOARDSTATUS")
                assert await client.line() == "CHAT:bob:waiting"
            (number,) = [game.number for game in await held.unfinished_games()]
            stored = await held.game(number)
            assert stored is not None and stored.moves == (Move.drop(3),)
        finally:
            await held.close()
