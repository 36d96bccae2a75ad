"""Columns in the app: a real-time game on the app's clock, and the dialog that sets it up.

The field is drawn as the handout's shell draws it (``[X]`` falling, ``|X|`` landed,
``*X*`` matched), each jewel also in its own colour: the letters make it readable
without colour and in ASCII. Time is kept by the clock: each tick has a due time,
and ticks missed while the machine was busy are caught up, so the game's speed does
not depend on the load.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import date

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Grid, Horizontal, Vertical
from textual.screen import ModalScreen, Screen
from textual.timer import Timer
from textual.widgets import Button, Input, Label, Static

from c4tui.columns.game import MIN_COLUMNS, MIN_ROWS
from c4tui.columns.play import MAX_START_LEVEL, ColumnsSession, fall_seconds
from c4tui.columns.scores import HighScore, add_score, high_scores
from c4tui.columns.shell import render
from c4tui.numbers import number_in_range
from c4tui.ui.commands import ShowsAGame
from c4tui.ui.screens.confirm import ConfirmDialog
from c4tui.ui.screens.help import HelpScreen
from c4tui.ui.widgets.footer import FittingFooter
from c4tui.ui.widgets.phrasing import lay_out

#: Largest field offered (it must fit a terminal with the panel beside it).
MAX_ROWS, MAX_COLUMNS = 20, 12
#: Each jewel's colour on screen (its letter says it without colour).
JEWEL_STYLES = {
    "S": "bold #ff6b6b",
    "T": "bold #ffd75f",
    "V": "bold #5fd7ff",
    "W": "bold #87d787",
    "X": "bold #d7afff",
    "Y": "bold #ffaf5f",
    "Z": "bold #e8e8e8",
}
#: At most this many ticks are caught up at once (a machine asleep for minutes).
MAX_CATCH_UP = 20


def field_text(session: ColumnsSession) -> Text:
    """The field as the shell prints it, each jewel in its colour, matches reversed."""
    lines = render(session.field)
    text = Text("\n".join(lines), no_wrap=True)
    offset = 0
    for line in lines:
        for index, character in enumerate(line):
            style = JEWEL_STYLES.get(character)
            if style is not None:
                matched = line[index - 1] == "*"
                text.stylize(
                    style + (" reverse" if matched else ""), offset + index, offset + index + 1
                )
        offset += len(line) + 1
    return text


class ColumnsSetup(ModalScreen[tuple[int, int, int] | None]):
    """Field size and starting level; Enter plays, Esc goes back."""

    DEFAULT_CSS = "ColumnsSetup { align: center middle; }"
    BINDINGS = [
        Binding("escape", "cancel", "Back"),
        Binding("enter", "play", "Play", priority=True),
    ]

    def compose(self) -> ComposeResult:
        """Three fields and the buttons."""
        with Vertical(classes="form-dialog"):
            yield Static("Columns: line up three jewels of a colour", classes="form-title")
            with Grid():
                yield Label("Rows")
                yield Input("13", id="rows", restrict=r"[0-9]{0,2}", compact=True)
                yield Label("Columns")
                yield Input("6", id="columns", restrict=r"[0-9]{0,2}", compact=True)
                yield Label("Level")
                yield Input("1", id="level", restrict=r"[0-9]{0,2}", compact=True)
            yield Static("", id="columns-status", classes="form-status")
            with Horizontal():
                yield Button("Play", id="play", variant="primary")
                yield Button("Back", id="back")

    def _number(self, name: str, low: int, high: int) -> int | None:
        text = self.query_one(f"#{name}", Input).value
        number = number_in_range(text, low, high)
        if number is not None:
            return number
        status = self.query_one("#columns-status", Static)
        status.update(f"{name.capitalize()}: a whole number from {low} to {high}.")
        status.add_class("-error")
        self.query_one(f"#{name}", Input).focus()
        return None

    @on(Button.Pressed, "#play")
    def action_play(self) -> None:
        """Start, or say which field is wrong."""
        if not self.query("#rows"):  # Enter came before the fields exist, or after they went
            return
        rows = self._number("rows", MIN_ROWS, MAX_ROWS)
        columns = rows and self._number("columns", MIN_COLUMNS, MAX_COLUMNS)
        level = columns and self._number("level", 1, MAX_START_LEVEL)
        if rows and columns and level:
            self.dismiss((rows, columns, level))

    @on(Button.Pressed, "#back")
    def action_cancel(self) -> None:
        """Back to the menu."""
        self.dismiss(None)


#: The width of the panel's text beside the field (the score, the next faller, the keys).
PANEL_WIDTH = 28


class ColumnsScreen(ShowsAGame, Screen[None]):
    """A game of Columns: the field, and a panel with the score, the level and the next faller."""

    DEFAULT_CSS = f"""
    ColumnsScreen #columns-body {{ height: 1fr; align: center middle; }}
    ColumnsScreen #columns-field {{ width: auto; height: auto; margin: 0 2; text-wrap: nowrap; }}
    ColumnsScreen #columns-panel {{ width: {PANEL_WIDTH + 2}; height: auto; padding: 0 1; }}
    ColumnsScreen #columns-panel > Static {{ margin-bottom: 1; }}
    """

    BINDINGS = [
        Binding("escape,m", "menu", "Menu"),
        Binding("question_mark", "help", "Help", key_display="?"),
        Binding("left", "shift(-1)", "Left", show=False),
        Binding("right", "shift(1)", "Right", show=False),
        Binding("up,space", "rotate", "Rotate"),
        Binding("down", "drop", "Faster"),
        Binding("p", "pause", "Pause"),
        Binding("n", "new", "New"),
    ]

    def __init__(
        self,
        session: ColumnsSession,
        clock: Callable[[], float] = time.monotonic,
        use_timer: bool = True,
    ) -> None:
        """``clock`` and ``use_timer`` let tests keep the time themselves (``catch_up``)."""
        super().__init__()
        self.session = session
        self._clock = clock
        self._use_timer = use_timer
        self.paused = False
        self._due = 0.0
        self._timer: Timer | None = None
        self._place: int | None = None  # in the high scores, once over

    def compose(self) -> ComposeResult:
        """The field beside the panel, and the footer."""
        with Horizontal(id="columns-body"):
            yield Static(id="columns-field")
            with Vertical(id="columns-panel"):
                yield Static(id="columns-score")
                yield Static(id="columns-next")
                yield Static(id="columns-state")
        yield FittingFooter(show_command_palette=False)

    def on_mount(self) -> None:
        """The clock starts."""
        self._due = self._clock()
        self._schedule()
        self._show()

    # ----- the clock -------------------------------------------------------------------

    def _schedule(self) -> None:
        """The next tick is one fall time after the last one: wake then."""
        self._due += fall_seconds(self.session.level)
        self._wake_at_due()

    def _wake_at_due(self) -> None:
        if self._use_timer:
            delay = max(0.0, self._due - self._clock())
            self._timer = self.set_timer(delay, self.catch_up)

    def catch_up(self) -> None:
        """Every tick that is due by the clock, then the next wake-up (missed ones caught up)."""
        if self.paused or self.session.over:
            return
        if self._clock() < self._due:  # woken early: sleep again
            self._wake_at_due()
            return
        for _ in range(MAX_CATCH_UP):
            self.session.tick()
            self._due += fall_seconds(self.session.level)
            if self.session.over or self._clock() < self._due:
                break
        if self.session.over:
            self._game_over()
        else:
            self._wake_at_due()
        self._show()

    def _game_over(self) -> None:
        session = self.session
        self._place = add_score(HighScore(session.score, session.level, date.today().isoformat()))

    # ----- keys --------------------------------------------------------------------------

    def _playing(self) -> bool:
        return not self.paused and not self.session.over

    def action_shift(self, step: int) -> None:
        """Move the faller."""
        if self._playing():
            self.session.shift(step)
            self._show()

    def action_rotate(self) -> None:
        """Rotate the faller."""
        if self._playing():
            self.session.rotate()
            self._show()

    def action_drop(self) -> None:
        """The next tick now (hold to drop fast)."""
        if self._playing():
            self.session.tick()
            if self.session.over:
                self._game_over()
            self._show()

    def action_pause(self) -> None:
        """Pause or go on (the clock restarts from now)."""
        if self.session.over:
            return
        self.paused = not self.paused
        if not self.paused:
            self._due = self._clock()
            self._schedule()
        self._show()

    def action_new(self) -> None:
        """A new game of the same size and starting level."""
        old = self.session
        self.session = ColumnsSession(old.rows, old.columns, old.start_level)
        self.paused, self._place = False, None
        if self._timer is not None:
            self._timer.stop()
        self._due = self._clock()
        self._schedule()
        self._show()

    def action_menu(self) -> None:
        """Back to the menu; a game under way ends there, so the person is asked first.

        The game waits, paused, for the answer (and goes on if it is no).
        """
        if not self._under_way():
            self._leave()
            return
        was_paused = self.paused
        if not was_paused:
            self.action_pause()

        def answered(yes: bool | None) -> None:
            if yes:
                self._leave()
            elif not was_paused:
                self.action_pause()

        question = "Leave this game of Columns? It ends here and cannot be resumed."
        self.app.push_screen(ConfirmDialog(question, "Leave"), answered)

    def _under_way(self) -> bool:
        """True when leaving would throw something away: a jewel has landed, not yet over."""
        session = self.session
        if session.over:
            return False
        return session.score > 0 or any(any(row) for row in session.field.cells)

    def _leave(self) -> None:
        if self._timer is not None:
            self._timer.stop()
        self.dismiss(None)

    def action_help(self) -> None:
        """The rules and keys (the game waits)."""
        if not self.paused:
            self.action_pause()
        self.app.push_screen(HelpScreen())

    # ----- showing -----------------------------------------------------------------------

    def _show(self) -> None:
        session = self.session
        self.query_one("#columns-field", Static).update(field_text(session))
        self.query_one("#columns-score", Static).update(
            f"Score {session.score}\nLevel {session.level}\nJewels {session.cleared}"
        )
        next_text = Text("Next\n")
        for jewel in session.next_jewels:
            next_text.append(f" {jewel} \n", JEWEL_STYLES[jewel])
        self.query_one("#columns-next", Static).update(next_text)
        # Hints broken between hints: folded at the edge, "↓" and "faster" came apart.
        state = lay_out(self._state_text(), PANEL_WIDTH)
        self.query_one("#columns-state", Static).update(state)

    def _state_text(self) -> str:
        if self.session.over:
            place = f"A high score: number {self._place}!" if self._place else ""
            best = "\n".join(
                f"{index}. {entry.score} (level {entry.level})"
                for index, entry in enumerate(high_scores()[:5], start=1)
            )
            return f"GAME OVER {place}\nn: new game · esc: menu\n\nHigh scores\n{best}"
        if self.paused:
            return "Paused: p goes on"
        return "← → move · ↑ rotate · ↓ faster"
