"""The panel's lines break between phrases, never inside one (issue 27, item 11).

At 100 × 30 the panel showed "Computer (Perfect)" with its score on the next line,
"r: rematch · esc:" / "menu", and a saved game's file name cut at its dot.
"""

from __future__ import annotations

import pytest
from textual.widgets import Static

from c4tui.engine import Player, Rules
from c4tui.records.store import saved_games
from c4tui.ui.screens.game import GameScreen
from c4tui.ui.widgets.phrasing import shortened
from c4tui.ui.widgets.status import panel_width_for
from tests.ui.helpers import make_app, play, settle, start_game
from tests.ui.on_screen import screen_lines

SIZES = [(80, 24), (100, 30), (120, 40)]


def panel_lines(screen: GameScreen) -> list[str]:
    """The panel's lines as the terminal shows them (the right of each screen line)."""
    left = screen.panel.content_region.x
    return [line[left:].rstrip() for line in screen_lines(screen.app)]


def shown(screen: GameScreen, widget: str) -> list[str]:
    return str(screen.panel.query_one(widget, Static).render()).splitlines()


@pytest.mark.parametrize("size", SIZES, ids=lambda size: "{}x{}".format(*size))
async def test_a_name_keeps_its_score_on_its_line(size: tuple[int, int]) -> None:
    """It showed "Computer (Perfect)" / "1": the score names the computer by its level."""
    app = make_app(opponent="computer", options={"level": "perfect"})
    async with app.run_test(size=size) as pilot:
        screen = await start_game(pilot)
        screen.driver.resign(Player.YELLOW, "the computer gave up")
        await settle(pilot)
        assert shown(screen, "#score") == ["Score", "You 1", "Perfect 0", "draws 0"]


@pytest.mark.parametrize("size", SIZES, ids=lambda size: "{}x{}".format(*size))
async def test_key_hints_share_a_line_only_when_both_fit(size: tuple[int, int]) -> None:
    app = make_app(opponent="computer", options={"level": "perfect"})
    async with app.run_test(size=size) as pilot:
        screen = await start_game(pilot)
        screen.driver.resign(Player.YELLOW, "the computer gave up")
        await settle(pilot)
        lines = panel_lines(screen)
        together = "r: rematch · esc: menu"
        if panel_width_for(size[0]) - 2 >= len(together):
            assert together in lines
        else:
            at = lines.index("r: rematch")
            assert lines[at + 1] == "esc: menu"
        assert not any(line.endswith(("esc:", "·")) for line in lines)


@pytest.mark.parametrize("size", SIZES, ids=lambda size: "{}x{}".format(*size))
async def test_a_saved_games_name_is_whole_or_shortened_in_the_middle(
    size: tuple[int, int],
) -> None:
    app = make_app()
    async with app.run_test(size=size) as pilot:
        screen = await start_game(pilot)
        await pilot.press("s")  # the name asked: Enter keeps the one offered
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        [path] = saved_games()
        width = panel_width_for(size[0]) - 2
        lines = panel_lines(screen)
        if width >= len("Saved: ") + len(path.stem):
            assert f"Saved: {path.stem}" in lines
        else:  # the name on a line of its own: whole, or without its middle
            at = lines.index("Saved:")
            assert lines[at + 1] == shortened(path.stem, width) and len(lines[at + 1]) <= width
            assert lines[at + 1].endswith(path.stem[-4:])
        assert "(Ctrl+O) lists it" in lines


async def test_the_last_move_keeps_its_words_together_on_a_20x20_pop_out_board() -> None:
    """It showed "Last: YELLOW pop" / "12": its 19 characters do not fit in 18 columns."""
    app = make_app(columns=20, rows=20, rules=Rules.POPOUT)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await start_game(pilot)
        await play(pilot, "d1 d12 d2 p12")
        assert shown(screen, "#last-move") == ["Last:", "YELLOW pop 12"]
        lines = panel_lines(screen)
        assert lines[lines.index("Last:") + 1] == "YELLOW pop 12"
