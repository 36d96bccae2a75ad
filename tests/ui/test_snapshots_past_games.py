"""Snapshots of My games and of a kept game's review with its losing move marked."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import DataTable, Static
from textual.widgets._footer import FooterKey

from c4tui.server.core import C4Server
from c4tui.ui.screens.past_games import PastGamesScreen
from c4tui.ui.screens.past_review import PastGameReview
from tests.net.lobby_client import lobby_server_in_a_thread
from tests.ui.helpers import SIZE, make_app
from tests.ui.past_games import two_finished_games
from tests.ui.test_lobby_app import log_in_through_the_dialog, until

#: The review's verdicts come from the solver in the pool's process (its first start is slow).
ANALYSIS_SECONDS = 90


@pytest.fixture
def past_games_server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[int]:
    """A lobby server in a thread, with ann's two finished games; its port.

    The games' start times are pinned, and shown in UTC (the list shows local time).
    """
    monkeypatch.setenv("TZ", "UTC")
    time.tzset()
    database = tmp_path / "a.sqlite3"

    async def set_up(server: C4Server) -> None:
        await two_finished_games(server.port, database)

    try:
        with lobby_server_in_a_thread(database, set_up) as server:
            yield server.port
    finally:
        monkeypatch.undo()
        time.tzset()


def anns_app(port: int):
    return make_app(
        opponent="online", options={"host": "127.0.0.1", "port": str(port), "user": "ann"}
    )


async def to_my_games(pilot: Pilot) -> None:
    """Log in as ann and open My games, once it is all drawn: both games, the columns
    sized, the status line, and the footer's Review key (the footer is composed again
    only after a refresh, which a loaded machine can put off past the table's rows).
    """
    await pilot.pause()
    await log_in_through_the_dialog(pilot, "pw", register=False)
    await pilot.press("m")
    await until(pilot, lambda: isinstance(pilot.app.screen, PastGamesScreen))

    def listed() -> bool:
        screen = pilot.app.screen
        table = screen.query_one(DataTable)
        status = str(screen.query_one("#games-status", Static).render())
        keys = {key.description for key in screen.query(FooterKey)}
        return (
            table.row_count == 2
            and table.ordered_columns[3].content_width >= 20
            and status.startswith("2 games")
            and "Review" in keys
        )

    await until(pilot, listed)
    await pilot.pause()


def test_my_games_list(snap_compare, past_games_server: int) -> None:
    assert snap_compare(anns_app(past_games_server), terminal_size=SIZE, run_before=to_my_games)


def test_review_marks_the_losing_move(snap_compare, past_games_server: int) -> None:
    async def run_before(pilot: Pilot) -> None:
        await to_my_games(pilot)
        await pilot.press("down", "enter")
        await until(pilot, lambda: isinstance(pilot.app.screen, PastGameReview))
        review = pilot.app.screen
        assert isinstance(review, PastGameReview)
        await until(pilot, lambda: review.analysed, ANALYSIS_SECONDS)
        await pilot.press("t")
        await pilot.pause()

    assert snap_compare(anns_app(past_games_server), terminal_size=(100, 30), run_before=run_before)
