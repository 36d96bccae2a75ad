"""Tic-tac-toe through the real app (Pilot): the login dialog, the lobby, the 3 × 3 board."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import DataTable

from c4tui.server.core import C4Server
from c4tui.tictactoe import Board
from c4tui.ui.app import C4App
from c4tui.ui.screens.lobby import LobbyScreen
from c4tui.ui.screens.tictactoe import TicTacToeScreen
from c4tui.ui.widgets.choice import ChoiceSet
from tests.net.tictactoe_client import TicTacToeClient, signed_in, tictactoe_server
from tests.ui.helpers import SIZE, make_app
from tests.ui.test_lobby_app import log_in_through_the_dialog, text_of, until


async def bob_waits_for_zoe(server: C4Server) -> tuple[TicTacToeClient, C4App]:
    """bob (a raw client) in his room, and the app of zoe (not logged in yet) to join it."""
    port = server.tictactoe_port
    assert port is not None
    bob = await signed_in(port, "bob")
    await bob.ask("CREATE:bobs room", "CREATE:ACKSTATUS:0")
    options = {"host": "127.0.0.1", "port": str(port), "user": "zoe", "game": "tictactoe"}
    return bob, make_app(opponent="online", options=options)


async def test_playing_tictactoe_through_the_lobby_to_a_win(tmp_path: Path) -> None:
    async with tictactoe_server(tmp_path) as server:
        bob, app = await bob_waits_for_zoe(server)
        async with app.run_test(size=SIZE) as pilot:
            await log_in_through_the_dialog(pilot, "secret", register=True)
            lobby = app.screen
            assert isinstance(lobby, LobbyScreen) and lobby.tictactoe
            assert "Tic-tac-toe rooms on 127.0.0.1" in text_of(pilot, "#lobby-title")
            assert lobby.check_action("quick_play", ()) is False  # not in this protocol
            table = lobby.query_one(DataTable)
            await until(pilot, lambda: table.row_count == 1)
            await pilot.press("enter")  # join bob's room: bob places X and moves first
            await bob.expect("BEGIN:bob:zoe")
            await until(pilot, lambda: isinstance(app.screen, TicTacToeScreen))
            screen = app.screen
            assert isinstance(screen, TicTacToeScreen)
            await until(pilot, lambda: bool(screen.query("TicTacToeBoard")))  # composed
            status = lambda: text_of(pilot, "#tictactoe-status")  # noqa: E731
            await until(pilot, lambda: "bob's turn" in status())
            await bob.send("PLACE:1:1")
            await bob.expect("BOARDSTATUS:000010000")
            await until(pilot, lambda: "Your turn" in status())
            await pilot.press("5", "enter")  # the centre is taken: said, nothing sent
            assert "Not there: cell 5 (column 1, row 1) is taken." in status()
            assert screen.board.cursor == (1, 1)  # it stays where the person put it
            await pilot.press("1", "enter")  # the top left, by number
            await bob.expect("BOARDSTATUS:200010000")
            await bob.send("PLACE:2:0")
            await bob.expect("BOARDSTATUS:201010000")
            await until(pilot, lambda: "Your turn" in status())
            await pilot.click("#tictactoe-board", offset=(24, 9))  # the mouse: bottom right
            await bob.expect("BOARDSTATUS:201010002")
            await bob.send("PLACE:0:2")  # X: 2, 4, 6 — a diagonal
            await bob.expect("GAMEEND:201010102:0:bob")
            await until(pilot, lambda: "Sorry you lost" in status())
            board = screen.query_one("#tictactoe-board")
            assert board.board == Board.from_text("201010102")  # type: ignore[attr-defined]
            assert not screen.check_action("forfeit", ())
            assert not screen.board.check_action("choose", ())  # Enter leaves the footer
            await pilot.press("escape")
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen))


async def test_the_login_dialog_asks_which_game_the_server_hosts(tmp_path: Path) -> None:
    async with tictactoe_server(tmp_path) as server:
        options = {"host": "127.0.0.1", "port": str(server.tictactoe_port), "user": "zoe"}
        app = make_app(opponent="online", options=options)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.press("enter")
            await until(pilot, lambda: app.screen.query("#game").first() is not None)
            game = app.screen.query_one("#game", ChoiceSet)
            assert game.labels == ("Connect Four", "Tic-tac-toe")
            game.focus()
            await pilot.press("right")
            assert game.pressed_index == 1
            await log_in_through_the_dialog(pilot, "secret", register=True, opened=True)
            assert isinstance(app.screen, LobbyScreen) and app.screen.tictactoe
