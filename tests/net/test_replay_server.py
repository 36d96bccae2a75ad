"""``c4tui replay --server HOST:PORT --user NAME GAME_ID``: a kept game from a real server."""

from __future__ import annotations

import argparse
import asyncio
import io
import socket
from collections.abc import Iterator
from pathlib import Path

import pytest

from c4tui.cli import main
from c4tui.engine import Move
from c4tui.protocols.past import KeptGame
from c4tui.records import Result
from c4tui.records.store import read_record
from c4tui.server.core import C4Server
from c4tui.ui.app import C4App
from c4tui.ui.screens.past_review import PastGameReview
from tests.net.lobby_client import LobbyClient, lobby_server_in_a_thread
from tests.process_helpers import run_c4tui
from tests.ui.past_games import BLUNDER_GAME, two_finished_games
from tests.ui.test_lobby_app import until


@pytest.fixture
def server(tmp_path: Path) -> Iterator[str]:
    """A lobby server with ann's and bob's two finished games; its ``HOST:PORT``."""
    database = tmp_path / "games.sqlite3"

    async def prepare(server: C4Server) -> None:
        await two_finished_games(server.port, database)

    with lobby_server_in_a_thread(database, prepare) as running:
        yield f"127.0.0.1:{running.port}"


def replay(server: str, *args: str, password: str | None = "pw\n"):
    return run_c4tui("replay", "--server", server, *args, stdin=password)


def test_save_fetches_the_game_as_a_record_that_replay_opens(server: str, tmp_path: Path) -> None:
    file = tmp_path / "lost.c4g"
    result = replay(server, "--user", "ann", "--save", str(file), "1")
    assert result.returncode == 0, result.stderr
    assert result.stdout == f"Saved game 1 as {file} (c4tui replay {file} opens it).\n"
    record = read_record(file)
    assert record.moves == tuple(Move.drop(int(digit) - 1) for digit in BLUNDER_GAME)
    assert (record.red, record.yellow, record.columns, record.rows) == ("ann", "bob", 7, 6)
    assert record.result is Result.YELLOW and record.reason == "four in a row"


@pytest.mark.parametrize(
    ("args", "password", "said"),
    [
        (["--user", "ann", "1"], "wrong\n", "Cannot log in: "),
        (["--user", "nobody", "1"], "pw\n", "Cannot log in: No such user."),
        (["--user", "ann", "999"], "pw\n", "keeps no game 999."),
        (["--user", "ann", "one"], "pw\n", "GAME_ID is a game's number, not 'one'"),
        (["1"], "pw\n", "--server needs --user NAME"),
        (["--user", "ann", "1"], None, "no password for ann (the first line of input)"),
    ],
    ids=["wrong-password", "no-such-user", "no-such-game", "not-a-number", "no-user", "no-input"],
)
def test_refusals_are_usage_errors_in_words(
    server: str, args: list[str], password: str | None, said: str
) -> None:
    result = replay(server, *args, password=password)
    assert result.returncode == 2
    assert result.stderr.startswith("c4tui replay: error: ")
    assert said in result.stderr
    assert "Traceback" not in result.stderr


def test_a_server_out_of_reach_is_said_and_exits_1() -> None:
    with socket.socket() as nobody:  # a port nobody listens on once it is closed
        nobody.bind(("127.0.0.1", 0))
        port = nobody.getsockname()[1]
    result = replay(f"127.0.0.1:{port}", "--user", "ann", "1")
    assert result.returncode == 1
    assert result.stderr.startswith(f"c4tui replay: Cannot connect to 127.0.0.1:{port}")
    assert "Traceback" not in result.stderr


def test_user_and_save_go_with_server_only() -> None:
    result = run_c4tui("replay", "--save", "x.c4g", "4453")
    assert result.returncode == 2
    assert "--user and --save go with --server HOST:PORT" in result.stderr


def test_without_save_the_fetched_game_opens_in_the_apps_review_with_verdicts(
    server: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The game fetched goes to the app, which reviews it as My games does (it runs here)."""
    opened: list[tuple[KeptGame, str]] = []

    def open_app(_args: argparse.Namespace, *, past_game: tuple[KeptGame, str]) -> int:
        opened.append(past_game)
        return 0

    monkeypatch.setattr("c4tui.cli.replay.open_app", open_app)
    monkeypatch.setattr("sys.stdin", io.StringIO("pw\n"))
    assert main(["replay", "--server", server, "--user", "bob", "1"]) == 0
    (past_game,) = opened
    kept, viewer = past_game
    assert (kept.number, kept.red, kept.yellow, viewer) == (1, "ann", "bob", "bob")

    async def review_it() -> None:
        app = C4App(past_game=past_game)
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.pause()
            review = app.screen
            assert isinstance(review, PastGameReview)
            await until(pilot, lambda: review.analysed, 90)
            assert review.turning is not None and review.turning.number == 19
            await pilot.press("end")
            await pilot.pause()
            assert review.board.state.disc_count == len(BLUNDER_GAME)
            await pilot.press("escape")  # back to the menu
            await pilot.pause()
            assert not isinstance(app.screen, PastGameReview)

    asyncio.run(review_it())


def test_fetching_while_a_game_is_under_way_warns_that_it_took_the_game(
    server: str, tmp_path: Path
) -> None:
    """The newest login wins (§5.1): fetching as ann takes her game in play to this
    connection, which then closes; she is told, rather than finding out from her game."""
    port = int(server.rsplit(":", 1)[1])

    async def fetch_while_ann_plays() -> tuple[str, str]:
        ann = await LobbyClient.connect(port)
        assert await ann.ask("LOGIN:ann:pw") == "LOGIN:ACKSTATUS:0"
        bob = await LobbyClient.connect(port)
        assert await bob.ask("LOGIN:bob:pw") == "LOGIN:ACKSTATUS:0"
        assert await ann.ask("CREATE:r9:7:6:classic") == "CREATE:ACKSTATUS:0"
        assert await bob.ask("JOIN:r9:PLAYER") == "JOIN:ACKSTATUS:0"
        result = await asyncio.to_thread(
            replay, server, "--user", "ann", "--save", "/dev/null", "1"
        )
        assert result.returncode == 0, result.stderr
        words = await ann.line()
        while not words.startswith("BYE"):
            words = await ann.line()
        await ann.close()
        await bob.close()
        return result.stderr, words

    stderr, bye = asyncio.run(fetch_while_ann_plays())
    assert bye == "BYE:elsewhere"
    assert "you have a game under way in r9; logging in here took it" in stderr
