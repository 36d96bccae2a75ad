"""The menu: the opponent (from the registry), its options, the board size, rules and colour.

It only reads the form: what the form asks for (a game, a saved game, Columns, help,
Resume) goes to the app as a message, and what the menu shows is given to it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Grid, Horizontal, Vertical, VerticalScroll
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Input, Label, Static

from c4tui.engine import Player, Rules, parse_size
from c4tui.match.backends import (
    KINDS,
    Backend,
    menu_choices,
    menu_modes,
    offered_within,
    offers_colour,
    opponent_kind,
    picked_in_menu,
)
from c4tui.match.backends.base import Option
from c4tui.match.settings import MatchSettings, prepare_opponent
from c4tui.match.timing import clock_choices
from c4tui.ui.screens.breakpoints import breakpoint_classes
from c4tui.ui.widgets.choice import ChoiceSet
from c4tui.ui.widgets.footer import FittingFooter
from c4tui.ui.widgets.menu_button import MenuButton
from c4tui.ui.widgets.size_fields import size_input, size_problem
from c4tui.ui.widgets.title_bar import TitleBar

#: Below this width the footer drops the command palette's hint.
NARROW_FOOTER = 60


def nothing_yet() -> None:
    """No game to go back to, none played yet (a menu made without an app's games behind it)."""


class MenuScreen(Screen[None]):
    """Choose a game; Enter starts it. Fields keep their values when you come back.

    Args:
        initial: the settings the form shows first.
        kinds: the opponents offered (served to browsers, maybe not the network ones);
            those with a ``menu_parent`` are the last choices of their parent's row.
        resume_offer: what Resume would bring back, in words (None: nothing); asked
            whenever the menu shows again.
        current_game: the settings of the game last played (a rematch's colours too),
            which the form shows when the menu shows again after it.
        ascii_only: draw the choices' marks with ASCII characters.
    """

    #: Below 80 columns the form narrows: a narrower label column, the buttons stacked;
    #: below 100 the row of five buttons starts at the labels' edge, to fit.
    HORIZONTAL_BREAKPOINTS = [(0, "-stacked"), (80, "-inline"), (100, "-wide")]
    #: Below 36 rows the form closes up, below 24 without its title (80 x 24 shows it all).
    VERTICAL_BREAKPOINTS = [(0, "-cramped"), (24, "-snug"), (36, "-airy")]
    #: Focus starts on the opponent (focused as the screen is composed, so the first frame
    #: shows it, and the form is not restyled twice: once for the scroll area, once for this).
    AUTO_FOCUS = "#mode"
    BINDINGS = [
        Binding("enter", "start", "Start game", priority=True, id="menu.start"),
        Binding("question_mark", "help", "Help", key_display="?", id="menu.help"),
        Binding("ctrl+r", "resume", "Resume", id="menu.resume"),
        Binding("ctrl+o", "open", "Open", id="menu.open"),
        Binding("ctrl+t", "set_up", "Set up", id="menu.set_up"),
        Binding("ctrl+k", "columns", "Columns", id="menu.columns"),
        Binding("ctrl+z", "puzzles", "Puzzles", show=False, id="menu.puzzles"),  # its button
    ]

    @dataclass
    class StartRequested(Message):
        """Start a game with these settings (the form was valid)."""

        settings: MatchSettings

    @dataclass
    class ResumeRequested(Message):
        """Go back to the unfinished game."""

    @dataclass
    class OpenRequested(Message):
        """Open a saved game; ``settings`` (the form's) fill in what the record leaves out."""

        settings: MatchSettings

    @dataclass
    class SetUpRequested(Message):
        """Set up a position on the form's board, to analyse or play with its opponent."""

        settings: MatchSettings

    @dataclass
    class ColumnsRequested(Message):
        """Set up a game of Columns."""

    @dataclass
    class PuzzlesRequested(Message):
        """Open the puzzles."""

    @dataclass
    class HelpRequested(Message):
        """Show the rules and keys."""

    def __init__(
        self,
        initial: MatchSettings | None = None,
        kinds: tuple[type[Backend], ...] = KINDS,
        *,
        resume_offer: Callable[[], str | None] = nothing_yet,
        current_game: Callable[[], MatchSettings | None] = nothing_yet,
        ascii_only: bool = False,
        notes: Mapping[str, str] | None = None,
    ) -> None:
        super().__init__()
        self._notes = dict(notes or {})  # a mode's line said otherwise (an ssh visit's Online)
        self._initial = initial or MatchSettings()
        self._kinds = menu_modes(kinds)
        #: Mode key → the kinds its first row offers after its own choices ("Program…").
        self._within = {kind.key: offered_within(kind, kinds) for kind in self._kinds}
        self._resume_offer = resume_offer
        self._current_game = current_game
        #: The game whose settings the form shows (only a game played since changes it).
        self._game_shown = current_game()
        self._ascii_only = ascii_only
        #: The clocks offered for a game here (a lobby's games have their own row).
        self._clocks = clock_choices(self._initial.clock)
        # The classes the first resize would give (-inline, -tall…), given now: the form is
        # styled for its size once, not restyled whole just before the first frame.
        self.add_class(*breakpoint_classes(self), update=False)
        self._resumed = False
        self._fields_shown: tuple[object, ...] = ()  # the mode, kind and note shown

    def compose(self) -> ComposeResult:
        """The form: one labelled row per setting, then the Start button."""
        initial = self._initial
        yield TitleBar(icon="●")  # a disc; Textual's ⭘ is missing from many browser fonts
        with VerticalScroll(id="menu"), Vertical(id="menu-column"):
            yield Static("Connect Four", id="menu-title")
            with Grid(id="menu-form"):
                yield Label("Mode")
                yield ChoiceSet.picking(
                    [(kind.title, kind.key) for kind in self._kinds],
                    self._mode_of(initial.opponent),
                    ascii_only=self._ascii_only,
                    id="mode",
                )
                yield Label("Board")
                with Horizontal(id="size"):
                    yield size_input("columns", initial.columns)
                    yield Static(" columns × ", classes="size-label")
                    yield size_input("rows", initial.rows)
                    yield Static(" rows", classes="size-label")
                yield Label("Rules")
                yield ChoiceSet(
                    ["Classic", "Pop Out"],
                    chosen=initial.rules is Rules.POPOUT,
                    ascii_only=self._ascii_only,
                    id="rules",
                )
                yield Label("You play", classes="colour-choice")
                yield ChoiceSet(
                    ["Red (moves first)", "Yellow"],
                    chosen=initial.person_colour is Player.YELLOW,
                    ascii_only=self._ascii_only,
                    id="colour",
                    classes="colour-choice",
                )
                yield from self._option_fields()
                yield Label("Clock", classes="home-clock")
                yield ChoiceSet(
                    [label for label, _ in self._clocks],
                    self._clock_index(initial),
                    ascii_only=self._ascii_only,
                    id="clock",
                    classes="home-clock",
                )
            yield Static(id="mode-note")
            yield Static(id="size-error")
            with Horizontal(id="menu-buttons"):
                yield MenuButton("Start game", id="start", primary=True)
                yield MenuButton("Resume (^r)", id="resume")
                yield MenuButton("Open (^o)", id="open")
                yield MenuButton("Columns (^k)", id="play-columns")
                yield MenuButton("Puzzles (^z)", id="puzzles")
            yield Static(id="resume-note")
        yield FittingFooter()

    def _option_fields(self) -> ComposeResult:
        """A labelled choice row for every option picked in the menu (the rest: a dialog's)."""
        for kind in self._kinds:
            values = kind.option_values(self._initial.options)
            if any(within.key == self._initial.opponent for within in self._within[kind.key]):
                values[menu_choices(kind)[0].key] = self._initial.opponent
            for option in menu_choices(kind):
                classes = f"for-{kind.key}"
                yield Label(option.label, classes=classes)
                yield ChoiceSet.picking(
                    self._row(kind, option),
                    values[option.key],
                    ascii_only=self._ascii_only,
                    id=f"option-{kind.key}-{option.key}",
                    classes=classes,
                )

    def _row(self, kind: type[Backend], option: Option) -> list[tuple[str, str]]:
        """The choices of ``kind``'s row for ``option``, the kinds offered within it last.

        ``Program…`` ends the computer's levels: picking it, Enter asks for the program.
        """
        row = [(choice.label, choice.value) for choice in option.choices]
        if option is menu_choices(kind)[0]:
            row += [(f"{within.title}…", within.key) for within in self._within[kind.key]]
        return row

    def _mode_of(self, key: str) -> str:
        """The mode that offers the kind called ``key`` (itself, or the row it sits in)."""
        return opponent_kind(key).menu_parent or key

    def on_mount(self) -> None:
        """Show only the fields that matter for the chosen opponent."""
        self._show_kind_fields()
        self._show_resume()

    def on_resize(self) -> None:
        """The palette's hint leaves a narrow footer to the keys (Ctrl+P still opens it)."""
        self.query_one(FittingFooter).show_command_palette = self.size.width >= NARROW_FOOTER

    def on_screen_resume(self, event: events.ScreenResume) -> None:
        """Back from a game: Resume appears if it was left unfinished.

        The first resume follows the mount, which styled every widget: Textual would
        restyle the whole form again before the first frame (45 M instructions, an
        eighth of what the menu adds to a minimal app's start; callgrind).
        """
        if not self._resumed:
            self._resumed = True
            event.refresh_styles = False
        self._show_game_left()
        self._show_resume()

    def _show_game_left(self) -> None:
        """After a game played since, the form shows what it was (a rematch swaps colours)."""
        game = self._current_game()
        if game is None or game is self._game_shown:
            return
        self._game_shown = game
        self._initial = game
        kinds = [kind.key for kind in self._kinds]
        mode = self._mode_of(game.opponent)
        if mode in kinds:
            self.query_one("#mode", ChoiceSet).chosen = kinds.index(mode)
            self._show_options(game, opponent_kind(mode))
        self.query_one("#columns", Input).value = str(game.columns)
        self.query_one("#rows", Input).value = str(game.rows)
        self.query_one("#rules", ChoiceSet).chosen = int(game.rules is Rules.POPOUT)
        self.query_one("#colour", ChoiceSet).chosen = int(game.person_colour is Player.YELLOW)
        self.query_one("#clock", ChoiceSet).chosen = self._clock_index(game)

    def _clock_index(self, game: MatchSettings) -> int:
        """Where ``game``'s clock is in the clock row (a game's own is always there: None)."""
        clocks = [clock for _, clock in self._clocks]
        return clocks.index(game.clock) if game.clock in clocks else 0

    def _show_options(self, game: MatchSettings, mode: type[Backend]) -> None:
        """The option fields of ``mode`` (e.g. the AI's level) set to ``game``'s.

        A game against a kind offered within the mode's first row picks it there.
        """
        values = mode.option_values(game.options)
        for option in menu_choices(mode):
            values_offered = [value for _, value in self._row(mode, option)]
            value = game.opponent if game.opponent in values_offered else values[option.key]
            if value in values_offered:
                field = self.query_one(f"#option-{mode.key}-{option.key}", ChoiceSet)
                field.chosen = values_offered.index(value)

    def _show_resume(self) -> None:
        what = self._resume_offer()
        self.query_one("#resume", MenuButton).display = what is not None
        note = self.query_one("#resume-note", Static)
        note.update(f"{what}: Resume (Ctrl+R) goes back to it." if what else "")
        note.display = what is not None
        self.refresh_bindings()

    # ----- reacting to edits ---------------------------------------------------------

    @on(ChoiceSet.Changed)
    def _show_kind_fields(self) -> None:
        self.call_after_refresh(prepare_opponent, self.settings())  # after the first frame
        mode, kind = self._mode(), self.kind()
        note = self._note(kind)
        if (mode, kind, note) == self._fields_shown:  # (the rules changed, say): no relayout
            return
        self._fields_shown = (mode, kind, note)
        for other in self._kinds:
            for widget in self.query(f".for-{other.key}"):
                widget.display = other is mode
        for widget in self.query(".colour-choice"):
            widget.display = offers_colour(kind)
        for widget in self.query(".home-clock"):  # a server's games keep their own time
            widget.display = not kind.remote
        self.query_one("#mode-note", Static).update(note)
        self.query_one("#mode-note", Static).display = bool(note)

    def _note(self, kind: type[Backend]) -> str:
        """A line about the chosen opponent: the chosen choice's description, or how it goes on."""
        if not picked_in_menu(kind) or kind.key in self._notes:
            return self._notes.get(kind.key, f"{kind.title}: {kind.summary} {kind.dialog_hint}")
        for option in kind.options:
            picked = self._picked(kind, option.key)
            choice = next(c for c in option.choices if c.value == picked)
            if choice.description:
                return f"{choice.label}: {choice.description}"
        return ""

    @on(Input.Changed)
    def _check_sizes(self) -> None:
        self._say_size_problem(self._size_problem())

    def _say_size_problem(self, problem: str | None) -> None:
        """Under the form, what is wrong with the board's size (no line at all when nothing)."""
        error = self.query_one("#size-error", Static)
        error.update(problem or "")
        error.display = problem is not None

    @on(MenuButton.Pressed, "#start")
    def _start_pressed(self) -> None:
        self.action_start()

    @on(MenuButton.Pressed, "#resume")
    def action_resume(self) -> None:
        """Back to the unfinished game."""
        self.post_message(self.ResumeRequested())

    @on(MenuButton.Pressed, "#open")
    def action_open(self) -> None:
        """Open a saved game, or paste a position as digits."""
        self.post_message(self.OpenRequested(self.settings() or self._initial))

    def action_set_up(self) -> None:
        """The position editor, for the form's board, rules and opponent."""
        settings = self.settings()
        if settings is None:
            self.action_start()  # says which size field is wrong
            return
        self.post_message(self.SetUpRequested(settings))

    @on(MenuButton.Pressed, "#play-columns")
    def action_columns(self) -> None:
        """The second game: Columns (its size and starting level first)."""
        self.post_message(self.ColumnsRequested())

    @on(MenuButton.Pressed, "#puzzles")
    def action_puzzles(self) -> None:
        """Puzzles: find the one move that wins, proven by the solver."""
        self.post_message(self.PuzzlesRequested())

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Resume only when there is a game to go back to."""
        if action == "resume":
            return self._resume_offer() is not None
        return True

    # ----- reading the form ----------------------------------------------------------

    def _mode(self) -> type[Backend]:
        """The mode chosen (the Mode row)."""
        return self._kinds[self.query_one("#mode", ChoiceSet).pressed_index]

    def kind(self) -> type[Backend]:
        """The opponent kind chosen: the mode, or a kind picked within its first row."""
        mode = self._mode()
        rows = menu_choices(mode)
        if rows and self._within[mode.key]:
            index = self.query_one(f"#option-{mode.key}-{rows[0].key}", ChoiceSet).pressed_index
            within = index - len(rows[0].choices)
            if within >= 0:
                return self._within[mode.key][within]
        return mode

    def _picked(self, kind: type[Backend], key: str) -> str:
        option = next(option for option in kind.options if option.key == key)
        index = self.query_one(f"#option-{kind.key}-{key}", ChoiceSet).pressed_index
        return option.choices[index].value

    def _size_field(self, name: str) -> int | None:
        return parse_size(self.query_one(f"#{name}", Input).value)

    def _size_problem(self) -> str | None:
        """What is wrong with the size fields, in words; None when both are fine."""
        fields = ("columns", "rows")
        problems = (size_problem(name, self.query_one(f"#{name}", Input).value) for name in fields)
        return next((problem for problem in problems if problem), None)

    def settings(self) -> MatchSettings | None:
        """The settings in the form, or None (the problem shown) if a field is invalid."""
        columns, rows = self._size_field("columns"), self._size_field("rows")
        if columns is None or rows is None:
            return None
        kind = self.kind()
        options = dict(self._initial.options)
        options.update(
            {option.key: self._picked(kind, option.key) for option in menu_choices(kind)}
        )
        # Only where the row shows: two people's game starts with Player 1 on red, whatever
        # the hidden row kept from a game against the computer (a rematch swaps them).
        yellow = offers_colour(kind) and self.query_one("#colour", ChoiceSet).pressed_index == 1
        _, clock = self._clocks[self.query_one("#clock", ChoiceSet).pressed_index]
        return MatchSettings(
            opponent=kind.key,
            options=options,
            columns=columns,
            rows=rows,
            rules=Rules.POPOUT
            if self.query_one("#rules", ChoiceSet).pressed_index
            else Rules.CLASSIC,
            person_colour=Player.YELLOW if yellow else Player.RED,
            seed=self._initial.seed,
            ai_delay=self._initial.ai_delay,
            clock=None if kind.remote else clock,
        )

    # ----- actions -------------------------------------------------------------------

    def action_start(self) -> None:
        """Start the game, or point at the field that is wrong."""
        settings = self.settings()
        if settings is None:
            self._say_size_problem(self._size_problem() or "Check the board size.")
            self.app.bell()  # the reason is under the form, next to the field
            bad = "columns" if self._size_field("columns") is None else "rows"
            self.query_one(f"#{bad}", Input).focus()
            return
        self._initial = settings  # coming back, the menu shows what was played
        self.post_message(self.StartRequested(settings))

    def action_help(self) -> None:
        """The rules and keys."""
        self.post_message(self.HelpRequested())
