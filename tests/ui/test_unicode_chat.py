"""The app chats in any printable Unicode with a real server (spec §5.6): ``héllo`` was
dropped silently, and a hostile server's control characters never reach the screen."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Input

from c4tui.engine import Rules
from c4tui.ui.screens.online_game import OnlineGameScreen
from tests.net.lobby_client import lobby_server
from tests.ui.helpers import SIZE, make_app
from tests.ui.test_lobby_app import ann_plays_bob, until, watching_the_room


async def test_the_apps_chat_sends_and_shows_unicode(tmp_path: Path) -> None:
    async with lobby_server(tmp_path) as server:
        ann, bob = await ann_plays_bob(server.port, "5:4:popout")
        options = {"host": "127.0.0.1", "port": str(server.port), "user": "zoe"}
        app = make_app(opponent="online", options=options, rules=Rules.POPOUT)
        async with app.run_test(size=SIZE) as pilot:
            await watching_the_room(pilot)  # once the room is listed: w before would miss it
            await pilot.press("t")
            app.screen.query_one("#chat", Input).value = "héllo"
            await pilot.press("enter")
            assert await ann.line() == "CHAT:zoe:héllo"
            assert await bob.line() == "CHAT:zoe:héllo"
            await ann.send("CHAT:gg 🙂")
            assert await ann.line() == await bob.line() == "CHAT:ann:gg 🙂"
            screen = app.screen
            assert isinstance(screen, OnlineGameScreen)
            await until(pilot, lambda: ("ann", "gg 🙂") in screen.chat_log.said)
