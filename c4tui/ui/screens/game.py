"""The game screen: the board and the status panel, listening to the match driver.

The driver owns the turn loop; this screen shows what it reports (as
``MatchNews`` messages) and submits what the person plays.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Footer

from c4tui.ai import SearchResult
from c4tui.ai.levels import HINT_SECONDS
from c4tui.engine import GameState, Move, MoveKind, Player, Rules, describe_move
from c4tui.match import MatchDriver, MatchSettings
from c4tui.match.events import (
    GameOver,
    GameStarted,
    MatchEvent,
    MatchFailed,
    MovePlayed,
    MoveRefused,
    MovesTakenBack,
    SeatLeft,
    SeatStarting,
    TurnStarted,
)
from c4tui.ui.screens.help import HelpScreen
from c4tui.ui.widgets.board import Board
from c4tui.ui.widgets.status import StatusPanel

if TYPE_CHECKING:
    from c4tui.ai.analysis import Analysis  # the solver loads in the worker, not here

HINT_GROUP = "hint"
ANALYSIS_GROUP = "analysis"
#: The analysis's budget where it cannot be proven (on 7 x 6 classic it is exact and quick).
ANALYSIS_SECONDS = 1.0


class GameScreen(Screen[bool | None]):
    """One match: people play with keys or mouse; the driver runs everything else."""

    BINDINGS = [
        Binding("p", "toggle_pop", "Drop/Pop", id="game.toggle_pop"),
        Binding("h", "hint", "Hint", id="game.hint"),
        Binding("a", "toggle_analysis", "Analysis", id="game.analysis"),
        Binding("u", "undo", "Undo", id="game.undo"),
        Binding("n", "new_game", "New", id="game.new"),
        Binding("escape,m", "menu", "Menu", id="game.menu"),
        Binding("question_mark", "help", "Help", key_display="?", id="game.help"),
        # Reached only while the board's Play is dimmed: say why nothing was played.
        Binding("enter,space", "why_not", show=False),
        # Reached only while Hint is dimmed: say why there is none.
        Binding("h", "why_no_hint", show=False),
    ]

    @dataclass
    class MatchNews(Message):
        """The driver reported ``event``."""

        event: MatchEvent

    @dataclass
    class AnalysisFound(Message):
        """Every column's outcome in ``state`` is known (or estimated)."""

        state: GameState
        analysis: Analysis

    @dataclass
    class HintFound(Message):
        """The hint search finished for ``state``."""

        state: GameState
        result: SearchResult

    def __init__(
        self,
        driver: MatchDriver,
        settings: MatchSettings,
        ascii_only: bool = False,
        hint_seconds: float = HINT_SECONDS,
    ) -> None:
        super().__init__()
        self.driver = driver
        self.settings = settings
        #: "Getting ready" until the seats are (a network opponent connects first).
        self._ready = False
        self._available: tuple[bool, bool, bool] | None = None  # what the footer last offered
        self._ascii_only = ascii_only
        self._hint_seconds = hint_seconds
        self._analysis_on = False
        self._analysed: GameState | None = None  # the position the analysis row is about

    # ----- layout --------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        """Board and panel side by side, footer (no header: a 20-row board needs the line)."""
        with Horizontal(id="game-body"):
            yield Board(self.driver.state, ascii_only=self._ascii_only, id="board")
            yield StatusPanel(self.settings.describe(), ascii_only=self._ascii_only, id="status")
        # Without the palette hint every key fits 80 columns, Pop Out included (^p still works).
        yield Footer(show_command_palette=False)

    @property
    def board(self) -> Board:
        """The board widget."""
        return self.query_one(Board)

    @property
    def panel(self) -> StatusPanel:
        """The status panel."""
        return self.query_one(StatusPanel)

    def on_mount(self) -> None:
        """Listen to the driver, focus the board and start the game."""
        self._stop_listening = self.driver.subscribe(self._post_news)
        self.board.focus()
        self._refresh_view()
        self.driver.start()

    def _post_news(self, event: MatchEvent) -> None:
        self.post_message(self.MatchNews(event))

    async def on_unmount(self) -> None:
        """Leaving for good: stop the game and release its seats (connections, AI work)."""
        self._stop_listening()
        await self.driver.close()

    # ----- what the driver reports ---------------------------------------------------

    def on_game_screen_match_news(self, message: MatchNews) -> None:
        """Show what happened; the driver decides what happens next."""
        event = message.event
        if isinstance(event, GameStarted):
            self._ready = True
        elif isinstance(event, MovePlayed):
            self.board.pop_mode = False
        if not isinstance(event, MoveRefused | SeatLeft):
            self._refresh_view()
        if isinstance(event, SeatStarting):
            self.panel.show_message(event.note, "thinking")
        elif isinstance(event, TurnStarted):
            self._turn_started(event)
        elif isinstance(event, MoveRefused):
            self.panel.show_message(event.reason[0].upper() + event.reason[1:], "error")
            self.app.bell()
        elif isinstance(event, MovesTakenBack):
            self.panel.show_message("Move taken back")
        elif isinstance(event, SeatLeft):
            self.notify(event.reason, title=f"{event.player.name} left")
        elif isinstance(event, GameOver):
            self._show_result(event)
        elif isinstance(event, MatchFailed):
            self._failed(event.problem)

    def _turn_started(self, event: TurnStarted) -> None:
        if event.submits:
            self.panel.show_message("")
        else:
            self.panel.show_message(f"{event.label} is thinking…", "thinking")

    def _failed(self, problem: str) -> None:
        """Say why the game stopped; n starts over, m goes back."""
        self._show_problem(problem)
        self.notify(problem, title="The game cannot go on", severity="error", timeout=8)

    def _show_problem(self, problem: str) -> None:
        self.panel.show_message(f"{problem}\nn: try again · esc: menu", "error")

    def _show_result(self, result: GameOver) -> None:
        self.panel.show_message(self._result_text(result), "result")

    def _result_text(self, result: GameOver) -> str:
        """How the game ended, and what the keys do next."""
        if result.state.is_over and result.winner is not None:
            text = f"Four in a row: {result.winner.name} wins!"
        elif result.winner is not None:
            text = f"{result.winner.name} wins: {result.reason}."
        else:
            text = f"Draw: {result.reason}."
        return f"{text}\nn: new game · esc: menu"

    # ----- a person plays ------------------------------------------------------------

    def on_board_column_chosen(self, message: Board.ColumnChosen) -> None:
        """A person chose a column (a key or a click)."""
        self._play_at(message.column)

    def _play_at(self, column: int) -> None:
        """Submit a move in ``column`` (the driver says why not, if it won't)."""
        if self.driver.problem is not None:
            self._show_problem(self.driver.problem)  # the reason stays in view
            return
        kind = MoveKind.POP if self.board.pop_mode else MoveKind.DROP
        if self.driver.submit(Move(kind, column)) is None:
            self._cancel_hint()

    # ----- showing -------------------------------------------------------------------

    def _who(self) -> dict[Player, str]:
        """Who plays each colour, when it is worth saying (not for two people here)."""
        if self.driver.everyone_submits():
            return {}
        return {player: seat.label for player, seat in self.driver.seats.items()}

    def _refresh_view(self) -> None:
        driver = self.driver
        state = driver.state
        self.board.show(state, driver.last_move)
        self.board.accepting = driver.awaiting_submission()
        halted = "Stopped" if driver.problem else "" if self._ready else "Getting ready…"
        if driver.result is not None and not state.is_over:  # a forfeit: the board shows none
            winner = driver.result.winner
            halted = f"{winner.name} wins by forfeit" if winner else "Game over"
        self.panel.show_turn(state, self._who(), halted)
        self.panel.show_mode(state.rules, self.board.pop_mode, driver.is_over)
        last_mover = state.turn.other if driver.moves else None
        self.panel.show_moves(driver.moves, last_mover)
        # The footer is rebuilt on every refresh_bindings: only when what it shows changes.
        available = (driver.awaiting_submission(), driver.can_undo(), driver.is_over)
        if available != self._available:
            self._available = available
            self.refresh_bindings()
        self._update_analysis()

    # ----- actions -------------------------------------------------------------------

    def check_action(  # noqa: PLR0911 (one rule per action)
        self, action: str, parameters: tuple[object, ...]
    ) -> bool | None:
        """Hide Drop/Pop (classic rules) and Undo (nobody undoes); dim what cannot be done now."""
        driver = self.driver
        if action == "toggle_pop":
            if self.settings.rules is not Rules.POPOUT:
                return False
            return True if driver.awaiting_submission() else None
        if action == "hint":
            return True if driver.awaiting_submission() else None
        if action == "toggle_analysis":  # nothing to analyse once the game is over
            over = driver.is_over or driver.state.is_over
            return None if over and not self._analysis_on else True
        if action == "undo":
            if not all(seat.supports_undo for seat in driver.seats.values()):
                return False
            return True if driver.can_undo() else None
        return True

    def action_why_not(self) -> None:
        """Play was pressed while moves wait: the driver's refusal says why."""
        self._play_at(self.board.cursor)

    def action_toggle_pop(self) -> None:
        """Switch the next move between dropping and popping."""
        if self.settings.rules is not Rules.POPOUT:
            return
        self.board.pop_mode = not self.board.pop_mode
        self.panel.show_mode(Rules.POPOUT, self.board.pop_mode)

    def action_undo(self) -> None:
        """Take back the last move (against the computer: back to before your last move)."""
        self._cancel_hint()
        self.driver.undo()

    def action_new_game(self) -> None:
        """Same settings, empty board (a network opponent reconnects)."""
        self._cancel_hint()
        self.board.pop_mode = False
        self._ready = False
        self.driver.restart()
        self._refresh_view()

    def action_menu(self) -> None:
        """Back to the menu (the current game is abandoned)."""
        self._cancel_hint()
        self.app.clear_notifications()  # news of this game does not follow you out
        self.dismiss(None)

    def action_help(self) -> None:
        """Show the rules and keys."""
        self.app.push_screen(HelpScreen())

    # ----- hints ---------------------------------------------------------------------

    def action_why_no_hint(self) -> None:
        """h while Hint is dimmed: the game is over, or it is not a person's turn here."""
        if self.driver.is_over or self.driver.state.is_over:
            self.panel.show_message("The game is over: no hint to give.\nn: new game · esc: menu")
        else:
            self.panel.show_message("Hints are for your turn.")

    def action_hint(self) -> None:
        """Suggest a move for the person to move, worked out by the driver off the UI's hands."""
        if not self.driver.awaiting_submission():
            self.action_why_no_hint()
            return
        self.panel.show_message("Looking for a good move…", "thinking")
        self._find_hint(self.driver.state)

    @work(group=HINT_GROUP, exclusive=True, exit_on_error=False)
    async def _find_hint(self, state: GameState) -> None:
        result = await self.driver.hint(self._hint_seconds)
        self.post_message(self.HintFound(state, result))

    def on_game_screen_hint_found(self, message: HintFound) -> None:
        """Point the cursor at the suggested move and say what is known about it."""
        if message.state is not self.driver.state:
            return  # the player moved first
        move = message.result.move
        self.board.cursor = move.column
        self.board.pop_mode = move.kind is MoveKind.POP
        self.panel.show_mode(message.state.rules, self.board.pop_mode)
        outlook = {
            "won": " — you can force a win",
            "lost": " — but the opponent can force a win",
        }.get(message.result.outlook or "", "")
        self.panel.show_message(f"Hint: {describe_move(move)}{outlook}")

    # ----- analysis ------------------------------------------------------------------

    def action_toggle_analysis(self) -> None:
        """Show or hide each column's outcome under the board."""
        self._analysis_on = not self._analysis_on
        self._analysed = None
        self.refresh_bindings()  # once the game is over, Analysis can only be turned off
        if self._analysis_on:
            self.panel.show_message("Analysis on: each column's outcome shows under the board")
            self._update_analysis()
        else:
            self.workers.cancel_group(self, ANALYSIS_GROUP)
            self.board.show_analysis(None)
            self.panel.show_message("Analysis off")

    def _update_analysis(self) -> None:
        """Analyse a new position on a person's turn (the computer's turn needs the worker)."""
        state = self.driver.state
        if not self._analysis_on or state is self._analysed:
            return
        self._analysed = state
        self.workers.cancel_group(self, ANALYSIS_GROUP)
        if state.is_over or not self.driver.awaiting_submission():
            self.board.show_analysis(None)
            return
        self.board.show_analysis(tuple("…" for _ in range(state.columns)))
        self._run_analysis(state)

    @work(group=ANALYSIS_GROUP, exclusive=True, exit_on_error=False)
    async def _run_analysis(self, state: GameState) -> None:
        analysis = await self.driver.analysis(ANALYSIS_SECONDS)
        self.post_message(self.AnalysisFound(state, analysis))

    def on_game_screen_analysis_found(self, message: AnalysisFound) -> None:
        """Label the columns, and name the best one in the panel."""
        if message.state is not self.driver.state or not self._analysis_on:
            return  # a move was played meanwhile
        analysis = message.analysis
        self.board.show_analysis(tuple("" if v is None else v.label for v in analysis.columns))
        best = analysis.best_column()
        verdict = analysis.columns[best]
        kind = "proven" if analysis.exact else "estimate: a short search"
        words = verdict.words if verdict else ""
        self.panel.show_message(f"Analysis ({kind}): column {best + 1} is best — {words}")

    def _cancel_hint(self) -> None:
        """Stop a hint search (the pool drops it or tells its worker to stop)."""
        self.workers.cancel_group(self, HINT_GROUP)
