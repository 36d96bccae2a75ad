"""Both players' clocks in a timed lobby game, beside the board (spec/protocols.md §5.4).

The server's last CLOCK (``reading``) is shown with the mover's time counting
down from its arrival, redrawn ten times a second while it runs. A time under
10 s shows tenths and is marked without colour as well (``!`` and reversed), so
it reads the same in a terminal without colours, in ``--ascii`` and in a browser.
Hidden until a timed game's first CLOCK comes.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping

from textual.content import Content
from textual.reactive import reactive
from textual.widgets import Static

from c4tui.client.clocks import ClockReading, clock_text, is_low
from c4tui.engine import Player
from c4tui.ui.widgets.looks import player_glyph
from c4tui.ui.widgets.phrasing import ASCII_ELLIPSIS, ELLIPSIS

#: The widest time drawn: ``!59:59`` (an hour is the most a clock starts with, §5.4).
TIME_WIDTH = 7
#: Seconds between two redraws of a running clock (tenths show below 10 s).
TICK = 0.1


class GameClocks(Static):
    """RED's and YELLOW's time, each by its disc and name; the mover's marked and running.

    ``now``: the steady clock the reading's ``at`` is on (a test may pin it).
    """

    DEFAULT_CSS = """
    GameClocks { height: 2; margin-bottom: 1; }
    """

    reading: reactive[ClockReading | None] = reactive(None, init=False)

    def __init__(
        self,
        names: Mapping[Player, str],
        *,
        ascii_only: bool = False,
        now: Callable[[], float] = time.monotonic,
        id: str | None = None,
    ) -> None:
        super().__init__(id=id)
        self._names = dict(names)
        self._ascii_only = ascii_only
        self.now = now
        self._drawn = ""
        self.display = False

    def on_mount(self) -> None:
        """Redraw while a clock runs; show a reading that came before mounting."""
        self.set_interval(TICK, self._tick)
        self._draw()

    def on_resize(self) -> None:
        """The names are fitted to the panel's width: drawn again for the new one."""
        self._drawn = ""
        self._draw()

    def watch_reading(self) -> None:
        """A new CLOCK (or the game's end): shown at once."""
        self._draw()

    def _tick(self) -> None:
        reading = self.reading
        if reading is not None and reading.mover is not None:
            self._draw()

    def _draw(self) -> None:
        reading = self.reading
        self.display = reading is not None
        if reading is None or not self.is_mounted:
            return
        now = self.now()
        width = max(self.size.width, 16)
        lines = [self._line(player, reading, now, width) for player in (Player.RED, Player.YELLOW)]
        drawn = "\n".join([str(reading.mover), *(text for text, _ in lines)])  # the bold too
        if drawn == self._drawn:
            return  # most ticks change nothing above 10 s
        self._drawn = drawn
        self.update(Content("\n").join(content for _, content in lines))

    def _line(
        self, player: Player, reading: ClockReading, now: float, width: int
    ) -> tuple[str, Content]:
        """``● ann     2:54`` (``!0:09.3`` reversed when low; bold for the mover)."""
        left = reading.left_ms(player, now)
        low = is_low(left)
        shown = ("!" if low else "") + clock_text(left)
        name = self._fitted(self._names[player], width - 2 - 1 - TIME_WIDTH)
        lead = f"{player_glyph(player, self._ascii_only)} {name}"
        gap = " " * max(1, width - len(lead) - len(shown))
        style = "bold" if player is reading.mover else ""
        content = Content.assemble(
            (lead + gap, style), (shown, f"{style} reverse" if low else style)
        )
        return lead + gap + shown, content

    def _fitted(self, name: str, room: int) -> str:
        """``name``, cut short with an ellipsis when the panel is narrow."""
        if len(name) <= room:
            return name
        ellipsis = ASCII_ELLIPSIS if self._ascii_only else ELLIPSIS
        return name[: max(1, room - len(ellipsis))] + ellipsis
