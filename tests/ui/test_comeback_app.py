"""The app comes back by itself (spec §5.1): a real server stopped and started again on the
same database and port, or the app's own connection dropped, in the middle of a game, in
the lobby, or while watching; and the opponent's countdown while a player is away.

The app is driven with Pilot; the other players are raw clients. Its tries to come back
are quick (``reconnect_delays``), and the time bounds generous (a loaded machine).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Sequence
from pathlib import Path

from textual.pilot import Pilot
from textual.widgets import DataTable, Input

from c4tui.engine import GameState, Rules, parse_move
from c4tui.match.settings import MatchSettings
from c4tui.server.core import C4Server, ServerConfig
from c4tui.ui.app import C4App
from c4tui.ui.online_session import moves_to
from c4tui.ui.screens.confirm import ConfirmDialog
from c4tui.ui.screens.lobby import LobbyScreen
from c4tui.ui.screens.login import LoginDialog
from c4tui.ui.screens.menu import MenuScreen
from c4tui.ui.screens.online_game import OnlineGameScreen
from tests.net.lobby_client import TEST_ROUNDS, LobbyClient, logged_in
from tests.ui.helpers import SIZE
from tests.ui.test_lobby_app import log_in_through_the_dialog, press_button, text_of, until
from tests.ui.test_server_lost_app import zoe_plays_ann

#: The app's tries to come back: quick, about 12 s in all.
QUICK = (0.05, 0.1, 0.2, 0.4, 0.8, 1.6, 3.2, 3.2, 3.2)
#: The second try waits a minute: the app says "reconnecting (2)…" meanwhile.
STUCK_AT_TRY_2 = (0.05, 60.0, 60.0)
#: Seconds the app may take to notice, come back, or show a game.
SLOW = 30


class Servers:
    """A lobby server on one database and port, stopped and started again at will."""

    def __init__(self, tmp_path: Path) -> None:
        self.db = tmp_path / "lobby.sqlite3"
        self.port = 0
        self.server: C4Server | None = None

    async def start(self) -> None:
        config = ServerConfig(port=self.port, db=self.db, bcrypt_rounds=TEST_ROUNDS)
        self.server = C4Server(config)
        await self.server.start()
        self.port = self.server.port

    async def stop(self) -> None:
        if self.server is not None:
            await self.server.stop()
            self.server = None

    async def restart(self) -> None:
        await self.stop()
        await self.start()


@contextlib.asynccontextmanager
async def zoe_and_a_lobby(
    tmp_path: Path, delays: Sequence[float] = QUICK
) -> AsyncIterator[tuple[Servers, Pilot]]:
    """A lobby server, and the app (not logged in yet) that will log in to it as zoe."""
    lobby = Servers(tmp_path)
    await lobby.start()
    options = {"host": "127.0.0.1", "port": str(lobby.port), "user": "zoe"}
    settings = MatchSettings(
        opponent="online", options=options, columns=4, rows=4, ai_delay=0.0, seed=1
    )
    try:
        async with C4App(settings, reconnect_delays=delays).run_test(size=SIZE) as pilot:
            yield lobby, pilot
    finally:
        await lobby.stop()


async def next_line(client: LobbyClient, prefix: str) -> str:
    """The first line from ``client`` that starts with ``prefix`` (the others are passed)."""
    while not (line := await client.line()).startswith(prefix):
        pass
    return line


async def ann_logs_in_again(port: int) -> LobbyClient:
    """ann, back after losing her connection: her game's board is read."""
    ann = await LobbyClient.connect(port)
    assert await ann.ask("LOGIN:ann:pw") == "LOGIN:ACKSTATUS:0"
    assert await ann.line() == "REJOIN:zoe room"
    await next_line(ann, "BOARDSTATUS")
    return ann


async def one_move_each(pilot: Pilot, port: int) -> tuple[OnlineGameScreen, LobbyClient]:
    """zoe (the app, RED) created a room, ann (raw, YELLOW) joined; one move each played."""
    screen, ann = await zoe_plays_ann(pilot, port)
    await pilot.press("1", "enter")
    await next_line(ann, "BOARDSTATUS")
    await ann.send("DROP:2")
    await next_line(ann, "BOARDSTATUS")
    await until(
        pilot, lambda: len(screen.driver.moves) == 2 and screen.driver.awaiting_submission()
    )
    return screen, ann


