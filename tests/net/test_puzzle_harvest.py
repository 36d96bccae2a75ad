"""Puzzles from the lobby's finished games (§8, issue 41): searched in the pool, kept, bounded."""

from __future__ import annotations

import asyncio
import dataclasses
from pathlib import Path

from c4tui.engine import Move, Rules
from c4tui.lobby.journal import EndReason, GameBegan, GameFinished, MoveMade, MoveTakenBack
from c4tui.match.pool import SearchPool
from c4tui.protocols.puzzles import PuzzleOffer, puzzle_answer
from c4tui.protocols.terms import CASUAL, Terms
from c4tui.puzzles.collection import shipped_puzzles
from c4tui.puzzles.making import puzzles_in_game
from c4tui.server.puzzle_harvest import HARVEST_QUEUE, FinishedGames, PuzzleHarvest
from c4tui.server.sqlite_store import SqliteStore
from tests.net.lobby_client import TEST_ROUNDS, LobbyClient, lobby_server, logged_in
from tests.net.stores import run_sql, store_at
from tests.net.test_lobby_server import play
from tests.net.test_standing import begin

#: A whole game between two Easy levels (``puzzles.making.positions_of_game(102)``): red wins.
GAME = "53444467546366533"
#: Seconds a search may take on a loaded machine (the solver's first compile included).
SEARCH_TIMEOUT = 300
RATED = Terms(rated=True)


def began(room: str, settings: tuple[int, int, Rules], terms: Terms = RATED) -> GameBegan[object]:
    return GameBegan(room, "ann", "bob", settings, terms)


def test_only_rated_7_by_6_classic_games_are_followed_to_their_end() -> None:
    games = FinishedGames()
    journal = [
        began("r1", (7, 6, Rules.CLASSIC)),
        began("casual", (7, 6, Rules.CLASSIC), CASUAL),
        began("small", (4, 4, Rules.CLASSIC)),
        began("pop", (7, 6, Rules.POPOUT)),
    ]
    for room in ("r1", "casual", "small", "pop"):
        journal += [MoveMade(room, 1, Move.drop(3)), MoveMade(room, 2, Move.drop(2))]
    journal += [
        MoveTakenBack("r1", 2),
        MoveMade("r1", 2, Move.drop(4)),
        MoveMade("r1", 3, Move.drop(0)),
    ]
    assert games.read(journal) == []  # nothing has ended yet
    ends = [GameFinished(room, "ann", EndReason.FORFEIT) for room in ("casual", "small", "r1")]
    assert games.read([*ends, GameFinished("pop", None, EndReason.FULL)]) == ["451"]
    assert games.read([GameFinished("r1", None, EndReason.FULL)]) == []  # ended once only


async def test_the_queue_is_bounded_and_searched_one_game_at_a_time(tmp_path: Path) -> None:
    store, pool = SqliteStore(tmp_path / "db.sqlite3", TEST_ROUNDS), SearchPool(workers=1)
    await store.open()
    harvest = PuzzleHarvest(store, store, pool)  # the store keeps the journal as well
    try:
        offered = [harvest.offer(GAME) for _ in range(HARVEST_QUEUE + 5)]
        assert offered == [True] * HARVEST_QUEUE + [False] * 5
        assert harvest.passed_over == 5
        await asyncio.wait_for(harvest.searched_all(), SEARCH_TIMEOUT)
        assert harvest.searched == HARVEST_QUEUE
        assert pool.completed == HARVEST_QUEUE  # one job a game, one after another
        found = {puzzle.id for puzzle in puzzles_in_game(GAME)}
        assert found and {puzzle.id for puzzle in await store.found_puzzles()} == found
    finally:
        await harvest.stop()
        pool.shutdown()
        await store.close()


async def test_a_finished_rated_games_puzzles_land_in_the_store(
    tmp_path: Path, lobby_db: str
) -> None:
    expected = puzzles_in_game(GAME)
    assert expected
    async with lobby_server(tmp_path, lobby_db) as server:
        ann, bob = await logged_in(server.port, "ann"), await logged_in(server.port, "bob")
        await begin(ann, bob, "r1", ":7:6:classic:rated")
        for ply, column in enumerate(GAME):
            mover, other = (ann, bob) if ply % 2 == 0 else (bob, ann)
            last = ply == len(GAME) - 1
            await play(mover, [other], f"DROP:{column}", "GAMEEND" if last else "BOARDSTATUS")
        assert [(await ann.line()).split(":")[1] for _ in range(2)] == ["ann", "bob"]  # RATING
        await asyncio.wait_for(server.harvest.searched_all(), SEARCH_TIMEOUT)
        puzzle = expected[0]
        moves = ",".join(puzzle.solution[::2])
        answer = await ann.ask(f"PUZZLESOLVED:{puzzle.id}:{moves}")
        assert answer.startswith("PUZZLESOLVED:ACKSTATUS:0:solved:rated:"), answer
    store = store_at(lobby_db)
    await store.open()
    try:
        kept = await store.found_puzzles()
    finally:
        await store.close()
    assert {p.id: (p.moves, p.solution, p.goal, p.themes) for p in kept} == {
        p.id: (p.moves, p.solution, p.goal, p.themes) for p in expected
    }


async def test_next_serves_a_puzzle_found_in_a_game_beside_the_shipped_ones(
    tmp_path: Path, lobby_db: str
) -> None:
    """A found puzzle rated far above every shipped one is the nearest to a strong solver."""
    strongest = max(puzzle.rating for puzzle in shipped_puzzles())
    found = dataclasses.replace(puzzles_in_game(GAME)[0], rating=strongest + 1000)
    store = store_at(lobby_db)
    await store.open()
    try:
        assert await store.register("ann", "pw")
        assert await store.keep_found_puzzles([found]) == 1
        assert await store.keep_found_puzzles([found]) == 0  # known: left as it is
    finally:
        await store.close()
    run_sql(lobby_db, "UPDATE accounts SET puzzle_rating = ?", [(strongest + 1000.0,)])
    async with lobby_server(tmp_path, lobby_db) as server:
        ann = await LobbyClient.connect(server.port)
        assert await ann.ask("LOGIN:ann:pw") == "LOGIN:ACKSTATUS:0"
        answer = await ann.ask("PUZZLE:NEXT")
    assert answer == puzzle_answer(
        PuzzleOffer(
            found.id,
            found.moves,
            found.goal,
            found.solution,
            found.themes,
            found.rating,
            strongest + 1000,
        )
    )
