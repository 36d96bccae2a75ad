"""A timed lobby game in the app: both clocks beside the board, the mover's running, on time.

A real server (its steady clock injected, so a minute passes in a moment) and a raw
client; the app joins the raw client's timed room through its lobby screen.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest
from textual.app import App, ComposeResult
from textual.content import Content
from textual.pilot import Pilot

from c4tui.client.clocks import ClockReading, clock_text
from c4tui.engine import Player
from c4tui.server.core import C4Server
from c4tui.ui.screens.online_game import OnlineGameScreen
from c4tui.ui.widgets.game_clocks import GameClocks
from c4tui.ui.widgets.looks import player_glyph
from tests.net.lobby_client import LobbyClient, logged_in
from tests.net.test_lobby_clocks import MovableTime, timed_server
from tests.ui.helpers import SIZE, make_app
from tests.ui.test_lobby_app import (
    log_in_through_the_dialog,
    play_in_the_waiting_room,
    text_of,
    until,
)


@asynccontextmanager
async def zoe_joins(
    tmp_path: Path, terms: str, now: MovableTime
) -> AsyncIterator[tuple[Pilot, OnlineGameScreen, LobbyClient]]:
    """ann's room r1 (7 x 6 classic, then ``terms``: ``:casual:1+0``); zoe joins it in the app."""
    async with (
        timed_server(tmp_path / "lobby.sqlite3", now) as server,
        zoe_joins_on(server, terms) as joined,
    ):
        yield joined


@asynccontextmanager
async def zoe_joins_on(
    server: C4Server, terms: str
) -> AsyncIterator[tuple[Pilot, OnlineGameScreen, LobbyClient]]:
    """ann's room r1 on ``server`` (7 x 6 classic, then ``terms``); zoe joins it in the app."""
    ann = await logged_in(server.port, "ann")
    assert await ann.ask(f"CREATE:r1:7:6:classic{terms}") == "CREATE:ACKSTATUS:0"
    options = {"host": "127.0.0.1", "port": str(server.port), "user": "zoe"}
    app = make_app(opponent="online", options=options)
    async with app.run_test(size=SIZE) as pilot:
        await log_in_through_the_dialog(pilot, "secret", register=True)
        screen = await play_in_the_waiting_room(pilot)
        assert await ann.line() == "BEGIN:ann:zoe:7:6:classic"
        yield pilot, screen, ann


def _times(pilot: Pilot) -> list[str]:
    """The two clocks' times as shown (RED's, YELLOW's)."""
    return [line.split()[-1] for line in text_of(pilot, "#clocks").splitlines()]


async def test_the_movers_clock_counts_down_beside_the_board(tmp_path: Path) -> None:
    async with zoe_joins(tmp_path, ":casual:1+0", MovableTime()) as (pilot, screen, ann):
        await until(pilot, lambda: screen.clocks.display)
        lines = text_of(pilot, "#clocks").splitlines()
        assert "ann" in lines[0] and "zoe" in lines[1]
        await until(pilot, lambda: _times(pilot)[0] == "0:59")  # ann's runs, live
        assert _times(pilot)[1] == "1:00"  # zoe waits: hers stands
        await ann.line()  # CLOCK after BEGIN
        await ann.send("DROP:4")
        await ann.line()  # BOARDSTATUS
        red_ms = int((await ann.line()).split(":")[1])  # CLOCK
        await until(pilot, lambda: _times(pilot)[1] == "0:59")  # zoe's runs now
        assert _times(pilot)[0] == clock_text(red_ms)  # ann's stands (no increment: 1+0)


class ClocksApp(App[None]):
    """Just the clocks, for what they draw."""

    def __init__(self, ascii_only: bool) -> None:
        super().__init__()
        self.clocks = GameClocks(
            {Player.RED: "ann", Player.YELLOW: "a-long-name-indeed"},
            ascii_only=ascii_only,
            id="clocks",
        )

    def compose(self) -> ComposeResult:
        yield self.clocks


@pytest.mark.parametrize("ascii_only", [False, True])
async def test_low_time_shows_tenths_and_a_mark_that_needs_no_colour(ascii_only: bool) -> None:
    app = ClocksApp(ascii_only)
    async with app.run_test(size=(22, 4)) as pilot:
        clocks = app.clocks
        clocks.now = lambda: 100.0
        clocks.reading = ClockReading(9_500, 75_000, Player.RED, at=100.0)
        await until(pilot, lambda: clocks.size.width == 22)  # laid out: the names fitted
        red, yellow = text_of(pilot, "#clocks").splitlines()
        assert red.startswith(player_glyph(Player.RED, ascii_only)) and red.endswith("!0:09.5")
        assert yellow.endswith(" 1:15") and ("..." if ascii_only else "…") in yellow
        assert all(len(line) == 22 for line in (red, yellow))
        drawn = clocks.render()
        assert isinstance(drawn, Content)  # the time marked by more than a colour:
        assert [span.style for span in drawn.spans if span.start == len(red) - 7] == [
            "bold reverse"
        ]
        clocks.now = lambda: 100.3
        await until(pilot, lambda: text_of(pilot, "#clocks").splitlines()[0].endswith("!0:09.2"))
        clocks.reading = clocks.reading.stopped(100.3)  # the game ended: nothing runs
        clocks.now = lambda: 200.0
        await pilot.pause(0.2)
        assert text_of(pilot, "#clocks").splitlines()[0].endswith("!0:09.2")


async def test_a_player_who_lets_the_clock_run_out_loses_on_time(tmp_path: Path) -> None:
    now = MovableTime()
    async with zoe_joins(tmp_path, ":casual:1+0", now) as (pilot, screen, ann):
        await ann.line()
        await ann.send("DROP:4")
        await until(pilot, lambda: len(screen.driver.moves) == 1)
        now.skipped += 61  # zoe does not move
        await until(pilot, lambda: screen.driver.is_over)
        await pilot.pause()
        assert "ann (RED) wins: zoe lost on time" in text_of(pilot, "#message")
        left = [note.title for note in pilot.app._notifications if "left" in note.title]
        assert not left  # a time loss is no "YELLOW left"
        assert "RED wins on time" in text_of(pilot, "#turn")
        assert screen.room_game.clock is not None and screen.room_game.clock.mover is None
        assert screen.room_game.colour_of("zoe") is Player.YELLOW


async def test_an_untimed_game_shows_no_clocks(tmp_path: Path) -> None:
    async with zoe_joins(tmp_path, "", MovableTime()) as (pilot, screen, ann):
        await ann.send("DROP:4")
        await until(pilot, lambda: len(screen.driver.moves) == 1)
        assert not screen.clocks.display