async def the_game(pilot: Pilot, other_than: object = None) -> OnlineGameScreen:
    """The online game screen once shown, its panel there (a new one, not ``other_than``)."""
    app = pilot.app
    await until(
        pilot,
        lambda: (
            isinstance(app.screen, OnlineGameScreen)
            and app.screen is not other_than
            and bool(app.screen.query("#message"))
        ),
        SLOW,
    )
    screen = app.screen
    assert isinstance(screen, OnlineGameScreen)
    return screen


def discs(screen: OnlineGameScreen) -> int:
    """How many discs the screen's board shows."""
    return screen.board.state.disc_count


async def test_a_player_is_back_in_its_game_after_a_restart_and_plays_on(tmp_path: Path) -> None:
    async with zoe_and_a_lobby(tmp_path) as (lobby, pilot):
        app = pilot.app
        first, ann = await one_move_each(pilot, lobby.port)
        await ann.close()
        await lobby.stop()
        await until(pilot, lambda: "reconnecting (" in text_of(pilot, "#message"), SLOW)
        assert "The server is restarting — reconnecting" in text_of(pilot, "#message")
        assert "Reconnecting…" in text_of(pilot, "#turn")
        assert discs(first) == 2  # the board stays
        await lobby.start()
        screen = await the_game(pilot, other_than=first)
        await until(pilot, screen.driver.awaiting_submission, SLOW)
        assert screen.mine is not None and screen.mine.name == "RED"
        assert discs(screen) == 2 and screen.driver.state.turn.name == "RED"
        assert len(screen.driver.moves) == 2  # the move list goes on
        assert "Back in the game." in text_of(pilot, "#message")
        # ann is away (the restart): the app counts her grace down.
        await until(pilot, lambda: "ann lost the connection" in text_of(pilot, "#message"))
        ann = await ann_logs_in_again(lobby.port)
        await until(pilot, lambda: "ann is back." in text_of(pilot, "#message"), SLOW)
        await pilot.press("3", "enter")
        assert (await next_line(ann, "BOARDSTATUS")).startswith("BOARDSTATUS")
        await until(pilot, lambda: len(screen.driver.moves) == 3)
        await ann.send("FORFEIT")
        await until(pilot, lambda: screen.driver.result is not None, SLOW)
        await pilot.press("escape")  # back to the lobby, on the new connection
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen))
        await until(pilot, lambda: "No rooms yet" in text_of(pilot, "#lobby-status"), SLOW)
        await ann.close()


async def test_the_app_started_afresh_goes_back_into_its_unfinished_game(tmp_path: Path) -> None:
    async with zoe_and_a_lobby(tmp_path) as (lobby, pilot):
        app = pilot.app
        zoe = await logged_in(lobby.port, "zoe", "secret")
        ann = await logged_in(lobby.port, "ann")
        assert await zoe.ask("CREATE:zoe room:4:4:classic") == "CREATE:ACKSTATUS:0"
        assert await ann.ask("JOIN:zoe room:PLAYER") == "JOIN:ACKSTATUS:0"
        await zoe.send("DROP:1")
        await next_line(ann, "BOARDSTATUS")
        await zoe.close()  # the app was killed, say
        assert await next_line(ann, "AWAY") == "AWAY:zoe:60"
        await pilot.press("enter")  # the menu's Start: the login dialog
        await until(pilot, lambda: isinstance(app.screen, LoginDialog))
        app.screen.query_one("#password", Input).value = "secret"
        await press_button(pilot, "#log-in")
        screen = await the_game(pilot)  # through the lobby, at once
        assert screen.mine is not None and screen.mine.name == "RED"
        assert discs(screen) == 1 and screen.driver.state.turn.name == "YELLOW"
        # The moves before it came, from the server's archive: the list, the review and a
        # saved record are the whole game, not the moves since.
        assert screen.driver.moves == (parse_move("d1"),)
        assert screen.driver.positions[0].disc_count == 0
        assert await ann.line() == "BACK:zoe"
        await until(pilot, lambda: "Back in the game." in text_of(pilot, "#message"))
        await ann.send("DROP:2")
        await until(pilot, screen.driver.awaiting_submission, SLOW)
        await pilot.press("1", "enter")
        assert (await next_line(ann, "BOARDSTATUS")).startswith("BOARDSTATUS")
        await until(pilot, lambda: len(screen.driver.moves) == 3, SLOW)
        assert screen.record().moves == tuple(map(parse_move, ("d1", "d2", "d1")))
        await ann.close()


