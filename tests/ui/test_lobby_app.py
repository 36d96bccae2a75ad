"""People online through the real app (Pilot) against a real lobby server and raw clients."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from textual.pilot import Pilot
from textual.widgets import DataTable, Input
from textual.widgets._footer import FooterKey

from c4tui.engine import Rules
from c4tui.match.settings import MatchSettings
from c4tui.ui.app import C4App
from c4tui.ui.screens.lobby import LobbyScreen
from c4tui.ui.screens.login import LoginDialog
from c4tui.ui.screens.online_game import OnlineGameScreen
from tests.net.lobby_client import LobbyClient, lobby_server, logged_in
from tests.ui.helpers import SIZE, make_app


async def until(pilot: Pilot, condition: Callable[[], bool], seconds: float = 10) -> None:
    """Let the app run until ``condition()`` holds."""
    for _ in range(int(seconds / 0.05)):
        if condition():
            return
        await pilot.pause(0.05)
    where = "#login-status, #lobby-status, #message, #tictactoe-status"
    said = [str(widget.render()) for widget in pilot.app.screen.query(where)]
    raise AssertionError(f"timed out; {type(pilot.app.screen).__name__} says: {said}")


async def press_button(pilot: Pilot, selector: str) -> None:
    """Click a button once its last click has faded (Textual ignores clicks until then),
    and once the screen is laid out anew (text above it may have just grown: a click at
    its old place would miss it)."""
    button = pilot.app.screen.query_one(selector)
    await until(pilot, lambda: not button.has_class("-active"))
    await pilot.pause()  # the messages queued are handled, then the screen is laid out
    await pilot.click(selector)


def text_of(pilot: Pilot, selector: str) -> str:
    return str(pilot.app.screen.query_one(selector).render())


async def log_in_through_the_dialog(
    pilot: Pilot, password: str, register: bool, opened: bool = False
) -> None:
    if not opened:
        await pilot.press("enter")  # the menu's Start: People online asks who you are
    await until(pilot, lambda: isinstance(pilot.app.screen, LoginDialog))
    pilot.app.screen.query_one("#password", Input).value = password
    if register:  # registering asks for it twice
        pilot.app.screen.query_one("#password_again", Input).value = password
    await press_button(pilot, "#register" if register else "#log-in")
    # Mounted too: on a loaded machine the screen is current before its on_mount has run.
    await until(
        pilot, lambda: isinstance(pilot.app.screen, LobbyScreen) and pilot.app.screen.is_mounted
    )


async def play_in_the_waiting_room(pilot: Pilot) -> OnlineGameScreen:
    """Enter on the lobby's one room (its creator waits): the game's screen."""
    table = pilot.app.screen.query_one(DataTable)
    await until(pilot, lambda: table.row_count == 1)
    await pilot.press("enter")
    await until(pilot, lambda: isinstance(pilot.app.screen, OnlineGameScreen))
    screen = pilot.app.screen
    assert isinstance(screen, OnlineGameScreen)
    return screen


async def ann_plays_bob(port: int, game: str) -> tuple[LobbyClient, LobbyClient]:
    """ann's room r1 with ``game`` (``COLS:ROWS:RULES``), bob joined; zoe has an account."""
    ann = await logged_in(port, "ann")
    bob = await logged_in(port, "bob")
    await (await logged_in(port, "zoe", "secret")).close()
    assert await ann.ask(f"CREATE:r1:{game}") == "CREATE:ACKSTATUS:0"
    assert await bob.ask("JOIN:r1:PLAYER") == "JOIN:ACKSTATUS:0"
    await ann.line(), await bob.line()
    return ann, bob


async def watching_the_room(pilot: Pilot) -> OnlineGameScreen:
    """Logged in as zoe (password "secret"), watching the lobby's one room: its game screen."""
    await log_in_through_the_dialog(pilot, "secret", register=False)
    table = pilot.app.screen.query_one(DataTable)
    await until(pilot, lambda: table.row_count == 1)
    await pilot.press("w")
    await until(pilot, lambda: isinstance(pilot.app.screen, OnlineGameScreen))
    screen = pilot.app.screen
    assert isinstance(screen, OnlineGameScreen) and screen.mine is None
    return screen


