"""Snapshot of a lobby game while the app comes back by itself (the server stopped).

The server runs in a thread (the snapshot runs the app in its own loop); the app's
second try to come back waits a minute, so the panel holds still at "(2)".
Update with ``pytest --snapshot-update`` and look at the SVG before committing.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable, Coroutine, Iterator
from pathlib import Path
from typing import Any, TypeVar

import pytest
from textual.pilot import Pilot
from textual.widgets import Input

from c4tui.match.settings import MatchSettings
from c4tui.server.core import C4Server, ServerConfig
from c4tui.ui.app import C4App
from c4tui.ui.screens.online_game import OnlineGameScreen
from tests.net.lobby_client import TEST_ROUNDS, LobbyClient, logged_in
from tests.ui.helpers import SIZE
from tests.ui.test_comeback_app import STUCK_AT_TRY_2, next_line
from tests.ui.test_lobby_app import text_of, until

Result = TypeVar("Result")


class LobbyThread:
    """A lobby server running in its own thread and loop; ``run`` awaits work there."""

    def __init__(self, tmp_path: Path, now: Callable[[], float] = time.monotonic) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        config = ServerConfig(port=0, db=tmp_path / "a.sqlite3", bcrypt_rounds=TEST_ROUNDS)
        self.server = C4Server(config, now=now)  # timed games run on ``now``
        self.blocking(self.server.start())
        self.port = self.server.port
        self.running = True
        self.blocking(self._zoe_registers())

    async def _zoe_registers(self) -> None:
        await (await logged_in(self.port, "zoe", "secret")).close()

    def blocking(self, work: Coroutine[Any, Any, Result]) -> Result:
        return asyncio.run_coroutine_threadsafe(work, self.loop).result(30)

    async def run(self, work: Coroutine[Any, Any, Result]) -> Result:
        """``work`` done in the server's loop, awaited from another loop."""
        return await asyncio.wrap_future(asyncio.run_coroutine_threadsafe(work, self.loop))

    async def stop(self) -> None:
        """Stop the server (in its loop)."""
        self.running = False
        await self.run(self.server.stop())

    def close(self) -> None:
        if self.running:
            self.blocking(self.server.stop())
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)


@pytest.fixture
def lobby_thread(tmp_path: Path) -> Iterator[LobbyThread]:
    yield from running(LobbyThread(tmp_path))


def running(lobby: LobbyThread) -> Iterator[LobbyThread]:
    """``lobby`` for a fixture: closed after the test."""
    try:
        yield lobby
    finally:
        lobby.close()


async def ann_joins(port: int) -> LobbyClient:
    ann = await logged_in(port, "ann")
    assert await ann.ask("JOIN:zoe room:PLAYER") == "JOIN:ACKSTATUS:0"
    await next_line(ann, "BEGIN")
    return ann


async def ann_answers(ann: LobbyClient, column: int) -> None:
    await next_line(ann, "BOARDSTATUS")
    await ann.send(f"DROP:{column}")
    await next_line(ann, "BOARDSTATUS")


def test_a_lobby_game_reconnecting(snap_compare, lobby_thread: LobbyThread) -> None:
    port = lobby_thread.port
    options = {"host": "127.0.0.1", "port": str(port), "user": "zoe"}
    settings = MatchSettings(opponent="online", options=options, ai_delay=0.0, seed=1)
    app = C4App(settings, animate=False, reconnect_delays=STUCK_AT_TRY_2)

    async def run_before(pilot: Pilot) -> None:
        await pilot.pause()
        await pilot.press("enter")  # the menu's Start: the login dialog
        await until(pilot, lambda: bool(pilot.app.screen.query("#password")))
        pilot.app.screen.query_one("#password", Input).value = "secret"
        await pilot.press("enter")
        await until(pilot, lambda: bool(pilot.app.screen.query("#lobby-status")))
        await pilot.press("c")
        await until(pilot, lambda: "Waiting for the game" in text_of(pilot, "#lobby-status"))
        ann = await lobby_thread.run(ann_joins(port))
        await until(pilot, lambda: isinstance(pilot.app.screen, OnlineGameScreen))
        screen = pilot.app.screen
        assert isinstance(screen, OnlineGameScreen)
        await until(pilot, screen.driver.awaiting_submission, 30)
        await pilot.press("4", "enter")
        await lobby_thread.run(ann_answers(ann, 4))
        await until(pilot, lambda: len(screen.driver.moves) == 2, 30)
        await lobby_thread.stop()
        await until(pilot, lambda: "reconnecting (2)" in text_of(pilot, "#message"), 30)
        await pilot.pause()

    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)
