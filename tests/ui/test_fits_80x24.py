"""What the smallest usual terminal, 80 x 24, cut or ran together (issue 40 #20).

Each test looks at what the terminal shows (the characters on screen), at that size.
"""

from __future__ import annotations

from c4tui.columns.play import ColumnsSession
from c4tui.match.settings import MatchSettings
from c4tui.records import record_from_digits
from c4tui.records.store import save_game
from c4tui.ui.app import C4App
from c4tui.ui.screens.columns import ColumnsScreen
from c4tui.ui.screens.open import OpenDialog
from tests.ui.helpers import SIZE, make_app, play, start_game
from tests.ui.on_screen import screen_lines, shown_cells
from tests.ui.test_panel_lines import panel_lines

#: 24 moves of a 7 x 6 game that nobody wins: columns 1, 2, 3 and 5 filled in turn.
LONG_GAME = "111111222222333333555555"


async def test_the_digit_string_breaks_between_groups_of_five_never_inside_one() -> None:
    """``x`` showed 24 digits folded at the panel's edge, "…33335" / "55555": a number cut
    anywhere. They come in groups of five, each whole on its line; the clipboard gets
    them unbroken."""
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await start_game(pilot)
        await play(pilot, " ".join(f"d{column}" for column in LONG_GAME))
        await pilot.press("x")
        await pilot.pause()
        lines = panel_lines(screen)
        at = lines.index("Digits (copied):")
        shown = lines[at + 1 : lines.index("", at)]
        groups = [group for line in shown for group in line.split(" ")]
        assert "".join(groups) == LONG_GAME
        assert [len(group) for group in groups] == [5, 5, 5, 5, 4]
        assert all(line == line.strip() and "  " not in line for line in shown)
        assert app.clipboard == LONG_GAME


async def test_columns_key_hints_break_between_hints() -> None:
    """Columns' key line was folded at the panel's edge: "← → move · ↑ rotate · ↓" /
    "faster". Each hint stays whole, the dot dropped where the line breaks."""
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await app.push_screen(ColumnsScreen(ColumnsSession(13, 6, 1, seed=3), use_timer=False))
        await pilot.pause()
        lines = [line.rstrip() for line in screen_lines(app)]
        assert any(line.endswith("← → move · ↑ rotate") for line in lines)
        assert any(line.endswith("↓ faster") for line in lines)
        assert not any(line.endswith(("·", "↓")) for line in lines)


#: The app's size in the browser tests' window (1200 x 800 pixels).
BROWSER_SIZE = (133, 44)


def with_saved_games(*names: str) -> None:
    """Saved games under ``names`` (no date: the list shows the names, always the same)."""
    for name in names:
        save_game(record_from_digits("4453"), name=name)


async def test_the_open_dialog_leaves_nothing_of_the_menu_peeking_out() -> None:
    """In the browser the Open dialog, taller with saved games listed, covered the menu's
    Start button but for its first letter, and the menu's lines stuck out on both sides
    (issue 40 #20). Nothing of the menu shows round the dialog now."""
    with_saved_games("first", "second")
    app = C4App(MatchSettings(ai_delay=0.0, seed=1), visitor_servers=())
    async with app.run_test(size=BROWSER_SIZE) as pilot:
        await pilot.pause()
        start = app.screen.query_one("#start")
        await pilot.press("ctrl+o")
        await pilot.pause()
        dialog = app.screen
        assert isinstance(dialog, OpenDialog)
        around = dialog.query_one(".form-dialog").region
        assert start.region.overlaps(around)  # the dialog lies over the button…
        peeking = [
            (cell.x, cell.y, cell.text)
            for cell in shown_cells(app)
            if cell.text.strip() and not around.contains(cell.x, cell.y)
        ]
        assert peeking == []  # …and nothing of it, nor of the menu, shows beside the dialog


async def test_a_20x20_boards_last_column_number_keeps_apart_from_the_panel() -> None:
    """ "20" filled its cell to the panel's edge: "19 20 20 × 20 Classic", one space apart
    as the numbers are, the board's last number read into the panel's title."""
    app = make_app(columns=20, rows=20)
    async with app.run_test(size=SIZE) as pilot:
        screen = await start_game(pilot)
        labels = screen_lines(app)[screen.board.content_region.y]
        left_of_panel = labels[: screen.panel.region.x]
        assert left_of_panel.split() == [str(number) for number in range(1, 21)]
        assert left_of_panel.endswith(" ")