async def test_register_create_and_play_a_whole_game_through_the_app(tmp_path: Path) -> None:
    async with lobby_server(tmp_path) as server:
        options = {"host": "127.0.0.1", "port": str(server.port), "user": "zoe"}
        app = make_app(opponent="online", options=options, columns=4, rows=4)
        async with app.run_test(size=SIZE) as pilot:
            await log_in_through_the_dialog(pilot, "secret", register=True)
            await pilot.press("c")  # create a room with the menu's 4 x 4 Classic
            await until(pilot, lambda: "Waiting for the game" in text_of(pilot, "#lobby-status"))
            bob = await logged_in(server.port, "bob")
            assert await bob.ask("ROOMLIST:PLAYER") == "ROOMLIST:ACKSTATUS:0:zoe room"
            assert await bob.ask("JOIN:zoe room:PLAYER") == "JOIN:ACKSTATUS:0"
            assert await bob.line() == "BEGIN:zoe:bob:4:4:classic"
            await until(pilot, lambda: isinstance(app.screen, OnlineGameScreen))
            screen = app.screen
            assert isinstance(screen, OnlineGameScreen)
            assert "zoe" in str(screen.query_one("#turn").render()) or screen.driver.seats
            assert screen.check_action("hint", ()) is False  # no help against a person
            await until(pilot, screen.driver.awaiting_submission)
            assert len(screen.driver._listeners) == 1  # the screen hears each event once
            for turn in range(4):
                await until(pilot, screen.driver.awaiting_submission)
                await pilot.press("1", "enter")  # zoe: column 1, four times
                assert (await bob.line()).startswith("BOARDSTATUS" if turn < 3 else "GAMEEND")
                if turn == 3:
                    break
                await bob.send("DROP:2")
                assert (await bob.line()).startswith("BOARDSTATUS")
            await until(pilot, lambda: screen.driver.result is not None)
            assert screen.driver.result is not None and screen.driver.result.winner is not None
            assert "zoe (RED) wins with four in a row!" in text_of(pilot, "#message")
            await pilot.pause()
            offered = {key.description for key in screen.query(FooterKey) if key.display}
            assert "Forfeit" not in offered  # the room is gone: nobody to forfeit to
            assert "Chat" in offered  # but its chat goes on for a minute (§5.6: "gg")
            await pilot.press("escape")  # back to the lobby
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen))


async def test_watching_a_game_and_chatting_and_seeing_a_forfeit(tmp_path: Path) -> None:
    async with lobby_server(tmp_path) as server:
        ann, bob = await ann_plays_bob(server.port, "5:4:popout")
        await ann.send("DROP:3")
        await ann.line(), await bob.line()
        options = {"host": "127.0.0.1", "port": str(server.port), "user": "zoe"}
        app = make_app(opponent="online", options=options, rules=Rules.POPOUT)
        async with app.run_test(size=SIZE) as pilot:
            screen = await watching_the_room(pilot)
            assert "Watching ann (RED) against bob (YELLOW)" in text_of(pilot, "#message")
            await pilot.pause()
            shown = {f"{key.key_display} {key.description}" for key in screen.query(FooterKey)}
            assert not any(key.endswith(" Play") for key in shown), shown  # a viewer plays not
            assert "esc Lobby" in shown and "esc Menu" not in shown, shown  # where Esc goes
            assert screen.driver.positions[0].disc_count == 0  # the whole game, not the rest
            assert screen.check_action("forfeit", ()) is False  # viewers cannot forfeit
            await pilot.press("t")
            screen.query_one("#chat", Input).value = "go bob"
            await pilot.press("enter")
            assert await ann.line() == "CHAT:zoe:go bob"
            assert await bob.line() == "CHAT:zoe:go bob"
            await ann.send("CHAT:[/] nice [b]move")  # chat is text, not markup
            assert await ann.line() == "CHAT:ann:[/] nice [b]move"
            await bob.line()
            await until(pilot, lambda: ("ann", "[/] nice [b]move") in screen.chat_log.said)
            assert not app._notifications  # in the chat's history, not a toast over the board
            await bob.send("DROP:3")
            await ann.line(), await bob.line()
            # ann's, from the server's archive (it began before we watched); bob's, live
            await until(pilot, lambda: len(screen.driver.moves) == 2)
            await ann.send("FORFEIT")
            await until(pilot, lambda: screen.driver.result is not None)
            assert screen.driver.result is not None
            assert "bob (YELLOW) wins" in text_of(pilot, "#message")
            assert "YELLOW wins by forfeit" in text_of(pilot, "#turn")


