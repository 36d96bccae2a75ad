"""Chat in the app: the game screen's history of the room's lines, and t in the lobby."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from pathlib import Path

from textual.app import App
from textual.pilot import Pilot
from textual.widgets import Input, RichLog

from c4tui.client import words
from c4tui.ui.screens.lobby import LobbyScreen
from c4tui.ui.screens.online_game import OnlineGameScreen
from c4tui.ui.widgets.room_table import RoomTable
from tests.net.lobby_client import LobbyClient, lobby_server
from tests.ui.helpers import SIZE, make_app
from tests.ui.test_lobby_app import (
    ann_plays_bob,
    log_in_through_the_dialog,
    text_of,
    until,
)


def lobby_status(pilot) -> str:
    return text_of(pilot, "#lobby-status")


async def test_t_in_the_lobby_says_why_there_is_no_chat_there(tmp_path: Path) -> None:
    async with lobby_server(tmp_path) as server:
        options = {"host": "127.0.0.1", "port": str(server.port), "user": "zoe"}
        app = make_app(opponent="online", options=options)
        async with app.run_test(size=SIZE) as pilot:
            await log_in_through_the_dialog(pilot, "secret", register=True)
            await until(pilot, lambda: "No rooms yet" in lobby_status(pilot))
            await pilot.press("t")
            await until(pilot, lambda: words.NO_CHAT_IN_THE_LOBBY in lobby_status(pilot))


def a_room_listed(app: App[object]) -> bool:
    """Whether the lobby shows, with a room chosen in its list."""
    screen = app.screen
    return (
        isinstance(screen, LobbyScreen) and screen.query_one("#rooms", RoomTable).chosen is not None
    )


@contextlib.asynccontextmanager
async def zoe_watching_ann_and_bob(
    tmp_path: Path,
) -> AsyncIterator[tuple[Pilot, OnlineGameScreen, LobbyClient, LobbyClient]]:
    """The app as zoe, watching ann and bob's 7 x 6 game: its pilot, screen, and the players."""
    async with lobby_server(tmp_path) as server:
        ann, bob = await ann_plays_bob(server.port, "7:6:classic")
        options = {"host": "127.0.0.1", "port": str(server.port), "user": "zoe"}
        app = make_app(opponent="online", options=options)
        async with app.run_test(size=SIZE) as pilot:
            await log_in_through_the_dialog(pilot, "secret", register=False)
            # Their room listed first: on a loaded machine w could come before the list did.
            await until(pilot, lambda: a_room_listed(app), seconds=60)
            await pilot.press("w")  # watch ann and bob
            await until(pilot, lambda: isinstance(app.screen, OnlineGameScreen), seconds=60)
            screen = app.screen
            assert isinstance(screen, OnlineGameScreen)
            yield pilot, screen, ann, bob
            await ann.close(), await bob.close()


def shown_lines(screen: OnlineGameScreen) -> list[str]:
    """The chat history's lines as drawn (wrapped lines joined back)."""
    log = screen.chat_log.query_one(RichLog)
    return ["".join(segment.text for segment in line).rstrip() for line in log.lines]


async def test_the_game_screen_keeps_the_rooms_chat_with_each_sender_as_plain_text(
    tmp_path: Path,
) -> None:
    async with zoe_watching_ann_and_bob(tmp_path) as (pilot, screen, ann, bob):
        app = pilot.app
        await pilot.pause()
        assert not screen.chat_log.display  # nobody has talked: the panel as it was
        await ann.send("CHAT:[bold]x[/]")  # text, never markup
        for line in range(1, 10):
            await bob.send(f"CHAT:line {line}")
        await until(pilot, lambda: len(screen.chat_log.said) == 10)
        await pilot.press("t")
        screen.query_one("#chat", Input).value = "hi both"
        await pilot.press("enter")
        await until(pilot, lambda: len(screen.chat_log.said) == 11)  # ours, from the server
        assert screen.chat_log.said[0] == ("ann", "[bold]x[/]")
        assert screen.chat_log.said[-1] == ("zoe", "hi both")
        assert screen.chat_log.display
        await pilot.pause()
        lines = shown_lines(screen)
        assert lines[0] == "ann: [bold]x[/]" and lines[-1] == "zoe: hi both"
        assert not app._notifications  # no toasts over the board
        assert screen.board.region.bottom <= SIZE[1] - 1  # the board whole, above the footer


async def test_the_finished_rooms_chat_goes_on_for_a_minute_after_the_end(
    tmp_path: Path,
) -> None:
    """§5.6: "gg" after GAMEEND — a viewer (and the players) still hear and say it."""
    async with zoe_watching_ann_and_bob(tmp_path) as (pilot, screen, ann, bob):
        await ann.send("FORFEIT")
        await until(pilot, lambda: screen.driver.is_over)
        await bob.send("CHAT:gg")
        await until(pilot, lambda: ("bob", "gg") in screen.chat_log.said)
        await pilot.press("t")
        screen.query_one("#chat", Input).value = "well played"
        await pilot.press("enter")
        await until(pilot, lambda: ("zoe", "well played") in screen.chat_log.said)
