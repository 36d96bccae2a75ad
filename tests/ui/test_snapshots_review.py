"""Snapshots of a reviewed game (a, then ] to its second mistake): the move list's marks, the
verdict on the move shown with the best move, the accuracies and the evaluation graph, whole
at 100 × 30 and at 80 × 24, and in ASCII."""

from __future__ import annotations

from textual.pilot import Pilot

from c4tui.records import record_from_digits
from c4tui.ui.app import C4App
from tests.ui.test_game_review_app import reviewed

#: A game of random moves (22), with blunders, mistakes and inaccuracies on both sides.
GAME = "7474135447734352523271"


def reviewed_app(ascii_only: bool = False) -> C4App:
    return C4App(review=record_from_digits(GAME), ascii_only=ascii_only, animate=False)


async def at_the_second_mistake(pilot: Pilot[None]) -> None:
    await reviewed(pilot)
    await pilot.press("right_square_bracket", "right_square_bracket")
    await pilot.pause()


def test_a_reviewed_game_at_100_by_30(snap_compare) -> None:
    assert snap_compare(reviewed_app(), terminal_size=(100, 30), run_before=at_the_second_mistake)


def test_a_reviewed_game_at_80_by_24(snap_compare) -> None:
    assert snap_compare(reviewed_app(), terminal_size=(80, 24), run_before=at_the_second_mistake)


def test_a_reviewed_game_in_ascii(snap_compare) -> None:
    assert snap_compare(
        reviewed_app(ascii_only=True), terminal_size=(80, 24), run_before=at_the_second_mistake
    )