async def test_the_login_dialog_explains_each_problem(tmp_path: Path) -> None:
    async with lobby_server(tmp_path) as server:
        await (await logged_in(server.port, "zoe", "secret")).close()
        options = {"host": "127.0.0.1", "port": str(server.port), "user": "zoe"}
        app = make_app(opponent="online", options=options)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.press("enter")
            await until(pilot, lambda: isinstance(app.screen, LoginDialog))
            dialog = app.screen
            status = lambda: text_of(pilot, "#login-status")  # noqa: E731
            await press_button(pilot, "#log-in")
            await until(pilot, lambda: "Password: required" in status())
            dialog.query_one("#password", Input).value = "wrong"
            await press_button(pilot, "#log-in")
            await until(pilot, lambda: "Wrong password" in status())
            dialog.query_one("#password_again", Input).value = "wrong"
            await press_button(pilot, "#register")
            await until(pilot, lambda: "That username is taken" in status())
            dialog.query_one("#user", Input).value = "nobody"
            await press_button(pilot, "#log-in")
            await until(pilot, lambda: "No such user" in status())
            dialog.query_one("#port", Input).value = "1"
            await press_button(pilot, "#log-in")
            await until(pilot, lambda: "Cannot connect" in status())


async def test_enter_presses_the_focused_button_so_register_works_from_the_keyboard(
    tmp_path: Path,
) -> None:
    async with lobby_server(tmp_path) as server:
        options = {"host": "127.0.0.1", "port": str(server.port), "user": "kim"}
        app = make_app(opponent="online", options=options)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.press("enter")
            await until(pilot, lambda: isinstance(app.screen, LoginDialog))
            await pilot.press(*"pass-1")  # the focus starts on the password
            await pilot.press("tab", *"pass-1")  # again, to register
            await pilot.press("tab", "tab")  # past Log in, to Register
            await pilot.press("enter")
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen))
            assert "logged in as kim" in text_of(pilot, "#lobby-title")


async def test_enter_on_a_waiting_room_plays_in_it(tmp_path: Path) -> None:
    async with lobby_server(tmp_path) as server:
        ann = await logged_in(server.port, "ann")
        assert await ann.ask("CREATE:r1:5:4:classic") == "CREATE:ACKSTATUS:0"
        options = {"host": "127.0.0.1", "port": str(server.port), "user": "zoe"}
        app = make_app(opponent="online", options=options)
        async with app.run_test(size=SIZE) as pilot:
            await log_in_through_the_dialog(pilot, "secret", register=True)
            await play_in_the_waiting_room(pilot)
            assert await ann.line() == "BEGIN:ann:zoe:5:4:classic"


async def test_a_browser_visitor_in_ascii_watches_online_as_everywhere_else(tmp_path: Path) -> None:
    """The online game screen gets --ascii and the visitor's rule that saves last until
    quitting, as every other game screen does (the lobby used to drop both)."""
    async with lobby_server(tmp_path) as server:
        _players = await ann_plays_bob(server.port, "4:4:classic")  # kept: their room lives
        options = {"host": "127.0.0.1", "port": str(server.port), "user": "zoe"}
        settings = MatchSettings(opponent="online", options=options, ai_delay=0.0)
        app = C4App(settings, ascii_only=True, visitor_servers=(("127.0.0.1", server.port),))
        async with app.run_test(size=SIZE) as pilot:
            await log_in_through_the_dialog(pilot, "secret", register=False)
            table = app.screen.query_one(DataTable)
            await until(pilot, lambda: table.row_count == 1)
            await pilot.press("w")
            await until(pilot, lambda: isinstance(app.screen, OnlineGameScreen))
            screen = app.screen
            assert isinstance(screen, OnlineGameScreen)
            assert screen.board._ascii_only
            await pilot.press("s", "enter")
            await until(pilot, lambda: "Saved:" in text_of(pilot, "#message"))
            assert "until you quit" in text_of(pilot, "#message")
