"""Snapshot of a timed lobby game: both clocks beside the board, one of them low.

The server's clock is pinned (it moves only when the test says), and so is the
app's, so the times on screen are the server's exactly. Update with
``pytest --snapshot-update`` and look at the SVG before committing.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import DataTable, Input

from c4tui.match.settings import MatchSettings
from c4tui.ui.app import C4App
from c4tui.ui.screens.online_game import OnlineGameScreen
from tests.net.lobby_client import LobbyClient, logged_in
from tests.ui.helpers import SIZE
from tests.ui.test_comeback_app import next_line
from tests.ui.test_lobby_app import until
from tests.ui.test_snapshots_comeback import LobbyThread, running


class PinnedTime:
    """A steady clock that moves only when told."""

    def __init__(self) -> None:
        self.value = 1000.0

    def __call__(self) -> float:
        return self.value


@pytest.fixture
def pinned() -> PinnedTime:
    return PinnedTime()


@pytest.fixture
def timed_lobby(tmp_path: Path, pinned: PinnedTime) -> Iterator[LobbyThread]:
    yield from running(LobbyThread(tmp_path, now=pinned))


async def ann_waits(port: int) -> LobbyClient:
    ann = await logged_in(port, "ann")
    assert await ann.ask("CREATE:blitz:7:6:classic:rated:3+2") == "CREATE:ACKSTATUS:0"
    return ann


async def ann_moves_late(ann: LobbyClient, pinned: PinnedTime) -> None:
    """ann thinks 2 min 53 s over her first move: 9 s left, the increment added."""
    await next_line(ann, "CLOCK")
    pinned.value += 173
    await ann.send("DROP:4")
    await next_line(ann, "CLOCK")


async def zoe_joins_the_room(pilot: Pilot) -> OnlineGameScreen:
    """From the menu: zoe logs in and joins the one room waiting; its game's screen."""
    await pilot.press("enter")  # the menu's Start: the login dialog
    await until(pilot, lambda: bool(pilot.app.screen.query("#password")))
    pilot.app.screen.query_one("#password", Input).value = "secret"
    await pilot.press("enter")
    await until(pilot, lambda: bool(pilot.app.screen.query(DataTable)))
    await until(pilot, lambda: pilot.app.screen.query_one(DataTable).row_count == 1)
    await pilot.press("enter")  # join ann's room
    await until(pilot, lambda: isinstance(pilot.app.screen, OnlineGameScreen))
    screen = pilot.app.screen
    assert isinstance(screen, OnlineGameScreen)
    return screen


async def zoe_joins_ann(
    pilot: Pilot, lobby: LobbyThread, pinned: PinnedTime
) -> tuple[LobbyClient, OnlineGameScreen]:
    """zoe logs in, joins ann's timed room; ann's late first move played; the game's screen."""
    ann = await lobby.run(ann_waits(lobby.port))
    screen = await zoe_joins_the_room(pilot)
    # The app's clock pinned to the last reading's arrival: the server's times exactly.
    screen.clocks.now = lambda: screen.clocks.reading.at if screen.clocks.reading else 0.0
    await lobby.run(ann_moves_late(ann, pinned))
    return ann, screen


def test_a_timed_lobby_game(snap_compare, timed_lobby: LobbyThread, pinned: PinnedTime) -> None:
    port = timed_lobby.port
    options = {"host": "127.0.0.1", "port": str(port), "user": "zoe"}
    app = C4App(MatchSettings(opponent="online", options=options, ai_delay=0.0, seed=1))
    players: list[LobbyClient] = []  # ann stays connected until the picture is taken

    async def run_before(pilot: Pilot) -> None:
        ann, screen = await zoe_joins_ann(pilot, timed_lobby, pinned)
        players.append(ann)
        await until(pilot, lambda: len(screen.driver.moves) == 1, 30)
        await until(pilot, screen.driver.awaiting_submission, 30)
        await pilot.pause()

    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)


async def ann_says(ann: LobbyClient, lines: list[str]) -> None:
    """ann's lines to the room, each read back (the sender hears her own)."""
    for text in lines:
        await ann.send(f"CHAT:{text}")
        await next_line(ann, "CHAT")


def test_a_lobby_games_chat_beside_the_board(
    snap_compare, timed_lobby: LobbyThread, pinned: PinnedTime
) -> None:
    """The chat history under the moves, the 7 × 6 board whole beside it at 80 × 24."""
    port = timed_lobby.port
    options = {"host": "127.0.0.1", "port": str(port), "user": "zoe"}
    app = C4App(MatchSettings(opponent="online", options=options, ai_delay=0.0, seed=1))
    players: list[LobbyClient] = []
    said = ["hi zoe, good luck", "[bold]not bold[/]", "a longer line that wraps in the panel"]

    async def run_before(pilot: Pilot) -> None:
        ann, screen = await zoe_joins_ann(pilot, timed_lobby, pinned)
        players.append(ann)
        await timed_lobby.run(ann_says(ann, said))
        await until(pilot, lambda: len(screen.chat_log.said) == len(said), 30)
        await until(pilot, screen.driver.awaiting_submission, 30)
        await pilot.pause()

    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)
