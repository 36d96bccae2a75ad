"""Snapshot of an online game with a standing draw offer: the offer bar above the footer.

The board stays whole at 80 × 24 with the bar's line taken. Update with
``pytest --snapshot-update`` and look at the SVG before committing.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from textual.pilot import Pilot

from c4tui.match.settings import MatchSettings
from c4tui.ui.app import C4App
from tests.net.lobby_client import LobbyClient, logged_in
from tests.ui.helpers import SIZE
from tests.ui.test_lobby_app import until
from tests.ui.test_snapshots_clocks import zoe_joins_the_room
from tests.ui.test_snapshots_comeback import LobbyThread, running
from tests.ui.test_table_talk_app import bar


@pytest.fixture
def lobby(tmp_path: Path) -> Iterator[LobbyThread]:
    yield from running(LobbyThread(tmp_path))


async def ann_waits(port: int) -> LobbyClient:
    ann = await logged_in(port, "ann")
    assert await ann.ask("CREATE:r1:7:6:classic") == "CREATE:ACKSTATUS:0"
    return ann


async def ann_moves(ann: LobbyClient) -> None:
    assert (await ann.line()).startswith("BEGIN:")
    await ann.send("DROP:4")
    await ann.line()


async def ann_offers_a_draw(ann: LobbyClient) -> None:
    await ann.line()  # zoe's move
    assert await ann.ask("DRAW") == "DRAW:ACKSTATUS:0"


def test_a_standing_draw_offer(snap_compare, lobby: LobbyThread) -> None:
    port = lobby.port
    options = {"host": "127.0.0.1", "port": str(port), "user": "zoe"}
    app = C4App(MatchSettings(opponent="online", options=options, ai_delay=0.0, seed=1))
    players: list[LobbyClient] = []  # ann stays connected until the picture is taken

    async def run_before(pilot: Pilot) -> None:
        ann = await lobby.run(ann_waits(port))
        players.append(ann)
        screen = await zoe_joins_the_room(pilot)
        await lobby.run(ann_moves(ann))
        await until(pilot, screen.driver.awaiting_submission, 30)
        await pilot.press("3", "enter")
        await lobby.run(ann_offers_a_draw(ann))
        await until(pilot, lambda: "ann offers a draw." in bar(pilot), 30)
        await until(pilot, lambda: "casual" in str(screen.query_one("#terms").render()), 30)
        await pilot.pause()

    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)
