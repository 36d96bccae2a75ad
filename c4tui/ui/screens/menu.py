"""The menu: mode, board size, rules and (against the computer) colour and level."""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Grid, Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Button, Footer, Header, Input, Label, RadioButton, Static

from c4tui.engine import MAX_SIZE, MIN_SIZE, Player, Rules, parse_size
from c4tui.match import AI_LEVELS, MatchSettings, Mode
from c4tui.ui.screens.help import HelpScreen
from c4tui.ui.widgets.choice import ChoiceSet


class MenuScreen(Screen[None]):
    """Choose a game; Enter starts it. Fields keep their values when you come back."""

    BINDINGS = [
        Binding("enter", "start", "Start game", priority=True, id="menu.start"),
        Binding("question_mark", "help", "Help", key_display="?", id="menu.help"),
    ]

    def __init__(self, initial: MatchSettings | None = None) -> None:
        super().__init__()
        self._initial = initial or MatchSettings()

    def compose(self) -> ComposeResult:
        """The form: one labelled row per setting, then the Start button."""
        initial = self._initial
        yield Header()
        with Vertical(id="menu"):
            yield Static("Connect Four", id="menu-title")
            with Grid(id="menu-form"):
                yield Label("Mode")
                with ChoiceSet(id="mode"):
                    yield RadioButton("Two players", value=initial.mode is Mode.TWO_PLAYERS)
                    yield RadioButton("Computer", value=initial.mode is Mode.COMPUTER)
                    yield RadioButton("Network server", value=initial.mode is Mode.NETWORK)
                yield Label("Board")
                with Horizontal(id="size"):
                    yield self._size_input("columns", initial.columns)
                    yield Static(" columns × ", classes="size-label")
                    yield self._size_input("rows", initial.rows)
                    yield Static(" rows", classes="size-label")
                yield Label("Rules")
                with ChoiceSet(id="rules"):
                    yield RadioButton("Classic", value=initial.rules is Rules.CLASSIC)
                    yield RadioButton("Pop Out", value=initial.rules is Rules.POPOUT)
                yield Label("You play", classes="computer-only")
                with ChoiceSet(id="colour", classes="computer-only"):
                    yield RadioButton("Red (moves first)", value=initial.human_colour is Player.RED)
                    yield RadioButton("Yellow", value=initial.human_colour is Player.YELLOW)
                yield Label("Level", classes="computer-only")
                with ChoiceSet(id="level", classes="computer-only"):
                    for level in AI_LEVELS:
                        yield RadioButton(level.name, value=level.key == initial.ai_level)
            yield Static(id="level-description", classes="computer-only")
            yield Static(
                "Network: play RED against the AI of a server (e.g. `c4tui serve`); "
                "Enter asks where it is.",
                id="network-note",
            )
            yield Static(id="size-error")
            yield Button("Start game", id="start", variant="primary")
        yield Footer()

    @staticmethod
    def _size_input(name: str, value: int) -> Input:
        return Input(
            str(value),
            id=name,
            restrict=r"[0-9]{0,2}",
            max_length=2,
            compact=True,
            tooltip=f"{MIN_SIZE} to {MAX_SIZE}",
        )

    def on_mount(self) -> None:
        """Show only the fields that matter for the chosen mode."""
        self.query_one("#mode", ChoiceSet).focus()
        if self.app.is_headless:  # a blinking cursor would make screenshots flaky
            for field in self.query(Input):
                field.cursor_blink = False
        self._show_mode_fields()
        self._show_level_description()

    # ----- reacting to edits ---------------------------------------------------------

    @on(ChoiceSet.Changed, "#mode")
    def _show_mode_fields(self) -> None:
        against_computer = self._mode() is Mode.COMPUTER
        for widget in self.query(".computer-only"):
            widget.display = against_computer
        self.query_one("#network-note", Static).display = self._mode() is Mode.NETWORK

    @on(ChoiceSet.Changed, "#level")
    def _show_level_description(self) -> None:
        level = AI_LEVELS[max(0, self.query_one("#level", ChoiceSet).pressed_index)]
        self.query_one("#level-description", Static).update(f"{level.name}: {level.description}")

    @on(Input.Changed)
    def _check_sizes(self) -> None:
        self.query_one("#size-error", Static).update(self._size_problem() or "")

    @on(Button.Pressed, "#start")
    def _start_pressed(self) -> None:
        self.action_start()

    # ----- reading the form ----------------------------------------------------------

    def _mode(self) -> Mode:
        index = self.query_one("#mode", ChoiceSet).pressed_index
        return [Mode.TWO_PLAYERS, Mode.COMPUTER, Mode.NETWORK][max(0, index)]

    def _size_field(self, name: str) -> int | None:
        return parse_size(self.query_one(f"#{name}", Input).value)

    def _size_problem(self) -> str | None:
        """What is wrong with the size fields, in words; None when both are fine."""
        for name in ("columns", "rows"):
            if self._size_field(name) is None:
                value = self.query_one(f"#{name}", Input).value or "nothing"
                return (
                    f"{name.capitalize()} must be a whole number from {MIN_SIZE} to "
                    f"{MAX_SIZE} ({value} won't do)."
                )
        return None

    def settings(self) -> MatchSettings | None:
        """The settings in the form, or None (the problem shown) if a field is invalid."""
        columns, rows = self._size_field("columns"), self._size_field("rows")
        if columns is None or rows is None:
            return None
        rules_index = self.query_one("#rules", ChoiceSet).pressed_index
        colour_index = self.query_one("#colour", ChoiceSet).pressed_index
        level_index = max(0, self.query_one("#level", ChoiceSet).pressed_index)
        return MatchSettings(
            mode=self._mode(),
            columns=columns,
            rows=rows,
            rules=Rules.POPOUT if rules_index == 1 else Rules.CLASSIC,
            human_colour=Player.YELLOW
            if colour_index == 1 and self._mode() is Mode.COMPUTER
            else Player.RED,
            ai_level=AI_LEVELS[level_index].key,
            seed=self._initial.seed,
            ai_delay=self._initial.ai_delay,
        )

    # ----- actions -------------------------------------------------------------------

    def action_start(self) -> None:
        """Start the game, or point at the field that is wrong."""
        settings = self.settings()
        if settings is None:
            problem = self._size_problem() or "Check the board size."
            self.query_one("#size-error", Static).update(problem)
            self.notify(problem, title="Can't start yet", severity="error")
            bad = "columns" if self._size_field("columns") is None else "rows"
            self.query_one(f"#{bad}", Input).focus()
            return
        self.app.start_match(settings)  # type: ignore[attr-defined]

    def action_help(self) -> None:
        """The rules and keys."""
        self.app.push_screen(HelpScreen())
