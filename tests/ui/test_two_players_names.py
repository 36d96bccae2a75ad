"""Two people at one keyboard: the panel names the owner of each colour's discs, in a new
game, a rematch and a game played on from a record, whatever colour the menu last had."""

from __future__ import annotations

from textual.pilot import Pilot
from textual.widgets import Static

from c4tui.engine import Player
from c4tui.ui.screens.game import GameScreen
from c4tui.ui.screens.review import ReviewScreen
from tests.ui.helpers import SIZE, choose_mode, make_app, play, settle, typed_into_open


def turn_line(screen: GameScreen) -> str:
    """The panel's turn line and the name under it, on one line."""
    return str(screen.panel.query_one("#turn", Static).render()).replace("\n", " / ")


async def the_game(pilot: Pilot[None]) -> GameScreen:
    """The game screen, once its seats (and the key that opened it) have had their turn."""
    await settle(pilot)
    screen = pilot.app.screen
    assert isinstance(screen, GameScreen)
    return screen


def owners(screen: GameScreen) -> dict[Player, str]:
    """Who plays each colour's discs in ``screen``'s game."""
    return {player: seat.label for player, seat in screen.driver.seats.items()}


async def test_a_new_two_player_game_after_yellow_against_the_computer_starts_with_player_1() -> (
    None
):
    """Issue 40 #8: the hidden colour row's Yellow made red's first move Player 2's."""
    app = make_app(opponent="computer", person_colour=Player.YELLOW)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await choose_mode(pilot, "Two players")
        await pilot.press("enter")
        screen = await the_game(pilot)
        assert owners(screen) == {Player.RED: "Player 1", Player.YELLOW: "Player 2"}
        assert turn_line(screen).endswith("RED to move / Player 1")
        await play(pilot, "d1 d2 d1 d2 d1 d2 d1")  # Player 1 (RED) wins
        assert turn_line(screen).endswith("RED wins! / Player 1 won")
        await pilot.press("r")  # the rematch swaps the colours: Player 2 moves first
        rematch = await the_game(pilot)
        assert rematch is not screen
        assert owners(rematch) == {Player.RED: "Player 2", Player.YELLOW: "Player 1"}
        assert turn_line(rematch).endswith("RED to move / Player 2")
        await play(pilot, "d4")
        assert turn_line(rematch).endswith("YELLOW to move / Player 1")


async def test_a_record_played_on_by_two_people_keeps_player_1_on_red() -> None:
    """A position pasted as digits (red moved first) plays on with Player 1 on red, not on
    the menu's last colour."""
    app = make_app(opponent="computer", person_colour=Player.YELLOW)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await typed_into_open(pilot, "4453")
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, ReviewScreen)
        await pilot.press("end", "c")  # play on from its end
        screen = await the_game(pilot)
        assert owners(screen) == {Player.RED: "Player 1", Player.YELLOW: "Player 2"}
        assert turn_line(screen).endswith("RED to move / Player 1")
