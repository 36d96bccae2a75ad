"""Ratings, records, profiles, the leaderboard and passwords over real sockets (spec §5.3)."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import psycopg
import pytest

from c4tui.engine import Move, Rules
from c4tui.lobby.journal import EndReason
from c4tui.lobby.ratings import Rating, Result, rated
from c4tui.protocols.competition import PROVISIONAL_DEVIATION
from c4tui.server.sql_standing import LEADERBOARD_QUERY
from c4tui.server.sqlite_store import MIGRATIONS, SqliteStore
from c4tui.server.stores import is_postgres
from tests.net.lobby_client import TEST_ROUNDS, LobbyClient, lobby_server, logged_in
from tests.net.stores import run_sql, store_at
from tests.net.test_lobby_games import ANN_WINS, _accounts_only_database
from tests.net.test_lobby_server import play

#: A time for the leaderboard's query (epoch seconds): its bans are read at it.
NOW = 1_800_000_000.0

RATED_4_BY_4 = ":4:4:classic:rated"


async def rated_game(port: int, terms: str = RATED_4_BY_4) -> tuple[LobbyClient, LobbyClient]:
    """ann (red) and bob (yellow) at the start of a game in room r1 on ``terms``."""
    ann, bob = await logged_in(port, "ann"), await logged_in(port, "bob")
    await begin(ann, bob, "r1", terms)
    return ann, bob


async def begin(red: LobbyClient, yellow: LobbyClient, room: str, terms: str) -> None:
    """``red`` creates ``room`` on ``terms``, ``yellow`` joins: both are told BEGIN."""
    assert await red.ask(f"CREATE:{room}{terms}") == "CREATE:ACKSTATUS:0"
    assert await yellow.ask(f"JOIN:{room}:PLAYER") == "JOIN:ACKSTATUS:0"
    for client in (red, yellow):
        assert (await client.line()).startswith("BEGIN:")


async def ann_beats_bob(ann: LobbyClient, bob: LobbyClient) -> None:
    """Seven moves: ann's four in column 1 (GAMEEND to both)."""
    for ply, move in enumerate(ANN_WINS):
        mover = ann if ply % 2 == 0 else bob
        other = bob if mover is ann else ann
        await play(mover, [other], move, "GAMEEND" if ply == len(ANN_WINS) - 1 else "BOARDSTATUS")


def expected_after_a_win() -> tuple[Rating, Rating]:
    """Two new accounts' ratings after the first beats the second (one game, one period)."""
    return rated(Rating(), [Result(Rating(), 1)]), rated(Rating(), [Result(Rating(), 0)])


async def test_a_rated_game_tells_both_players_both_new_ratings(
    tmp_path: Path, lobby_db: str
) -> None:
    winner, loser = expected_after_a_win()
    up, down = round(winner.rating), round(loser.rating)
    async with lobby_server(tmp_path, lobby_db) as server:
        ann, bob = await rated_game(server.port)
        await ann_beats_bob(ann, bob)
        for client in (ann, bob):  # red's, then yellow's, to each
            assert await client.line() == f"RATING:ann:{up}:{up - 1500:+d}"
            assert await client.line() == f"RATING:bob:{down}:{down - 1500:+d}"
        assert up > 1500 > down
        profile = await ann.ask("PROFILE:bob")
        deviation = round(loser.deviation)
        assert profile == f"PROFILE:ACKSTATUS:0:bob:{down}:{deviation}:1:0:0:1:0:player"
        assert await ann.ask("PROFILE:ann") == (
            f"PROFILE:ACKSTATUS:0:ann:{up}:{round(winner.deviation)}:1:1:0:0:0:player"
        )


async def test_a_casual_game_and_an_abort_change_no_rating(tmp_path: Path, lobby_db: str) -> None:
    async with lobby_server(tmp_path, lobby_db) as server:
        ann, bob = await rated_game(server.port, ":4:4:classic:casual")
        await ann_beats_bob(ann, bob)
        assert await ann.quiet(0.3) and await bob.quiet(0.1)
        # A rated game given up after one move is not rated, but counts in the records.
        await begin(ann, bob, "r2", RATED_4_BY_4)
        await play(ann, [bob], "DROP:1", "BOARDSTATUS")
        await play(bob, [ann], "FORFEIT", "GAMEEND")
        assert await ann.quiet(0.3) and await bob.quiet(0.1)
        assert await ann.ask("PROFILE:bob") == "PROFILE:ACKSTATUS:0:bob:1500:350:2:0:0:2:0:player"
        assert await ann.ask("PROFILE:nobody") == "PROFILE:ACKSTATUS:1"
        assert await ann.ask("LEADERBOARD") == "LEADERBOARD:ACKSTATUS:0:"


