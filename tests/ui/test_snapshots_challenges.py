"""The looks of challenges (§5.5): the lobby's player list with a bot, and a challenge's popup."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest
from textual.pilot import Pilot

from c4tui.server.core import C4Server
from c4tui.ui.screens.challenge import ChallengeDialog
from c4tui.ui.widgets.player_table import PlayerTable
from tests.net.lobby_client import LobbyClient, lobby_server_in_a_thread, logged_in
from tests.ui.helpers import SIZE, columns_fit, make_app
from tests.ui.test_lobby_app import log_in_through_the_dialog, until

#: cid challenges zoe to this, once zoe's lobby shows.
CHALLENGE = "CHALLENGE:zoe:7:6:classic:rated:3+2"


@pytest.fixture
def lobby_with_players(tmp_path: Path) -> Iterator[tuple[int, list[LobbyClient]]]:
    """A lobby with ann waiting in a rated room, bob free, and robo, a bot, free too."""
    clients: list[LobbyClient] = []  # kept open
    database = tmp_path / "a.sqlite3"

    async def set_up(server: C4Server) -> None:
        await (await logged_in(server.port, "zoe", "secret")).close()
        await (await logged_in(server.port, "robo")).close()
        with sqlite3.connect(database) as connection:
            connection.execute("UPDATE accounts SET bot = 1 WHERE name = 'robo'")
        ann, bob = [await logged_in(server.port, name) for name in ("ann", "bob")]
        robo = await LobbyClient.connect(server.port)
        assert await robo.ask("LOGIN:robo:pw") == "LOGIN:ACKSTATUS:0"
        assert await bob.ask("CREATE:bob room:7:6:classic:rated:3+2") == "CREATE:ACKSTATUS:0"
        clients.extend([ann, bob, robo])

    with lobby_server_in_a_thread(database, set_up) as server:
        yield server.port, clients


def zoe_in_the_lobby(port: int):
    """A run_before: zoe logs in, and the lobby shows both lists filled."""

    async def run_before(pilot: Pilot) -> None:
        await log_in_through_the_dialog(pilot, "secret", register=False)

        def listed() -> bool:  # the rows in, and the columns as wide as them (widened when idle)
            players = pilot.app.screen.query_one(PlayerTable)
            return players.row_count == 4 and columns_fit(players)

        await until(pilot, listed)

    return run_before


def online_app(port: int):
    return make_app(
        opponent="online", options={"host": "127.0.0.1", "port": str(port), "user": "zoe"}
    )


def test_lobby_with_players(snap_compare, lobby_with_players) -> None:
    port, _ = lobby_with_players
    assert snap_compare(online_app(port), terminal_size=SIZE, run_before=zoe_in_the_lobby(port))


def test_challenge_popup(snap_compare, lobby_with_players) -> None:
    port, _ = lobby_with_players
    in_the_lobby = zoe_in_the_lobby(port)

    async def run_before(pilot: Pilot) -> None:
        await in_the_lobby(pilot)
        cid = await logged_in(port, "cid")  # on the app's loop (the others are the server's)
        assert await cid.ask(CHALLENGE) == "CHALLENGE:ACKSTATUS:0"
        for _ in range(200):
            await pilot.pause(0.05)
            if isinstance(pilot.app.screen, ChallengeDialog) and pilot.app.screen.query("Button"):
                break
        await pilot.pause(0.3)

    assert snap_compare(online_app(port), terminal_size=SIZE, run_before=run_before)