async def test_esc_while_reconnecting_gives_up_and_r_in_the_lobby_tries_again(
    tmp_path: Path,
) -> None:
    async with zoe_and_a_lobby(tmp_path, STUCK_AT_TRY_2) as (lobby, pilot):
        app = pilot.app
        _, ann = await one_move_each(pilot, lobby.port)
        await lobby.stop()
        await until(pilot, lambda: "reconnecting (2)" in text_of(pilot, "#message"), SLOW)
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen))
        status = lambda: text_of(pilot, "#lobby-status")  # noqa: E731
        await until(pilot, lambda: "r tries again" in status(), SLOW)
        assert "The server is restarting" in status()
        assert "a game you play waits about a minute" in status()
        assert app.screen.query_one(DataTable).row_count == 0  # not the rooms as they were
        await lobby.start()
        await pilot.press("r")  # the server is back: so are we, and so is the game
        screen = await the_game(pilot)
        await until(pilot, lambda: "Back in the game." in text_of(pilot, "#message"), SLOW)
        assert discs(screen) == 2
        await ann.close()


async def test_esc_in_the_lobby_stops_reconnecting_and_esc_again_is_the_menu(
    tmp_path: Path,
) -> None:
    async with zoe_and_a_lobby(tmp_path, STUCK_AT_TRY_2) as (lobby, pilot):
        app = pilot.app
        await log_in_through_the_dialog(pilot, "secret", register=True)
        await lobby.stop()
        await pilot.press("r")
        status = lambda: text_of(pilot, "#lobby-status")  # noqa: E731
        await until(pilot, lambda: "reconnecting (2)… Esc gives up." in status(), SLOW)
        await pilot.press("escape")
        await until(pilot, lambda: "You stopped reconnecting. r tries again" in status())
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, MenuScreen))


async def test_a_waiting_creator_comes_back_and_is_told_its_room_is_gone(tmp_path: Path) -> None:
    async with zoe_and_a_lobby(tmp_path) as (lobby, pilot):
        app = pilot.app
        await log_in_through_the_dialog(pilot, "secret", register=True)
        await pilot.press("c")
        status = lambda: text_of(pilot, "#lobby-status")  # noqa: E731
        await until(pilot, lambda: "Waiting for the game" in status())
        await lobby.restart()
        await until(pilot, lambda: "you waited in is gone" in status(), SLOW)
        assert "The server is back: the room 'zoe room'" in status()  # not "restarting"
        table = app.screen.query_one(DataTable)
        assert table.row_count == 0
        await pilot.press("c")  # the lobby works on the new connection
        await until(pilot, lambda: "Waiting for the game" in status(), SLOW)


async def test_a_viewer_comes_back_to_the_game_it_watched(tmp_path: Path) -> None:
    async with zoe_and_a_lobby(tmp_path) as (lobby, pilot):
        app = pilot.app
        await (await logged_in(lobby.port, "zoe", "secret")).close()
        ann = await logged_in(lobby.port, "ann")
        bob = await logged_in(lobby.port, "bob")
        assert await ann.ask("CREATE:r1:4:4:classic") == "CREATE:ACKSTATUS:0"
        assert await bob.ask("JOIN:r1:PLAYER") == "JOIN:ACKSTATUS:0"
        await ann.send("DROP:1")
        await next_line(bob, "BOARDSTATUS")
        await log_in_through_the_dialog(pilot, "secret", register=False)
        table = app.screen.query_one(DataTable)
        await until(pilot, lambda: table.row_count == 1)
        await pilot.press("w")
        first = await the_game(pilot)
        assert first.mine is None and discs(first) == 1
        await ann.close(), await bob.close()
        await lobby.restart()
        screen = await the_game(pilot, other_than=first)
        assert screen.mine is None and discs(screen) == 1
        await until(pilot, lambda: "Back in the room." in text_of(pilot, "#message"), SLOW)
        bob = await LobbyClient.connect(lobby.port)
        assert await bob.ask("LOGIN:bob:pw") == "LOGIN:ACKSTATUS:0"
        await next_line(bob, "BOARDSTATUS")
        await bob.send("DROP:3")  # bob may move while ann is away
        await next_line(bob, "BOARDSTATUS")
        await until(pilot, lambda: discs(screen) == 2, SLOW)
        await bob.close()


