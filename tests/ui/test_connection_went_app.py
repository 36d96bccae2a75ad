"""Screens that ask the server nothing more say so when their connection goes (§5.1).

My games (and a review opened from it) and an online game after its end: each says
what happened and what to do, instead of failing at the next key.
"""

from __future__ import annotations

from pathlib import Path

from c4tui.ui.screens.past_games import PastGamesScreen
from c4tui.ui.screens.past_review import PastGameReview
from tests.net.lobby_client import lobby_server
from tests.ui.past_games import two_finished_games
from tests.ui.test_comeback_app import SLOW, one_move_each, zoe_and_a_lobby
from tests.ui.test_lobby_app import text_of, until
from tests.ui.test_past_games_app import SIZE, anns_games, online_app

#: What such a screen says: the lobby logs in again.
SAID = "the lobby logs in again once you go back to it (Esc)"


async def test_my_games_and_its_review_say_the_connection_went(tmp_path: Path) -> None:
    async with lobby_server(tmp_path) as server:
        await two_finished_games(server.port, tmp_path / "accounts.sqlite3")
        app = online_app(server.port)
        async with app.run_test(size=SIZE) as pilot:
            await anns_games(pilot)
            await pilot.press("enter")  # the 5 × 4 game's review
            await until(pilot, lambda: isinstance(app.screen, PastGameReview))
            await server.stop()
            await until(pilot, lambda: any(SAID in note.message for note in app._notifications))
            await pilot.press("escape")
            await until(pilot, lambda: isinstance(app.screen, PastGamesScreen))
            assert SAID in text_of(pilot, "#games-status")


async def test_an_online_game_after_its_end_says_the_connection_went(tmp_path: Path) -> None:
    async with zoe_and_a_lobby(tmp_path) as (lobby, pilot):
        screen, ann = await one_move_each(pilot, lobby.port)
        await ann.send("FORFEIT")
        await until(pilot, lambda: "r: rematch" in text_of(pilot, "#message"), SLOW)
        assert screen.check_action("rematch", ()) is True
        await lobby.stop()
        await until(pilot, lambda: SAID in text_of(pilot, "#message"), SLOW)
        assert screen.check_action("rematch", ()) is False  # nobody to ask
        await ann.close()
