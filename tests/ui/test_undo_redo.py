"""Redo in the app: U (or Ctrl+Y) plays again what u took back, until a new move is made."""

from __future__ import annotations

import asyncio

from textual.widgets._footer import FooterKey

from c4tui.engine import Player
from c4tui.match.settings import MatchSettings
from c4tui.ui.app import C4App
from c4tui.ui.screens.game import GameScreen
from tests.seats import SlowSeat
from tests.ui.helpers import against, make_app, play, settle, start_game, undone_mid_thought

WIDE = (120, 30)  # room in the footer for every key offered during play


def message(screen: GameScreen) -> str:
    return str(screen.query_one("#message").render())


def footer_offers(screen: GameScreen, description: str) -> bool:
    """True when the footer shows the key lit (not dimmed, not left out)."""
    keys = [key for key in screen.query(FooterKey) if key.description == description]
    return any(not key.has_class("-disabled") for key in keys)


def played(screen: GameScreen) -> str:
    return " ".join(str(move) for move in screen.driver.moves)


async def test_two_players_redo_each_undo_then_nothing() -> None:
    app = make_app()
    async with app.run_test(size=WIDE) as pilot:
        screen = await start_game(pilot)
        await play(pilot, "d4 d5 d6")
        assert not footer_offers(screen, "Redo")
        await pilot.press("u", "u")
        await settle(pilot)
        assert played(screen) == "d4" and footer_offers(screen, "Redo")
        await pilot.press("U")
        await settle(pilot)
        assert played(screen) == "d4 d5", message(screen)
        assert message(screen) == "Redone: 1 move"
        await pilot.press("ctrl+y")
        await settle(pilot)
        assert played(screen) == "d4 d5 d6" and screen.driver.state.turn is Player.YELLOW
        assert not footer_offers(screen, "Redo")
        await pilot.press("U")
        await settle(pilot)
        assert message(screen) == "Nothing to redo" and played(screen) == "d4 d5 d6"


async def test_a_new_move_after_undo_leaves_nothing_to_redo() -> None:
    app = make_app()
    async with app.run_test(size=WIDE) as pilot:
        screen = await start_game(pilot)
        await play(pilot, "d4 d5")
        await pilot.press("u")
        await settle(pilot)
        await play(pilot, "d1")
        assert not footer_offers(screen, "Redo")
        await pilot.press("U")
        await settle(pilot)
        assert message(screen) == "Nothing to redo" and played(screen) == "d4 d1"


async def test_redo_against_the_computer_plays_your_move_and_its_reply_again() -> None:
    app = make_app(opponent="computer")
    async with app.run_test(size=WIDE) as pilot:
        screen = await start_game(pilot)
        await play(pilot, "d4 d1")
        before = played(screen)
        assert len(screen.driver.moves) == 4
        await pilot.press("u")
        await settle(pilot)
        assert len(screen.driver.moves) == 2
        await pilot.press("U")
        await settle(pilot)
        assert played(screen) == before and screen.driver.state.turn is Player.RED
        assert screen.board.state == screen.driver.state
        assert "Redone: 2 moves" in message(screen)


async def test_redo_of_a_move_undone_mid_thought_sets_the_computer_thinking_again() -> None:
    """u while the computer thinks takes your move back; U plays it again, the first
    thought was cancelled and a new one starts: one answer, never two racing."""
    slow = SlowSeat()
    app = C4App(MatchSettings(opponent="computer"), make_driver=against(slow))
    async with app.run_test(size=WIDE) as pilot:
        screen = await undone_mid_thought(pilot, slow)
        assert slow.cancelled and screen.driver.moves == () and footer_offers(screen, "Redo")
        slow.asked.clear()
        await pilot.press("U")
        await asyncio.wait_for(slow.asked.wait(), timeout=5)
        await pilot.pause()
        assert played(screen) == "d4" and "thinking" in message(screen)
        assert not footer_offers(screen, "Redo") and not screen.driver.awaiting_submission()
        await pilot.press("m")  # leave without waiting for the slow answer
