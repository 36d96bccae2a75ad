"""The radio group in one widget: arrows and clicks choose, it stacks when narrow,
and the marks read without colour."""

from __future__ import annotations

from textual.app import App, ComposeResult
from textual.geometry import Offset

from c4tui.ui.widgets.choice import ChoiceSet

LABELS = ("Two players", "Computer", "Network server")


class OneSet(App[None]):
    """A ChoiceSet alone, and every choice it announces."""

    def __init__(self, chosen: int = 0, ascii_only: bool = False) -> None:
        super().__init__()
        self.chosen = chosen
        self.ascii_only = ascii_only
        self.announced: list[int] = []

    def compose(self) -> ComposeResult:
        yield ChoiceSet(LABELS, self.chosen, ascii_only=self.ascii_only, id="set")

    def on_choice_set_changed(self, event: ChoiceSet.Changed) -> None:
        self.announced.append(event.index)


async def test_arrows_choose_and_wrap_around() -> None:
    app = OneSet(chosen=1)
    async with app.run_test(size=(80, 5)) as pilot:
        choices = app.query_one(ChoiceSet)
        choices.focus()
        await pilot.press("right")
        await pilot.press("right")  # past the last: the first
        await pilot.press("up")
        await pilot.pause()
        assert app.announced == [2, 0, 2]
        assert choices.pressed_index == 2


async def test_a_click_chooses_the_option_under_the_mouse_in_a_row_or_stacked() -> None:
    for width, stacked in ((80, False), (20, True)):
        app = OneSet()
        async with app.run_test(size=(width, 5)) as pilot:
            choices = app.query_one(ChoiceSet)
            assert choices.size.height == (3 if stacked else 1)
            last = choices.offset_of(2)
            assert (last.y > 0) is stacked
            await pilot.click(ChoiceSet, offset=(last.x + 5, last.y))  # on its label
            await pilot.pause()
            assert choices.pressed_index == 2
            gap = Offset(last.x - 1, 0) if not stacked else Offset(30, 0)  # between, or past
            assert choices.option_at(gap) is None


async def test_the_chosen_option_is_marked_in_shape_not_only_colour() -> None:
    for ascii_only, chosen, other in ((False, "▐●▌", "▐○▌"), (True, "(*)", "( )")):
        app = OneSet(chosen=1, ascii_only=ascii_only)
        async with app.run_test(size=(80, 5)):
            text = str(app.query_one(ChoiceSet).render())
            assert text == f"{other} Two players   {chosen} Computer   {other} Network server "


class SixLevels(App[None]):
    """The computer's six levels in one set, as the menu's Level row has them."""

    def compose(self) -> ComposeResult:
        labels = ("Random", "Easy", "Medium", "Hard", "Perfect", "Program…")
        yield ChoiceSet(labels, 0, ascii_only=True, id="set")


async def test_a_row_too_long_for_its_line_wraps_each_line_as_full_as_it_goes() -> None:
    """Issue 40 #5: one option a line took six lines of an 80 x 24 menu for the levels."""
    app = SixLevels()
    async with app.run_test(size=(50, 8)) as pilot:
        choices = app.query_one(ChoiceSet)
        lines = str(choices.render()).splitlines()
        assert lines == [
            "(*) Random   ( ) Easy   ( ) Medium   ( ) Hard ",
            "( ) Perfect   ( ) Program… ",
        ]
        assert choices.size.height == 2
        program = choices.offset_of(5)
        assert program == Offset(14, 1)
        await pilot.click(ChoiceSet, offset=(program.x + 5, program.y))
        await pilot.pause()
        assert choices.pressed_index == 5
        assert choices.option_at(Offset(30, 1)) is None  # past the last on its line