async def test_a_viewer_whose_game_ended_meanwhile_is_told(tmp_path: Path) -> None:
    async with zoe_and_a_lobby(tmp_path, (2.0, 0.1, 0.2)) as (lobby, pilot):
        app = pilot.app
        await (await logged_in(lobby.port, "zoe", "secret")).close()
        ann = await logged_in(lobby.port, "ann")
        bob = await logged_in(lobby.port, "bob")
        assert await ann.ask("CREATE:r1:4:4:classic") == "CREATE:ACKSTATUS:0"
        assert await bob.ask("JOIN:r1:PLAYER") == "JOIN:ACKSTATUS:0"
        await log_in_through_the_dialog(pilot, "secret", register=False)
        table = app.screen.query_one(DataTable)
        await until(pilot, lambda: table.row_count == 1)
        await pilot.press("w")
        screen = await the_game(pilot)
        await screen.room_game.link.connection.close()  # the viewer's connection drops
        await until(
            pilot, lambda: "Connection lost — reconnecting (1)" in text_of(pilot, "#message")
        )
        await bob.send("FORFEIT")  # meanwhile the game ends
        await next_line(ann, "GAMEEND")
        message = lambda: text_of(pilot, "#message")  # noqa: E731
        await until(pilot, lambda: "The game you watched is over" in message(), SLOW)
        assert "esc: back to the lobby" in message()
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen))
        await ann.close(), await bob.close()


async def test_a_player_whose_game_ended_while_away_is_told_how(tmp_path: Path) -> None:
    async with zoe_and_a_lobby(tmp_path, (2.0, 0.1, 0.2)) as (lobby, pilot):
        app = pilot.app
        screen, ann = await one_move_each(pilot, lobby.port)
        await screen.room_game.link.connection.close()  # zoe's connection drops
        assert await next_line(ann, "AWAY") == "AWAY:zoe:60"
        await ann.send("FORFEIT")  # ann gives up meanwhile: zoe wins while away
        await next_line(ann, "GAMEEND")
        message = lambda: text_of(pilot, "#message")  # noqa: E731
        await until(pilot, lambda: "ended while you were away" in message(), SLOW)
        assert "zoe (RED) wins (forfeit)." in message()
        assert "Game over" in text_of(pilot, "#turn")
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen))
        await ann.close()


async def test_the_opponents_countdown_ticks_until_it_is_back(tmp_path: Path) -> None:
    async with zoe_and_a_lobby(tmp_path) as (lobby, pilot):
        _, ann = await one_move_each(pilot, lobby.port)
        await ann.close()
        message = lambda: text_of(pilot, "#message")  # noqa: E731
        await until(pilot, lambda: "ann lost the connection" in message(), SLOW)
        assert "the game waits 60 s" in message() or "the game waits 59 s" in message()
        await asyncio.sleep(2.5)
        await until(pilot, lambda: any(f"waits {n} s" in message() for n in range(50, 58)))
        ann = await ann_logs_in_again(lobby.port)
        await until(pilot, lambda: message() == "ann is back.", SLOW)
        await asyncio.sleep(1.5)
        assert message() == "ann is back."  # the countdown stopped
        await ann.close()


async def test_a_question_on_top_is_answered_before_the_game_goes_on(tmp_path: Path) -> None:
    async with zoe_and_a_lobby(tmp_path) as (lobby, pilot):
        app = pilot.app
        first, ann = await one_move_each(pilot, lobby.port)
        await pilot.press("f")  # Forfeit? asked over the game
        await until(pilot, lambda: isinstance(app.screen, ConfirmDialog))
        await ann.close()
        await lobby.restart()
        assert lobby.server is not None
        rooms = lobby.server.lobby.rooms
        await until(pilot, lambda: not rooms.is_away("zoe"), SLOW)  # zoe is back
        await pilot.pause(0.3)
        assert isinstance(app.screen, ConfirmDialog)  # the question stays until answered
        await pilot.press("n")
        screen = await the_game(pilot, other_than=first)
        assert [s for s in app.screen_stack if isinstance(s, OnlineGameScreen)] == [screen]
        assert len(screen.driver.moves) == 2


