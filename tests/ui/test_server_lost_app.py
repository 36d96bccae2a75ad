"""The app notices a lost server at once, with no key pressed: a lobby game, a server's AI.

Real servers on 127.0.0.1 port 0, stopped while it is the person's turn or the other
side's; the panel must say why within a few seconds.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import DataTable
from textual.widgets._footer import FooterKey

from c4tui.server.core import C4Server, ServerConfig
from c4tui.ui.app import C4App
from c4tui.ui.screens.game import GameScreen
from c4tui.ui.screens.online_game import OnlineGameScreen
from c4tui.ui.screens.tictactoe import TicTacToeScreen
from tests.net.lobby_client import LobbyClient, lobby_server, logged_in
from tests.net.test_app_network import network_app, open_dialog
from tests.net.test_server_lost import a_lobby_that_begins, bob_logs_in_elsewhere
from tests.net.tictactoe_client import tictactoe_server
from tests.ui.helpers import SIZE, make_app
from tests.ui.test_lobby_app import log_in_through_the_dialog, text_of, until
from tests.ui.test_tictactoe_app import bob_waits_for_zoe

#: Seconds the app may take to notice (nothing is pressed meanwhile).
NOTICE = 10


async def zoe_plays_ann(pilot: Pilot, port: int) -> tuple[OnlineGameScreen, LobbyClient]:
    """zoe (the app, RED) in a 4 × 4 game against ann (a raw client): zoe to move."""
    await log_in_through_the_dialog(pilot, "secret", register=True)
    await pilot.press("c")
    await until(pilot, lambda: "Waiting for the game" in text_of(pilot, "#lobby-status"))
    ann = await logged_in(port, "ann")
    assert await ann.ask("JOIN:zoe room:PLAYER") == "JOIN:ACKSTATUS:0"
    await ann.line()  # BEGIN
    await until(pilot, lambda: isinstance(pilot.app.screen, OnlineGameScreen))
    screen = pilot.app.screen
    assert isinstance(screen, OnlineGameScreen)
    await until(pilot, screen.driver.awaiting_submission)
    return screen, ann


def zoe_online(port: int) -> C4App:
    options = {"host": "127.0.0.1", "port": str(port), "user": "zoe"}
    return make_app(opponent="online", options=options, columns=4, rows=4)


@pytest.mark.parametrize("whose_turn", ["zoe", "ann"])
async def test_a_lobby_game_says_at_once_that_the_server_stopped(
    tmp_path: Path, whose_turn: str
) -> None:
    async with lobby_server(tmp_path) as server:
        app = zoe_online(server.port)
        async with app.run_test(size=SIZE) as pilot:
            screen, ann = await zoe_plays_ann(pilot, server.port)
            if whose_turn == "ann":
                await pilot.press("1", "enter")
                assert (await ann.line()).startswith("BOARDSTATUS")
                await until(pilot, lambda: not screen.driver.awaiting_submission())
            await server.stop()
            await until(pilot, lambda: screen.driver.problem is not None, NOTICE)
            message = text_of(pilot, "#message")
            # Its BYE:shutdown, in words; and the app comes back by itself (Esc gives up).
            assert "The server is restarting — reconnecting (1)…" in message
            assert "esc: give up" in message and "n: reconnect" not in message
            assert not screen.board.accepting
            assert len(screen.driver.moves) == (1 if whose_turn == "ann" else 0)

            def offered() -> set[str]:
                return {key.description for key in screen.query(FooterKey) if key.display}

            await until(pilot, lambda: not {"Forfeit", "Chat"} & offered())  # the footer caught up


async def test_a_lobby_game_says_a_bye_in_words() -> None:
    async with a_lobby_that_begins(bob_logs_in_elsewhere) as fake:
        options = {"host": "127.0.0.1", "port": str(fake.port), "user": "bob"}
        app = make_app(opponent="online", options=options, columns=4, rows=4)
        async with app.run_test(size=SIZE) as pilot:
            await log_in_through_the_dialog(pilot, "pw", register=True)
            await pilot.press("g")  # quick play: the fake pairs bob at once
            await until(pilot, lambda: isinstance(app.screen, OnlineGameScreen))
            screen = app.screen
            assert isinstance(screen, OnlineGameScreen)
            await until(pilot, lambda: screen.driver.problem is not None, NOTICE)
            assert "You logged in somewhere else." in text_of(pilot, "#message")


async def test_n_reconnects_to_a_restarted_server_and_starts_a_fresh_game(tmp_path: Path) -> None:
    server = C4Server(ServerConfig(port=0, db=tmp_path / "a.sqlite3"))
    await server.start()
    port = server.port
    app = network_app(port)
    async with app.run_test(size=SIZE) as pilot:
        await open_dialog(pilot)
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, GameScreen))
        screen = app.screen
        assert isinstance(screen, GameScreen)
        await until(pilot, screen.driver.awaiting_submission)
        await pilot.press("4", "enter")
        await until(pilot, lambda: len(screen.driver.moves) == 2)  # the server answered
        await server.stop()  # the person's turn: nothing pressed
        await until(pilot, lambda: screen.driver.problem is not None, NOTICE)
        assert "The server closed the connection." in text_of(pilot, "#message")
        assert "n: reconnect" in text_of(pilot, "#message")
        server = C4Server(ServerConfig(port=port, db=tmp_path / "a.sqlite3"))
        await server.start()
        try:
            await pilot.press("n")
            await until(pilot, lambda: app.screen is not screen or not screen.driver.problem)
            fresh = app.screen
            assert isinstance(fresh, GameScreen)
            await until(pilot, fresh.driver.awaiting_submission)
            assert fresh.driver.moves == () and fresh.driver.problem is None
            await pilot.press("3", "enter")
            await until(pilot, lambda: len(fresh.driver.moves) == 2)  # it plays again
        finally:
            await server.stop()


@pytest.mark.parametrize("whose_turn", ["zoe", "bob"])
async def test_a_tictactoe_game_says_at_once_that_the_server_stopped(
    tmp_path: Path, whose_turn: str
) -> None:
    async with tictactoe_server(tmp_path) as server:
        bob, app = await bob_waits_for_zoe(server)
        async with app.run_test(size=SIZE) as pilot:
            await log_in_through_the_dialog(pilot, "secret", register=True)
            table = app.screen.query_one(DataTable)
            await until(pilot, lambda: table.row_count == 1)
            await pilot.press("enter")  # join bob's room: bob places X and moves first
            await bob.expect("BEGIN:bob:zoe")
            await until(pilot, lambda: isinstance(app.screen, TicTacToeScreen))
            status = lambda: text_of(pilot, "#tictactoe-status")  # noqa: E731
            if whose_turn == "zoe":
                await bob.send("PLACE:1:1")
                await bob.expect("BOARDSTATUS:000010000")
                await until(pilot, lambda: "Your turn" in status())
            await server.stop()
            await until(pilot, lambda: "The server closed the connection." in status(), NOTICE)
            assert "broke off" not in status()  # it hung up; it broke no protocol
            assert not app.screen.check_action("forfeit", ())
