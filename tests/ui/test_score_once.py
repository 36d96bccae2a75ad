"""A game counts once in the running score, however often its end is taken back.

The trial: a game lost to Easy, reviewed, played on from before its last move and lost
again read "Easy 2" for one game.
"""

from __future__ import annotations

from textual.pilot import Pilot

from c4tui.ui.screens.game import GameScreen
from c4tui.ui.screens.review import ReviewScreen
from tests.ui.helpers import SIZE, make_app, play, settle, start_game

#: Two players: red makes four in column 1 with its fourth disc, the game's 7th move.
RED_WINS = "d1 d2 d1 d2 d1 d2"


def score_of(screen: GameScreen) -> dict[str, int]:
    return dict(screen.score.wins, draws=screen.score.draws)


async def red_wins(pilot: Pilot[None], screen: GameScreen) -> None:
    await play(pilot, "d1")
    assert screen.driver.state.is_over


async def test_playing_on_from_the_review_of_a_finished_game_counts_one_game() -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await start_game(pilot)
        await play(pilot, RED_WINS)
        await red_wins(pilot, screen)
        await pilot.press("v")
        await settle(pilot)
        assert isinstance(app.screen, ReviewScreen)
        await pilot.press("left", "c")  # play on from before the winning move
        await settle(pilot)
        played_on = app.screen
        assert isinstance(played_on, GameScreen) and played_on is not screen
        await red_wins(pilot, played_on)
        assert score_of(played_on) == {"Player 1": 1, "draws": 0}
