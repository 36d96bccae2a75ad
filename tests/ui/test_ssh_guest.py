"""An ssh guest's app (§9, ``--ssh-guests``) through Pilot, against a real server.

The welcome's "Watch as a guest" opens the lobby as ``guest-<n>``; the lobby's play keys
say that guests only watch, and ask the server nothing; a guest that comes back after
a drop is a guest again (KEYGUEST), and so is one that leaves a room it watched.
"""

from __future__ import annotations

import time
from pathlib import Path

from textual.widgets import Button, Static

from c4tui.protocols import keys
from c4tui.protocols import lobby as wire
from c4tui.protocols.ssh_visit import KeyVisit
from c4tui.server.core import C4Server
from c4tui.ui.app import C4App
from c4tui.ui.screens.key_welcome import KeyWelcome
from c4tui.ui.screens.lobby import LobbyScreen
from c4tui.ui.screens.lobby_guests import GUESTS_ONLY_WATCH
from tests.net.lobby_client import lobby_server
from tests.net.test_lobby_keys import PAGE_KEY, token
from tests.ui.helpers import SIZE

TOKEN = token(7)


async def guests_and_a_visit(server: C4Server) -> None:
    """What ``serve --ssh-guests`` and its door do for one visitor."""
    server.lobby.guests = True
    expires = time.time() + 600
    fingerprint = keys.fingerprint_of(PAGE_KEY)
    await server.lobby.store.begin_visit(
        keys.token_hash(TOKEN), keys.Visit(fingerprint, PAGE_KEY), expires
    )


async def until(pilot, check, what: str) -> None:  # type: ignore[no-untyped-def]
    """Let the app work until ``check()`` holds (bounded in time, not in tries)."""
    deadline = time.monotonic() + 30
    while not check():
        assert time.monotonic() < deadline, f"never {what}"
        await pilot.pause(0.02)


def status(screen: LobbyScreen) -> str:
    return str(screen.query_one("#lobby-status", Static).render())


async def test_a_guest_watches_only_and_comes_back_as_a_guest(tmp_path: Path) -> None:
    async with lobby_server(tmp_path) as server:
        await guests_and_a_visit(server)
        visit = KeyVisit(TOKEN, ("127.0.0.1", server.port), guests=True)
        app = C4App(key_visit=visit, animate=False, reconnect_delays=(0.0,) * 5)
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: isinstance(app.screen, KeyWelcome), "welcomed")
            welcome = app.screen
            await until(pilot, lambda: welcome.query("#watch").first().display, "offered")
            welcome.query_one("#watch", Button).press()
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "in the lobby")
            lobby = app.screen
            assert isinstance(lobby, LobbyScreen)
            assert lobby.link.user == "guest-1"
            help_line = lobby.query_one("#lobby-help", Static)
            shown = lambda: str(help_line.render()).startswith("You watch as a guest")  # noqa: E731
            await until(pilot, shown, "told what a guest may do")
            for key in ["c", "g", "t", "P"]:
                lobby.query_one("#lobby-status", Static).update("")
                await pilot.press(key)
                await until(pilot, lambda: status(lobby) == GUESTS_ONLY_WATCH, f"{key} refused")
            assert not lobby.link.lost  # nothing was asked that the server would refuse
            first = lobby.link
            for connection in list(server.lobby.open):  # a drop: the lobby comes back by
                connection.drop("a test's drop")  # itself, as a guest again
            await until(pilot, lambda: lobby.link is not first and not lobby.coming_back, "back")
            assert lobby.link.user == "guest-1"  # its old name was free again
            assert (await lobby.link.players()) == []  # a guest is in no one's list
            session = lobby._session  # leaving a room watched is a fresh login: a guest's
            assert await session.log_in_afresh() is None
            assert session.guest and session.link.user.startswith("guest-")
            assert await session.link.room_names(wire.Mode.VIEWER) == []  # logged in
