"""Network play through the real app (Pilot) and the real console, against real servers."""

from __future__ import annotations

import asyncio
import time

import pytest
from textual.widgets import Input

from c4tui.engine import Rules
from c4tui.match.backends.network import NetworkBackend
from c4tui.server.core import C4Server
from c4tui.ui.app import C4App
from c4tui.ui.screens.connect import ConnectDialog
from c4tui.ui.screens.game import GameScreen
from c4tui.ui.screens.menu import MenuScreen
from c4tui.ui.widgets.choice import ChoiceSet
from tests.net.test_client import FakeServer, greet, say
from tests.process_helpers import run_c4tui
from tests.ui.helpers import SIZE, make_app, play, settle

#: Generous: a whole game's moves over loopback on a loaded machine.
GAME_WITHIN = 180.0


def network_app(port: int, **settings: object) -> C4App:
    options = {"host": "127.0.0.1", "port": str(port), "user": "pilot"}
    return make_app(opponent="network", options=options, **settings)


def status(app: C4App) -> str:
    return str(app.screen.query_one("#connect-status").render())


async def game_screen(pilot) -> GameScreen:
    """The game screen, once the app has moved on to it."""
    for _ in range(50):
        await settle(pilot)
        if isinstance(pilot.app.screen, GameScreen):
            break
    screen = pilot.app.screen
    assert isinstance(screen, GameScreen)
    return screen


async def open_dialog(pilot) -> ConnectDialog:
    await pilot.pause()
    await pilot.press("enter")
    await pilot.pause()
    dialog = pilot.app.screen
    assert isinstance(dialog, ConnectDialog)
    return dialog


async def test_full_game_against_the_server_through_the_app(server: C4Server) -> None:
    app = network_app(server.port, columns=8, rows=5, rules=Rules.POPOUT)
    async with app.run_test(size=SIZE) as pilot:
        await open_dialog(pilot)
        await pilot.press("enter")  # connect with the defaults
        screen = await game_screen(pilot)
        assert isinstance(screen.driver.seats[screen.driver.state.turn.other], NetworkBackend)
        # Bounded in time, not in tries: on a loaded machine the first keys may come while
        # the app is still connecting (refused, as they should be), and each try is quick.
        deadline = time.monotonic() + GAME_WITHIN
        while not screen.driver.state.is_over and time.monotonic() < deadline:
            legal = screen.driver.state.legal_moves()
            await play(pilot, str(legal[len(screen.driver.moves) % len(legal)]))
        state = screen.driver.state
        assert state.is_over
        assert len(screen.driver.moves) > 1  # the server answered
        assert "wins!" in str(screen.query_one("#turn").render()) or state.is_draw
        assert not screen.check_action("undo", ())  # a server game cannot be undone


async def test_dialog_explains_bad_fields_inline(server: C4Server) -> None:
    app = network_app(server.port)
    async with app.run_test(size=SIZE) as pilot:
        dialog = await open_dialog(pilot)
        dialog.query_one("#port", Input).value = "70000"
        await pilot.press("enter")
        await pilot.pause()
        assert "Port: a whole number from 1 to 65535" in status(app)
        dialog.query_one("#port", Input).value = str(server.port)
        dialog.query_one("#user", Input).value = "two words"
        await pilot.press("enter")
        await pilot.pause()
        assert "without spaces" in status(app)
        assert dialog.focused is dialog.query_one("#user", Input)
        dialog.query_one("#user", Input).value = ""
        await pilot.press("enter")
        await pilot.pause()
        assert "Username: required" in status(app)
        assert isinstance(app.screen, ConnectDialog)


async def test_escape_in_the_dialog_goes_back_to_the_menu() -> None:
    app = network_app(4444)
    async with app.run_test(size=SIZE) as pilot:
        await open_dialog(pilot)
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, MenuScreen)


