"""One of a few options, chosen with the arrows or a click: a radio group in one widget.

Its arrows choose, as radio groups do in browsers (Textual's RadioSet moves a
highlight and chooses with Enter; in the menu Enter starts the game). The chosen
option is filled and bold, the others hollow, so the choice reads without colour
(NO_COLOR, 16 colours) and in ASCII too.

Speed: a RadioSet is a widget per option, each styled, laid out and drawn; the
menu's thirteen options in four sets were the largest part of its start
(85 M instructions of 610 M more than a minimal app, by callgrind). Here a set
is one widget that draws its options as one line, or on as many lines as they
need when the line does not fit (each line as full as it goes: the computer's six
levels take two lines at 80 x 24, not six).
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.cells import cell_len
from textual import events
from textual.binding import Binding
from textual.content import Content
from textual.geometry import Offset, Size
from textual.message import Message
from textual.reactive import reactive
from textual.style import Style
from textual.widget import Widget

#: An option's mark (left side, inside, right side), by (ASCII only, chosen). The sides
#: take the mark's background colour as their own colour, rounding it off (as Textual's
#: radio buttons do); the ASCII marks are all inside, drawn in the mark's colour.
MARKS: dict[tuple[bool, bool], tuple[str, str, str]] = {
    (False, True): ("▐", "●", "▌"),
    (False, False): ("▐", "○", "▌"),
    (True, True): ("", "(*)", ""),
    (True, False): ("", "( )", ""),
}
#: Blank cells after each option on a line.
GAP = 2


class ChoiceSet(Widget, can_focus=True):
    """Options in a row (wrapped onto more lines when it does not fit); exactly one is chosen."""

    BINDINGS = [
        Binding("left,up", "step(-1)", "Previous choice", show=False),
        Binding("right,down", "step(1)", "Next choice", show=False),
    ]
    COMPONENT_CLASSES = {"choice--mark", "choice--mark-on", "choice--label-on"}
    DEFAULT_CSS = """
    ChoiceSet { width: auto; height: auto; pointer: pointer; }
    ChoiceSet > .choice--mark { color: $text-muted; background: $panel; }
    ChoiceSet > .choice--mark-on { color: $text-success; background: $panel; text-style: bold; }
    ChoiceSet > .choice--label-on { text-style: bold; }
    ChoiceSet:blur > .choice--label-on { background: $block-cursor-blurred-background; }
    ChoiceSet:focus > .choice--label-on {
        color: $block-cursor-foreground;
        background: $block-cursor-background;
        text-style: $block-cursor-text-style bold;
    }
    """

    chosen: reactive[int] = reactive(0)

    class Changed(Message):
        """Another option was chosen."""

        def __init__(self, choice_set: ChoiceSet, index: int) -> None:
            super().__init__()
            self.choice_set = choice_set
            self.index = index

        @property
        def control(self) -> ChoiceSet:
            """The set whose choice changed (for ``@on`` selectors)."""
            return self.choice_set

    def __init__(
        self,
        labels: Sequence[str],
        chosen: int = 0,
        *,
        ascii_only: bool = False,
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        super().__init__(id=id, classes=classes)
        self._labels = tuple(labels)
        #: Marks drawn with ASCII characters only (``--ascii``).
        self._ascii_only = ascii_only
        self.set_reactive(ChoiceSet.chosen, max(0, min(chosen, len(self._labels) - 1)))

    @classmethod
    def picking(
        cls,
        options: Sequence[tuple[str, str]],
        value: str,
        *,
        ascii_only: bool = False,
        id: str | None = None,
        classes: str | None = None,
    ) -> ChoiceSet:
        """A set of ``(label, value)`` options, the one whose value is ``value`` chosen.

        The first is chosen when none has that value.
        """
        values = [option_value for _, option_value in options]
        chosen = values.index(value) if value in values else 0
        labels = [label for label, _ in options]
        return cls(labels, chosen, ascii_only=ascii_only, id=id, classes=classes)

    @property
    def labels(self) -> tuple[str, ...]:
        """The options' words, in order."""
        return self._labels

    @property
    def pressed_index(self) -> int:
        """The chosen option's index."""
        return self.chosen

    # ----- choosing ------------------------------------------------------------------

    def watch_chosen(self) -> None:
        """Say so (the screen shows what the choice means) and draw the marks again."""
        self.post_message(self.Changed(self, self.chosen))
        self.refresh()

    def action_step(self, step: int) -> None:
        """Choose the next (1) or previous (-1) option, wrapping around."""
        self.chosen = (self.chosen + step) % len(self._labels)

    def on_click(self, event: events.Click) -> None:
        """Choose the option clicked."""
        index = self.option_at(event.offset)
        if index is not None:
            self.chosen = index

    # ----- where the options go --------------------------------------------------------

    def _widths(self) -> list[int]:
        """Each option's cells: its mark, a space, its label, a space."""
        mark = len("".join(MARKS[self._ascii_only, False]))
        return [mark + cell_len(label) + 2 for label in self._labels]

    def _row_width(self) -> int:
        """Cells of the options side by side (the last one's gap left out)."""
        return sum(width + GAP for width in self._widths()) - GAP

    def get_content_width(self, container: Size, viewport: Size) -> int:
        """A row of options if it fits, else its widest line wrapped to ``container``."""
        row = self._row_width()
        if row <= container.width:
            return row
        return max(first + width for _, first, width in self._places_within(container.width))

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        """One line, or as many as the options wrapped to ``width`` take."""
        return self._places_within(width)[-1][0] + 1

    def _places(self) -> list[tuple[int, int, int]]:
        """Each option's (line, first cell, width) as drawn now."""
        return self._places_within(self.size.width)

    def _places_within(self, room: int) -> list[tuple[int, int, int]]:
        """Each option's (line, first cell, width) in ``room`` cells: a line as full as it goes."""
        places: list[tuple[int, int, int]] = []
        line, x = 0, 0
        for width in self._widths():
            if x > 0 and x + width > room:
                line, x = line + 1, 0
            places.append((line, x, width))
            x += width + GAP
        return places

    def option_at(self, offset: Offset) -> int | None:
        """The option under ``offset`` (relative to the widget), if any."""
        for index, (line, first, width) in enumerate(self._places()):
            if offset.y == line and first <= offset.x < first + width:
                return index
        return None

    def offset_of(self, index: int) -> Offset:
        """Where option ``index`` is drawn (its mark), relative to the widget."""
        line, first, _ = self._places()[index]
        return Offset(first, line)

    # ----- drawing -------------------------------------------------------------------

    def render(self) -> Content:
        """The options, each ``▐●▌ label``, side by side on as many lines as they take."""
        lines: list[list[Content]] = []
        for index, (line, _, _) in enumerate(self._places()):
            if line == len(lines):
                lines.append([])
            lines[line].append(self._option(index))
        return Content("\n").join(Content(" " * GAP).join(options) for options in lines)

    def _option(self, index: int) -> Content:
        chosen = index == self.chosen
        left, inside, right = MARKS[self._ascii_only, chosen]
        mark = self.get_visual_style("choice--mark-on" if chosen else "choice--mark")
        sides = Style(foreground=mark.background, background=self.background_colors[1])
        label = Content(f" {self._labels[index]} ")
        if chosen:
            label = label.stylize_before(self.get_visual_style("choice--label-on"))
        return Content.assemble((left, sides), (inside, mark), (right, sides), label)