async def test_a_rating_for_a_player_who_has_gone_is_not_sent(
    tmp_path: Path, lobby_db: str
) -> None:
    async with lobby_server(tmp_path, lobby_db, reconnect_grace=0) as server:
        ann, bob = await rated_game(server.port)
        await play(ann, [bob], "DROP:1", "BOARDSTATUS")
        await play(bob, [ann], "DROP:2", "BOARDSTATUS")
        await bob.close()  # gone: the game ends as a forfeit, rated (both have moved)
        assert (await ann.line()).startswith("GAMEEND:")
        assert (await ann.line()).startswith("RATING:ann:")
        assert (await ann.line()).startswith("RATING:bob:")
        assert (await ann.ask("PROFILE:bob")).startswith("PROFILE:ACKSTATUS:0:bob:1")


async def test_profiles_and_the_leaderboard_are_true_after_a_restart(
    tmp_path: Path, lobby_db: str
) -> None:
    async with lobby_server(tmp_path, lobby_db) as server:
        ann, bob = await rated_game(server.port)
        await ann_beats_bob(ann, bob)
        assert (await ann.line()).startswith("RATING:ann") and await ann.line()
        before = await ann.ask("PROFILE:ann")
    # Deviations above 110 keep both off the leaderboard; make ann's established.
    run_sql(lobby_db, "UPDATE accounts SET deviation = 60 WHERE name = 'ann'")
    winner, _ = expected_after_a_win()
    async with lobby_server(tmp_path, lobby_db) as server:
        cid = await logged_in(server.port, "cid")
        after = await cid.ask("PROFILE:ann")
        assert after.split(":")[:5] == before.split(":")[:5] and after.endswith(":1:1:0:0:0:player")
        assert await cid.ask("LEADERBOARD") == f"LEADERBOARD:ACKSTATUS:0:ann={round(winner.rating)}"


async def test_the_leaderboard_reads_the_partial_index(tmp_path: Path) -> None:
    store = SqliteStore(tmp_path / "accounts.sqlite3", TEST_ROUNDS)
    await store.open()
    await store.close()
    connection = sqlite3.connect(tmp_path / "accounts.sqlite3")
    explained = connection.execute(f"EXPLAIN QUERY PLAN {LEADERBOARD_QUERY}", (NOW,))
    plan = " ".join(row[3] for row in explained)
    assert "USING INDEX accounts_by_rating" in plan and "TEMP B-TREE" not in plan
    assert f"deviation < {PROVISIONAL_DEVIATION}" in LEADERBOARD_QUERY


async def test_the_leaderboard_lists_the_20_best_established_ones(
    tmp_path: Path, lobby_db: str
) -> None:
    async with lobby_server(tmp_path, lobby_db) as server:
        await (await logged_in(server.port, "ann")).close()
    rows = [
        (f"p{n}", b"x", 0, 1000 + n, 50 if n % 3 else 200, 1 if n != 40 else 0) for n in range(60)
    ]
    run_sql(
        lobby_db,
        "INSERT INTO accounts (name, hash, created, rating, deviation, rated_games)"
        " VALUES (?, ?, ?, ?, ?, ?)",
        rows,
    )
    best = [n for n in range(59, -1, -1) if n % 3 and n != 40][:20]
    async with lobby_server(tmp_path, lobby_db) as server:
        ann = await LobbyClient.connect(server.port)
        assert await ann.ask("LOGIN:ann:pw") == "LOGIN:ACKSTATUS:0"
        answer = await ann.ask("LEADERBOARD")
        assert answer == "LEADERBOARD:ACKSTATUS:0:" + ",".join(f"p{n}={1000 + n}" for n in best)
        assert await ann.ask("LEADERBOARD:x") == "LEADERBOARD:ACKSTATUS:1"


async def test_an_old_database_migrates_and_its_finished_games_count(tmp_path: Path) -> None:
    """A version-1 file (games kept, no ratings) gains the columns; its games count."""
    path = tmp_path / "accounts.sqlite3"
    _accounts_only_database(path)
    connection = sqlite3.connect(path, isolation_level=None)
    for statement in MIGRATIONS[0]:
        connection.execute(statement)
    connection.execute("PRAGMA user_version = 1")
    games = [("old", "new", "old"), ("new", "old", None), ("old", "new", "new")]
    for red, yellow, winner in games:
        connection.execute(
            'INSERT INTO games (room, red, yellow, "columns", "rows", rules, started, ended,'
            " winner, reason) VALUES ('r', ?, ?, 7, 6, 'classic', 'then', 'later', ?, 'four')",
            (red, yellow, winner),
        )
    connection.execute(  # one still under way: not counted
        'INSERT INTO games (room, red, yellow, "columns", "rows", rules, started)'
        " VALUES ('u', 'old', 'new', 7, 6, 'classic', 'then')"
    )
    connection.close()
    store = SqliteStore(path, TEST_ROUNDS)
    await store.open()
    try:
        info = await store.profile("old")
        assert info is not None
        record = (info.games, info.wins, info.draws, info.losses)
        assert (record, info.rating, info.deviation) == ((3, 1, 1, 1), 1500, 350)
    finally:
        await store.close()