async def test_refused_connection_is_explained_on_the_game_screen_and_n_retries() -> None:
    probe = await asyncio.start_server(lambda r, w: None, "127.0.0.1", 0)
    port = probe.sockets[0].getsockname()[1]
    probe.close()
    await probe.wait_closed()
    app = network_app(port)
    async with app.run_test(size=SIZE) as pilot:
        await open_dialog(pilot)
        await pilot.press("enter")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, GameScreen)
        assert "Connection refused" in message(screen)
        assert "n: reconnect" in message(screen)
        assert str(screen.query_one("#turn").render()) == "Game stopped"
        assert not screen.board.accepting
        await pilot.press("n")  # still nobody there: the same explanation again
        await settle(pilot)
        assert "Connection refused" in message(screen)
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, MenuScreen)


def message(screen: GameScreen) -> str:
    return str(screen.query_one("#message").render())


async def test_server_hanging_up_mid_game_is_reported_not_a_crash() -> None:
    async def script(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await greet(reader, writer)
        await reader.readline()
        await say(writer, "OKAY", "DROP 1", "READY")
        await reader.readline()
        writer.close()

    async with FakeServer(script) as fake:
        app = network_app(fake.port)
        async with app.run_test(size=SIZE) as pilot:
            await open_dialog(pilot)
            await pilot.press("enter")
            await settle(pilot)
            screen = app.screen
            assert isinstance(screen, GameScreen)
            await play(pilot, "d4")
            await play(pilot, "d4")
            message = str(screen.query_one("#message").render())
            assert "closed the connection" in message
            assert not screen.board.accepting
            # The move that never got through is not shown as played.
            assert [str(move) for move in screen.driver.moves] == ["d4", "d1"]
            assert str(screen.query_one("#turn").render()) == "Game stopped"
            played = len(screen.driver.moves)
            await pilot.press("5", "enter")  # Play is dimmed now; the reason stays shown
            await pilot.pause()
            assert len(screen.driver.moves) == played
            assert "n: reconnect" in str(screen.query_one("#message").render())
            await pilot.press("m")
            await pilot.pause()
            assert isinstance(app.screen, MenuScreen)


async def test_a_server_gone_during_your_turn_is_shown_at_once_without_a_key() -> None:
    async def script(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await greet(reader, writer)
        await reader.readline()
        await say(writer, "OKAY", "DROP 1", "READY")
        await thinking.wait()  # the person is thinking: the server dies
        writer.close()

    thinking = asyncio.Event()

    async with FakeServer(script) as fake:
        app = network_app(fake.port)
        async with app.run_test(size=SIZE) as pilot:
            await open_dialog(pilot)
            await pilot.press("enter")
            await settle(pilot)
            screen = app.screen
            assert isinstance(screen, GameScreen)
            await play(pilot, "d4")
            assert screen.board.accepting  # your turn
            thinking.set()
            for _ in range(100):  # no key pressed: the screen finds out by itself
                await pilot.pause(0.05)
                if screen.driver.problem:
                    break
            assert "The server closed the connection." in message(screen)
            assert "n: reconnect\nesc: menu" in message(screen)  # apart: 18 columns
            assert str(screen.query_one("#turn").render()) == "Game stopped"
            assert not screen.board.accepting  # the board is frozen
            assert not app._notifications  # nothing piles up over the board
            assert [str(move) for move in screen.driver.moves] == ["d4", "d1"]


def test_full_game_in_the_console(server: C4Server) -> None:
    moves = "".join(f"{column}\n" for column in [1, 2, 3, 4] * 12)
    address = f"127.0.0.1:{server.port}"
    result = run_c4tui(
        "console", "--connect", address, "--user", "console_tester",
        "--columns", "4", "--rows", "4", "--rules", "classic",
        stdin=moves,
    )  # fmt: skip
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stderr == ""
    assert f"Connecting to {address} as console_tester" in result.stdout
    assert "YELLOW (server):" in result.stdout
    assert "wins!" in result.stdout or "It's a draw!" in result.stdout


def test_console_reports_a_refused_connection() -> None:
    result = run_c4tui(
        "console", "--connect", "127.0.0.1:1", "--user", "x", "--columns", "7", "--rows", "6"
    )
    assert result.returncode == 1
    assert "Network problem: Connection refused by 127.0.0.1:1" in result.stdout
    assert "Traceback" not in result.stderr


def test_console_connects_before_asking_anything() -> None:
    result = run_c4tui("console", "--connect", "127.0.0.1:1", "--user", "x", stdin="")
    assert result.returncode == 1
    assert "Number of" not in result.stdout  # a server game is 7 x 6 unless told otherwise
    assert "Network problem: Connection refused by 127.0.0.1:1" in result.stdout


# ----- every protocol -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("protocol", "size", "seen"),
    [("cfsp", ["--columns", "5", "--rows", "4"], "(CFSP)"), ("c4n", [], "(C4N)")],
)
def test_full_games_in_the_console_in_each_protocol(
    server: C4Server, protocol: str, size: list[str], seen: str
) -> None:
    # Drops in every column (C4N's board has 7; CFSP's 5 refuses 6 and 7), and (CFSP plays
    # Pop Out) pops for when the board fills up before anyone wins: the server's AI is
    # random, so the script must finish any game it could lead to.
    tries = [f"{kind}{column}" for column in range(1, 8) for kind in ("", "p ")]
    moves = "".join(f"{move}\n" for move in tries * 40)
    address = f"127.0.0.1:{server.port}"
    result = run_c4tui("console", "--connect", address, "--protocol", protocol, *size, stdin=moves)
    assert result.returncode == 0, result.stdout + result.stderr
    assert f"Connecting to {address} {seen}" in result.stdout  # no username in these
    assert "YELLOW (server):" in result.stdout
    assert "wins!" in result.stdout or "It's a draw!" in result.stdout


@pytest.mark.parametrize(
    ("options", "words"),
    [
        (["--protocol", "c4n", "--columns", "9"], "C4N plays 7 × 6 only and classic rules."),
        (["--protocol", "c4n", "--rules", "popout"], "C4N plays 7 × 6 only and classic rules."),
        (["--protocol", "cfsp", "--rules", "classic"], "CFSP plays Pop Out rules."),
    ],
)
def test_console_refuses_a_game_the_protocol_cannot_play(options: list[str], words: str) -> None:
    result = run_c4tui("console", "--connect", "127.0.0.1:1", *options)
    assert result.returncode == 2
    assert words in result.stderr


async def test_the_dialog_offers_each_protocol_and_c4n_sets_the_board(server: C4Server) -> None:
    app = network_app(server.port, columns=9, rows=8, rules=Rules.POPOUT)
    async with app.run_test(size=SIZE) as pilot:
        dialog = await open_dialog(pilot)
        assert not dialog.query_one("#user", Input).disabled
        protocol = dialog.query_one("#protocol", ChoiceSet)
        await pilot.click("#protocol", offset=protocol.offset_of(len(protocol.labels) - 1))  # C4N
        await pilot.pause()
        assert dialog.query_one("#user", Input).disabled  # C4N sends no name
        note = str(dialog.query_one("#connect-note").render())
        assert "You chose 9 × 8 Pop Out: the game will be 7 × 6 Classic." in note
        dialog.query_one("#user", Input).value = "not checked"  # greyed out: not checked
        await pilot.press("enter")
        screen = await game_screen(pilot)
        state = screen.driver.state
        assert (state.columns, state.rows, state.rules) == (7, 6, Rules.CLASSIC)
        turn = 0
        while not screen.driver.state.is_over and turn < 60:
            legal = screen.driver.state.legal_moves()
            await play(pilot, str(legal[turn % len(legal)]))
            turn += 1
        assert screen.driver.state.is_over and screen.driver.problem is None
        assert "(C4N)" in str(screen.query_one("#game-title").render())


async def test_a_server_answer_that_looks_like_markup_is_shown_as_it_is() -> None:
    async def script(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await greet(reader, writer)
        await reader.readline()
        await say(writer, "[/] [b]OKAY[/b]")

    async with FakeServer(script) as fake:
        app = network_app(fake.port)
        async with app.run_test(size=SIZE) as pilot:
            await open_dialog(pilot)
            await pilot.press("enter")
            screen = await game_screen(pilot)
            await play(pilot, "d4")
            await settle(pilot)
            assert app.return_code is None  # no crash on "[/]"
            assert "[/] [b]OKAY[/b]" in message(screen)