def test_the_moves_that_lead_to_the_servers_board_are_found() -> None:
    start = GameState.new(4, 4, Rules.CLASSIC)
    d1, d2, d3 = (parse_move(text) for text in ("d1", "d2", "d3"))
    assert moves_to(start, [d1], start.play_all((d1,))) == (d1,)
    assert moves_to(start, [d1], start.play_all((d1, d2))) == (d1, d2)
    assert moves_to(start, [d1], start.play_all((d1, d2, d3))) == (d1, d2, d3)
    assert moves_to(start, [d1, d2], start.play_all((d1,))) is None  # the server has less
    assert moves_to(start, [], start.play_all((d1, d2, d3))) is None  # three moves: unknown


async def test_logged_in_elsewhere_the_lobby_waits_for_r_to_come_back(tmp_path: Path) -> None:
    async with zoe_and_a_lobby(tmp_path) as (lobby, pilot):
        await log_in_through_the_dialog(pilot, "secret", register=True)
        elsewhere = await LobbyClient.connect(lobby.port)
        assert await elsewhere.ask("LOGIN:zoe:secret") == "LOGIN:ACKSTATUS:0"
        status = lambda: text_of(pilot, "#lobby-status")  # noqa: E731
        await until(pilot, lambda: "You logged in somewhere else. r tries again" in status(), SLOW)
        await pilot.pause(1.0)
        assert "reconnecting" not in status()  # it does not take the account back by itself
        await elsewhere.close()
        await pilot.press("r")
        await until(pilot, lambda: "No rooms yet" in status(), SLOW)


async def test_the_lobby_notices_a_lost_server_at_once_not_at_its_next_refresh(
    tmp_path: Path,
) -> None:
    async with zoe_and_a_lobby(tmp_path, STUCK_AT_TRY_2) as (lobby, pilot):
        await log_in_through_the_dialog(pilot, "secret", register=True)
        status = lambda: text_of(pilot, "#lobby-status")  # noqa: E731
        await until(pilot, lambda: "No rooms yet" in status(), SLOW)
        screen = pilot.app.screen
        assert isinstance(screen, LobbyScreen)
        screen.refresh_timer.pause()  # no refresh will find it out: only the watch can
        await lobby.stop()
        await until(pilot, lambda: "reconnecting (1)" in status(), SLOW)


async def test_keys_while_reconnecting_keep_saying_so_and_forfeit_waits(tmp_path: Path) -> None:
    """A move tried while we come back is told that we do (it said the game had stopped,
    then flipped back at the next try), and Forfeit, which would be lost, is not offered."""
    async with zoe_and_a_lobby(tmp_path, STUCK_AT_TRY_2) as (lobby, pilot):
        screen, ann = await one_move_each(pilot, lobby.port)
        await lobby.stop()
        await until(pilot, lambda: "reconnecting (2)" in text_of(pilot, "#message"), SLOW)
        await pilot.press("3", "enter")
        await pilot.pause(0.2)
        message = text_of(pilot, "#message")
        assert "reconnecting (2)" in message and "back to the lobby" not in message, message
        assert screen.check_action("forfeit", ()) is False
        await ann.close()


async def test_a_player_keeps_trying_past_its_tries_while_its_game_is_on(tmp_path: Path) -> None:
    """A lost link is no end of the game: the tries go on (every 8 s) past the backoff's."""
    async with zoe_and_a_lobby(tmp_path) as (lobby, pilot):
        first, ann = await one_move_each(pilot, lobby.port)
        await ann.close()
        await lobby.stop()
        beyond = f"reconnecting ({len(QUICK) + 1})"  # a try the backoff alone never makes
        await until(pilot, lambda: beyond in text_of(pilot, "#message"), SLOW)
        assert "giving up" not in text_of(pilot, "#message")
        await lobby.start()
        screen = await the_game(pilot, other_than=first)
        await until(pilot, screen.driver.awaiting_submission, SLOW)
        assert discs(screen) == 2 and "Back in the game." in text_of(pilot, "#message")
