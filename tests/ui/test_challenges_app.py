"""Challenges and rematches in the app (Pilot) against a real server and a raw client (§5.5)."""

from __future__ import annotations

import contextlib
import re
from collections.abc import AsyncIterator
from pathlib import Path

from textual.pilot import Pilot
from textual.screen import Screen

from c4tui.ui.app import C4App
from c4tui.ui.challenges import ChallengeListener
from c4tui.ui.screens.challenge import ChallengeDialog
from c4tui.ui.screens.lobby import LobbyScreen
from c4tui.ui.screens.online_game import OnlineGameScreen
from c4tui.ui.widgets.player_table import PlayerTable
from tests.net.lobby_client import LobbyClient, lobby_server, logged_in
from tests.ui.helpers import SIZE, make_app
from tests.ui.test_lobby_app import log_in_through_the_dialog, text_of, until


@contextlib.asynccontextmanager
async def zoe_in_the_lobby(
    tmp_path: Path, columns: int = 7, rows: int = 6
) -> AsyncIterator[tuple[C4App, Pilot[None], LobbyClient]]:
    """zoe's app in the lobby (the menu's board ``columns`` × ``rows``), ann online (raw)."""
    async with lobby_server(tmp_path) as server:
        await (await logged_in(server.port, "zoe", "secret")).close()
        ann = await logged_in(server.port, "ann")
        options = {"host": "127.0.0.1", "port": str(server.port), "user": "zoe"}
        app = make_app(opponent="online", options=options, columns=columns, rows=rows)
        async with app.run_test(size=SIZE) as pilot:
            await log_in_through_the_dialog(pilot, "secret", register=False)
            players = app.screen.query_one(PlayerTable)
            await until(pilot, lambda: players.row_count == 2)
            yield app, pilot, ann


async def test_a_challenge_pops_up_in_the_lobby_and_accepting_opens_the_game(
    tmp_path: Path,
) -> None:
    async with zoe_in_the_lobby(tmp_path) as (app, pilot, ann):
        assert await ann.ask("CHALLENGE:zoe:5:4:popout:rated:3+2") == "CHALLENGE:ACKSTATUS:0"
        await until(pilot, lambda: isinstance(app.screen, ChallengeDialog))
        await until(pilot, lambda: bool(app.screen.query("Static")))
        assert "ann challenges you: 5 × 4 Pop Out, rated 3+2" in text_of(pilot, "Static")
        await pilot.press("a")
        assert await ann.line() == "BEGIN:ann:zoe:5:4:popout"
        assert re.fullmatch(r"CLOCK:(180000|17[0-9]{4}):180000", await ann.line())  # 3+2
        await until(pilot, lambda: isinstance(app.screen, OnlineGameScreen))
        screen = app.screen
        assert isinstance(screen, OnlineGameScreen) and screen._room == "challenge-1"
        await ann.send("FORFEIT")
        assert (await ann.line()).endswith(":2:zoe")
        await until(pilot, lambda: screen.driver.result is not None)
        await until(pilot, lambda: "r: rematch" in text_of(pilot, "#message"))
        await pilot.press("r")
        assert await ann.line() == "CHALLENGED:zoe:5:4:popout:rated:3+2"
        await until(pilot, lambda: "waiting for ann" in text_of(pilot, "#message"))
        assert await ann.ask("ACCEPT:zoe") == "ACCEPT:ACKSTATUS:0"
        assert await ann.line() == "BEGIN:zoe:ann:5:4:popout"  # the colours swapped
        await until(pilot, lambda: app.screen is not screen)
        await until(pilot, lambda: isinstance(app.screen, OnlineGameScreen))
        rematch = app.screen
        assert isinstance(rematch, OnlineGameScreen) and rematch.mine is not None
        assert rematch.room_game.names[rematch.mine] == "zoe"


async def test_c_on_a_player_challenges_and_a_decline_is_said(tmp_path: Path) -> None:
    async with zoe_in_the_lobby(tmp_path, 4, 4) as (app, pilot, ann):
        players = app.screen.query_one(PlayerTable)
        players.focus()
        players.move_cursor(row=1)  # zoe
        await pilot.press("c")
        await until(pilot, lambda: "That is you" in text_of(pilot, "#lobby-status"))
        players.move_cursor(row=0)  # ann
        await pilot.press("c")
        assert await ann.line() == "CHALLENGED:zoe:4:4:classic:casual:-"
        await until(pilot, lambda: "waiting for ann" in text_of(pilot, "#lobby-status"))
        assert await ann.ask("DECLINE:zoe") == "DECLINE:ACKSTATUS:0"
        await until(pilot, lambda: "ann declined" in text_of(pilot, "#lobby-status"))
        assert "no longer free" not in text_of(pilot, "#lobby-status")  # she did decline
        await pilot.press("c")
        await ann.line()
        assert await ann.ask("ACCEPT:zoe") == "ACCEPT:ACKSTATUS:0"
        assert await ann.line() == "BEGIN:zoe:ann:4:4:classic"
        await until(pilot, lambda: isinstance(app.screen, OnlineGameScreen))
        assert isinstance(app.screen, OnlineGameScreen) and app.screen.mine is not None


async def test_escape_declines_a_challenge_and_c_on_the_rooms_still_creates(tmp_path: Path) -> None:
    async with zoe_in_the_lobby(tmp_path) as (app, pilot, ann):
        assert await ann.ask("CHALLENGE:zoe:7:6:classic:casual") == "CHALLENGE:ACKSTATUS:0"
        await until(pilot, lambda: isinstance(app.screen, ChallengeDialog))
        await pilot.press("escape")
        assert await ann.line() == "DECLINED:zoe"
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen))
        await until(pilot, lambda: "declined ann's" in text_of(pilot, "#lobby-status"))
        await pilot.press("c")  # the room list has the focus: c creates a room
        await until(pilot, lambda: "Waiting for the game" in text_of(pilot, "#lobby-status"))
        assert await ann.ask("ROOMLIST:PLAYER") == "ROOMLIST:ACKSTATUS:0:zoe room"


async def test_the_lobby_hears_no_challenge_behind_a_game(tmp_path: Path) -> None:
    """A list loaded under a game opened over the lobby (its five-second refresh ran on
    there) starts no listener: it read the game's boards and clocks in the game's place (a
    challenge's game seen frozen, without clocks)."""
    async with zoe_in_the_lobby(tmp_path) as (app, pilot, _ann):
        lobby = app.screen
        listener = lobby.query_one(ChallengeListener)
        listener.stop()
        await pilot.pause()
        await app.push_screen(Screen())  # a game, say, over the lobby
        await until(pilot, lambda: app.screen is not lobby)
        lobby._listen()  # what a list loaded late does
        await pilot.pause()
        assert not any(worker.group == "news" and worker.is_running for worker in listener.workers)


async def test_a_challenged_player_who_sits_down_elsewhere_is_no_longer_free(
    tmp_path: Path,
) -> None:
    """The server's DECLINED says both; the app tells which by asking who is free."""
    async with zoe_in_the_lobby(tmp_path, 4, 4) as (app, pilot, ann):
        players = app.screen.query_one(PlayerTable)
        players.focus()
        players.move_cursor(row=0)  # ann
        await pilot.press("c")
        assert (await ann.line()).startswith("CHALLENGED:zoe")
        assert await ann.ask("CREATE:elsewhere:7:6:classic") == "CREATE:ACKSTATUS:0"
        await until(pilot, lambda: "ann is no longer free" in text_of(pilot, "#lobby-status"))
        assert "declined" not in text_of(pilot, "#lobby-status")