async def test_registerbot_marks_the_account(tmp_path: Path, lobby_db: str) -> None:
    async with lobby_server(tmp_path, lobby_db) as server:
        client = await LobbyClient.connect(server.port)
        assert await client.ask("REGISTERBOT:robo:s:e:c") == "REGISTERBOT:ACKSTATUS:0"
        assert await client.ask("REGISTERBOT:robo:other") == "REGISTERBOT:ACKSTATUS:1"
        assert await client.ask("REGISTERBOT:bad name:pw") == "REGISTERBOT:ACKSTATUS:2"
        assert await client.ask("LOGIN:robo:s:e:c") == "LOGIN:ACKSTATUS:0"
        assert (
            await client.ask("PROFILE:robo") == "PROFILE:ACKSTATUS:0:robo:1500:350:0:0:0:0:1:player"
        )


async def test_a_changed_password_logs_in_and_the_old_one_no_longer(
    tmp_path: Path, lobby_db: str
) -> None:
    async with lobby_server(tmp_path, lobby_db) as server:
        ann = await logged_in(server.port, "ann", "old:pw")
        assert await ann.ask("NEWPASSWORD:new") == "NEWPASSWORD:ACKSTATUS:1"  # no PASSWORD
        assert await ann.ask("PASSWORD:old:pw") == "PASSWORD:ACKSTATUS:0"
        assert await ann.ask("NEWPASSWORD:bad pw") == "NEWPASSWORD:ACKSTATUS:2"
        assert await ann.ask("NEWPASSWORD:new:pw") == "NEWPASSWORD:ACKSTATUS:0"
        assert await ann.ask("NEWPASSWORD:again") == "NEWPASSWORD:ACKSTATUS:1"  # once per check
        other = await LobbyClient.connect(server.port)
        assert await other.ask("LOGIN:ann:old:pw") == "LOGIN:ACKSTATUS:2"
        assert await other.ask("LOGIN:ann:new:pw") == "LOGIN:ACKSTATUS:0"


async def test_a_wrong_password_is_refused_and_slowed_like_a_login(tmp_path: Path) -> None:
    async with lobby_server(tmp_path) as server:
        ann = await logged_in(server.port, "ann", "right")
        loop = asyncio.get_running_loop()
        times = []
        for _ in range(3):
            began = loop.time()
            assert await ann.ask("PASSWORD:wrong") == "PASSWORD:ACKSTATUS:1"
            times.append(loop.time() - began)
        assert times[2] >= 0.95  # the third failure: 1 s, as LOGIN's
        assert await ann.ask("NEWPASSWORD:new") == "NEWPASSWORD:ACKSTATUS:1"
        guesser = await LobbyClient.connect(server.port)
        began = loop.time()  # the user's count is shared with LOGIN
        assert await guesser.ask("LOGIN:ann:wrong") == "LOGIN:ACKSTATUS:2"
        assert loop.time() - began >= 1.95


async def test_a_password_check_expires(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("c4tui.server.standing.NEW_PASSWORD_WITHIN", 0.2)
    async with lobby_server(tmp_path) as server:
        ann = await logged_in(server.port, "ann", "right")
        assert await ann.ask("PASSWORD:right") == "PASSWORD:ACKSTATUS:0"
        await asyncio.sleep(0.4)
        assert await ann.ask("NEWPASSWORD:new") == "NEWPASSWORD:ACKSTATUS:1"


#: A failure of each engine's disk, as its driver raises it.
DISK_ERRORS = {"sqlite": sqlite3.OperationalError, "postgresql": psycopg.OperationalError}


async def test_a_failure_while_rating_keeps_nothing_of_the_end(
    lobby_db: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The end, the records and the ratings are one transaction: all of it or none."""
    store = store_at(lobby_db)
    disk_error = DISK_ERRORS["postgresql" if is_postgres(lobby_db) else "sqlite"]
    await store.open()
    try:
        for user in ("ann", "bob"):
            assert await store.register(user, "pw")
        number = await store.game_started("r", "ann", "bob", (4, 4, Rules.CLASSIC), rated=True)
        for ply in (1, 2):
            await store.move_played(number, ply, Move.drop(ply))

        def broken(*arguments: object) -> None:
            raise disk_error("disk I/O error")

        monkeypatch.setattr("c4tui.server.sql_standing._rate", broken)
        with pytest.raises(disk_error):
            await store.game_ended(number, "ann", EndReason.FOUR)
        assert [game.number for game in await store.unfinished_games()] == [number]
        info = await store.profile("ann")
        assert info is not None and (info.games, info.wins, info.rating) == (0, 0, 1500)
        monkeypatch.undo()
        changed = await store.game_ended(number, "ann", EndReason.FOUR)
        assert changed is not None and changed.red.change > 0 > changed.yellow.change
    finally:
        await store.close()
