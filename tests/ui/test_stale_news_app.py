"""News that stops being true or new leaves the screen: "ann is back.", "restarting"."""

from __future__ import annotations

from pathlib import Path

import pytest

from c4tui.ui.screens import online_game
from tests.ui.test_comeback_app import SLOW, ann_logs_in_again, one_move_each, zoe_and_a_lobby
from tests.ui.test_lobby_app import log_in_through_the_dialog, text_of, until


async def test_ann_is_back_gives_way_to_whose_turn_it_is(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(online_game, "BACK_NEWS_SECONDS", 1.0, raising=False)  # quick
    async with zoe_and_a_lobby(tmp_path) as (lobby, pilot):
        screen, ann = await one_move_each(pilot, lobby.port)
        await pilot.press("2", "enter")  # zoe's second move: ann to move
        await until(pilot, lambda: "ann is thinking" in text_of(pilot, "#message"), SLOW)
        await ann.close()
        message = lambda: text_of(pilot, "#message")  # noqa: E731
        await until(pilot, lambda: "ann lost the connection" in message(), SLOW)
        ann = await ann_logs_in_again(lobby.port)
        await until(pilot, lambda: message() == "ann is back.", SLOW)
        await until(pilot, lambda: "ann is thinking" in message(), SLOW)  # old news gone
        assert not screen.driver.is_over
        await ann.close()


async def test_the_lobby_says_the_server_is_back_once_it_is(tmp_path: Path) -> None:
    async with zoe_and_a_lobby(tmp_path) as (lobby, pilot):
        await log_in_through_the_dialog(pilot, "secret", register=True)
        status = lambda: text_of(pilot, "#lobby-status")  # noqa: E731
        await until(pilot, lambda: "No rooms yet" in status(), SLOW)
        await lobby.restart()
        await until(pilot, lambda: "The server is back." in status(), SLOW)
        assert "restarting" not in status()
        assert not pilot.app.screen.query_one("#lobby-status").has_class("-error")  # good news
