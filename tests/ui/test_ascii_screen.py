"""``--ascii``: every character on every screen is ASCII, not only the board's."""

from __future__ import annotations

from textual.pilot import Pilot

from c4tui.engine import Rules
from c4tui.match.settings import MatchSettings
from c4tui.ui.app import C4App
from c4tui.ui.screens.connect import ConnectDialog
from c4tui.ui.screens.game import GameScreen
from c4tui.ui.screens.help import HelpScreen
from tests.ui.helpers import SIZE, closed_port, play, settle, start_game
from tests.ui.on_screen import screen_lines


def ascii_app(**settings: object) -> C4App:
    settings.setdefault("ai_delay", 0.0)
    settings.setdefault("seed", 1)
    return C4App(MatchSettings(**settings), ascii_only=True)  # type: ignore[arg-type]


def non_ascii(pilot: Pilot, where: str) -> list[str]:
    """Each line on screen that is not pure ASCII, with where it was seen."""
    return [f"{where}: {line!r}" for line in screen_lines(pilot.app) if not line.isascii()]


async def test_every_screen_is_ascii_only() -> None:
    app = ascii_app(rules=Rules.POPOUT)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        found = non_ascii(pilot, "menu")
        text = "\n".join(screen_lines(app))
        assert "(*) Two players" in text and "( ) Computer" in text
        assert "enter Start game" in text  # the footer names the key
        screen = await start_game(pilot)
        await play(pilot, "d4 d3 d4 d5")
        await pilot.press("p")
        await pilot.pause()
        found += non_ascii(pilot, "game, Pop mode")
        await pilot.press("p")
        await play(pilot, "d4 d5 d4")
        assert screen.driver.state.is_over
        found += non_ascii(pilot, "game won")
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        found += non_ascii(pilot, "help")
    assert not found, "\n".join(found)


async def test_a_dialog_and_a_notification_are_ascii_only() -> None:
    options = {"host": "127.0.0.1", "port": str(await closed_port()), "user": "pilot"}
    app = ascii_app(opponent="network", options=options)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, ConnectDialog)
        found = non_ascii(pilot, "connect dialog")
        await pilot.press("enter")  # nobody listens there: the game says so
        await settle(pilot)
        assert isinstance(app.screen, GameScreen)
        app.notify("Saved — “game” ✓", title="Über")  # any notification, any text
        await pilot.pause()
        assert app._notifications, "a notification is on screen"
        found += non_ascii(pilot, "refused, with a notification")
    assert not found, "\n".join(found)


async def test_the_command_palette_is_ascii_only() -> None:
    app = ascii_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("ctrl+p", *"theme")
        await pilot.pause(0.3)
        lines = screen_lines(app)
        assert [">", "theme"] in [line.split() for line in lines]  # the prompt, not "??"
        found = non_ascii(pilot, "command palette")
    assert not found, "\n".join(found)
