"""The game screen: the board and the status panel, listening to the match driver.

The driver owns the turn loop; this screen shows what it reports (as
``MatchNews`` messages) and submits what the person plays.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Static

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
from c4tui.match.record import match_record
from c4tui.match.score import Score
from c4tui.match.settings import FIRST_PLAYER
from c4tui.records import GameRecord, moves_to_digits
from c4tui.records.store import keep_unfinished_soon, save_game
from c4tui.ui.screens.confirm import ConfirmDialog
from c4tui.ui.screens.help import HelpScreen
from c4tui.ui.widgets.board import Board
from c4tui.ui.widgets.footer import FittingFooter
from c4tui.ui.widgets.looks import EXTRA_LINES, smallest_look
from c4tui.ui.widgets.status import StatusPanel, narrowest_terminal_for, panel_width_for

if TYPE_CHECKING:
    from c4tui.ai.analysis import Analysis  # the solver loads in the worker, not here

#: Terminals at least this wide show every game key in the footer.
WIDE_FOOTER = 120
#: Lines the panel needs to show the turn, a message and the last move.
PANEL_MIN_HEIGHT = 10
HINT_GROUP = "hint"
ANALYSIS_GROUP = "analysis"
#: The analysis's budget where it cannot be proven (on 7 x 6 classic it is exact and quick).
ANALYSIS_SECONDS = 1.0


class GameScreen(Screen[bool | None]):
    """One match: people play with keys or mouse; the driver runs everything else."""

    BINDINGS = [
        # The ways out first: a narrow terminal's footer cuts off its end.
        Binding("escape,m", "menu", "Menu", id="game.menu"),
        Binding("question_mark", "help", "Help", key_display="?", id="game.help"),
        Binding("q", "app.quit", "Quit", id="game.quit"),
        Binding("p", "toggle_pop", "Drop/Pop", id="game.toggle_pop"),
        Binding("h", "hint", "Hint", id="game.hint"),
        Binding("a", "toggle_analysis", "Analysis", id="game.analysis"),
        Binding("u", "undo", "Undo", id="game.undo"),
        Binding("n", "new_game", "New", id="game.new"),
        Binding("r", "rematch", "Rematch", id="game.rematch"),
        Binding("v", "review", "Review", id="game.review"),
        Binding("s", "save", "Save", id="game.save"),
        Binding("w", "toggle_threats", "Threats", id="game.threats"),
        Binding("x", "export_digits", "Digits", id="game.export"),
        # Reached only while the board's Play is dimmed: say why nothing was played.
        Binding("enter,space", "why_not", show=False),
        # Reached only while Hint is dimmed: say why there is none.
        Binding("h", "why_no_hint", show=False),
        # The same actions while their footer entries are hidden (during play, or on a
        # narrow terminal); each comes after the shown binding of its key.
        Binding("r", "anytime('rematch')", show=False),
        Binding("v", "anytime('review')", show=False),
        Binding("s", "anytime('save')", show=False),
        Binding("w", "anytime('toggle_threats')", show=False),
        Binding("x", "anytime('export_digits')", show=False),
        # Review mode (v): these come before the board's own keys.
        Binding("left", "review_step(-1)", "Back", priority=True, id="review.back"),
        Binding("right", "review_step(1)", "Next", priority=True, id="review.forward"),
        Binding("home", "review_jump(0)", "Start", priority=True, id="review.start"),
        Binding("end", "review_jump(-1)", "End", priority=True, id="review.end"),
        Binding("c", "continue_here", "Play on", priority=True, id="review.continue"),
        Binding("escape,v", "end_review", "Done", priority=True, id="review.leave"),
    ]

    #: What the footer offers while reviewing (and nothing else).
    REVIEW_ACTIONS = frozenset(
        {"review_step", "review_jump", "continue_here", "end_review", "help", "save"}
    )
    #: What the footer offers only once the game is over (during play they stay hidden).
    AFTER_GAME_ACTIONS = frozenset({"rematch", "review", "save"})
    #: What makes no sense once the game is over (hidden then, to make room).
    DURING_GAME_ACTIONS = frozenset({"toggle_pop", "hint", "undo"})
    #: What the footer has room for on wide terminals only (the keys work at any width).
    WIDE_ONLY_ACTIONS = frozenset({"toggle_threats", "export_digits"})

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
        *,
        score: Score | None = None,
        review: GameRecord | None = None,
    ) -> None:
        super().__init__()
        self.driver = driver
        self.settings = settings
        #: The running score of this series of rematches.
        self.score = score or Score()
        #: Opened to review a saved game: the driver starts when play goes on.
        self._opened = review
        #: The move number shown while reviewing (None: playing).
        self.review_at: int | None = 0 if review is not None else None
        self._counted: GameOver | None = None  # the last result added to the score
        #: A game that was over when opened (a saved one) does not count in the score.
        self._over_when_opened = driver.state.is_over
        self._shown = False  # True from mounting until unmounting: the widgets are there
        self._board: Board | None = None
        self._panel: StatusPanel | None = None
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
        self._board = Board(self.driver.state, ascii_only=self._ascii_only, id="board")
        self._panel = StatusPanel(
            self.settings.describe(), ascii_only=self._ascii_only, id="status"
        )
        with Horizontal(id="game-body"):
            yield self._board
            yield self._panel
        yield Static(id="too-small")
        # Without the palette hint every key fits 80 columns, Pop Out included (^p still works).
        yield FittingFooter(show_command_palette=False)

    @property
    def _widgets_ready(self) -> bool:
        """True while the board and panel are there.

        Not before mounting, nor while the screen is being taken apart (children first).
        """
        board = self._board
        return self._shown and board is not None and board.is_attached

    # Kept rather than queried: keys ask for them many times a frame.

    @property
    def board(self) -> Board:
        """The board widget."""
        return self._board or self.query_one(Board)

    @property
    def panel(self) -> StatusPanel:
        """The status panel."""
        return self._panel or self.query_one(StatusPanel)

    def on_mount(self) -> None:
        """Listen to the driver, focus the board and start the game."""
        self._shown = True
        self._stop_listening = self.driver.subscribe(self._post_news)
        self.panel.styles.width = panel_width_for(self.app.size.width)
        self.panel.show_score(self.score.describe(self._score_names()))
        self.board.focus()
        self._refresh_view()
        if self.review_at is None:
            self._play_on()
        else:
            self._show_review()

    def _play_on(self) -> None:
        """Start the game from where it stands (kept at once if it is already under way)."""
        self.driver.start()
        if self.unfinished:
            self._keep_for_next_time()

    # ----- size --------------------------------------------------------------------

    def on_resize(self) -> None:
        """Size the panel to the terminal; show the game only when all of it fits."""
        if self._widgets_ready:
            self.panel.styles.width = panel_width_for(self.app.size.width)
            self.refresh_bindings()  # wide terminals show more keys
        self.call_after_refresh(self._check_fit)

    def needed_size(self) -> tuple[int, int]:
        """The smallest terminal that shows this board whole, with the panel and footer."""
        state = self.driver.state
        look = smallest_look(self._ascii_only)
        analysis = 0 if self.board.analysis is None else 1
        width = narrowest_terminal_for(state.columns * look.width)
        height = max(state.rows * look.height + EXTRA_LINES + analysis, PANEL_MIN_HEIGHT)
        return width, height + 1  # the footer

    def _check_fit(self) -> None:
        if not self._widgets_ready:
            return
        width, height = self.app.size
        need_width, need_height = self.needed_size()
        small = width < need_width or height < need_height
        body = self.query_one("#game-body")
        notice = self.query_one("#too-small", Static)
        if small:
            state = self.driver.state
            notice.update(
                f"The terminal is too small for this {state.columns} × {state.rows} board: "
                f"it needs {need_width} × {need_height}, and this one is {width} × {height}.\n\n"
                "Enlarge the window, or press Esc for the menu and a smaller board. "
                "The game goes on when it fits."
            )
        was_small = notice.display
        body.display, notice.display = not small, small
        if was_small and not small:
            self.board.focus()

    def _post_news(self, event: MatchEvent) -> None:
        self.post_message(self.MatchNews(event))

    async def on_unmount(self) -> None:
        """Leaving for good: stop the game and release its seats (connections, AI work)."""
        self._shown = False
        self._stop_listening()
        await self.driver.close()

    # ----- what the driver reports ---------------------------------------------------

    def on_game_screen_match_news(self, message: MatchNews) -> None:
        """Show what happened; the driver decides what happens next."""
        if not self._widgets_ready:
            return  # news that arrived as the screen went away
        event = message.event
        if isinstance(event, GameStarted):
            self._ready = True
        elif isinstance(event, MovePlayed):
            self.board.pop_mode = False
        if not isinstance(event, MoveRefused | SeatLeft):
            self._refresh_view(animate=isinstance(event, MovePlayed))
        if isinstance(event, MovePlayed | MovesTakenBack | GameOver):
            self._keep_for_next_time()
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
            self.notify(event.reason, title=f"{event.player.name} left", markup=False)
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
        """Say why the game stopped; n starts over, m goes back.

        In the panel only: a toast would cover the board and linger on the next screen.
        """
        self._show_problem(problem)
        self.app.bell()

    def _show_problem(self, problem: str) -> None:
        again = "n: reconnect" if self.remote else "n: try again"
        self.panel.show_message(f"{problem}\n{again} · esc: menu", "error")

    def _show_result(self, result: GameOver) -> None:
        if result is not self._counted and not self._over_when_opened:
            self._counted = result
            self.score.add(self._winner_name(result.winner))
        self.panel.show_score(self.score.describe(self._score_names()))
        self.panel.show_message(self._result_text(result), "result")

    def _winner_name(self, winner: Player | None) -> str | None:
        return None if winner is None else self.driver.seats[winner].label

    def _score_names(self) -> tuple[str, str]:
        """The two players' names, the person here (or Player 1) first."""
        labels = sorted(seat.label for seat in self.driver.seats.values())
        first = next((name for name in labels if name in ("You", FIRST_PLAYER)), labels[0])
        return first, next(name for name in labels if name != first)

    def _result_text(self, result: GameOver) -> str:
        """How the game ended, and what the keys do next."""
        if result.state.is_over and result.winner is not None:
            text = "Four in a row!"  # the turn line above says who won
        elif result.winner is not None:
            text = f"{result.winner.name} wins: {result.reason}."
        else:
            text = f"Draw: {result.reason}."
        return f"{text}\nr: rematch · esc: menu"

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

    def _halted(self) -> str:
        """What the turn line says instead of whose turn it is, when the game is not going on."""
        driver = self.driver
        if driver.result is not None and not driver.state.is_over:  # a forfeit: no four shown
            winner = driver.result.winner
            return f"{winner.name} wins by forfeit" if winner else "Game over"
        if driver.problem:
            return "Game stopped"
        return "" if self._ready else "Getting ready…"

    def _who(self) -> dict[Player, str]:
        """Who plays each colour ("You", "Computer (Hard)", "Player 2" after a rematch)."""
        return {player: seat.label for player, seat in self.driver.seats.items()}

    def _refresh_view(self, animate: bool = False) -> None:
        driver = self.driver
        state = driver.state
        if self.review_at is not None:
            self._show_review()  # the position reviewed stays in view as the game goes on
        else:
            animate = animate and self.app.animation_level != "none"
            self.board.show(state, driver.last_move, animate=animate)
            self.board.accepting = driver.awaiting_submission()
            self.board.offers_play = not (driver.is_over or state.is_over)
            self.panel.show_turn(state, self._who(), self._halted())
            last_mover = state.turn.other if driver.moves else None
            self.panel.show_moves(driver.moves, last_mover)
        self.panel.show_mode(state.rules, self.board.pop_mode, driver.is_over)
        # The footer is rebuilt on every refresh_bindings: only when what it shows changes.
        available = (driver.awaiting_submission(), driver.can_undo(), driver.is_over)
        if available != self._available:
            self._available = available
            self.refresh_bindings()
        self._update_analysis()

    # ----- actions -------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """What the footer offers: review keys while reviewing; play keys while playing."""
        if not self._widgets_ready:
            return False  # keys that come before the screen has its widgets, or after
        if self.review_at is not None:
            return action in self.REVIEW_ACTIONS
        if action in self.REVIEW_ACTIONS - {"help", "save"}:
            return False
        over = self.driver.is_over or self.driver.state.is_over
        if action in self.WIDE_ONLY_ACTIONS or (action in self.AFTER_GAME_ACTIONS and not over):
            return self._wide  # elsewhere hidden; the "anytime" bindings of the keys still work
        if action in self.DURING_GAME_ACTIONS and over:
            return False
        return self._playing_check(action)

    def action_anytime(self, action: str) -> None:
        """An action whose footer entry is hidden (to save room) but still works."""
        if action in self.AFTER_GAME_ACTIONS | self.WIDE_ONLY_ACTIONS:
            getattr(self, f"action_{action}")()

    @property
    def _wide(self) -> bool:
        """True on terminals wide enough for every key in the footer."""
        return self.app.size.width >= WIDE_FOOTER

    def _playing_check(self, action: str) -> bool | None:  # noqa: PLR0911 (a rule an action)
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
            return not over or self._analysis_on
        if action == "undo":
            if not all(seat.supports_undo for seat in driver.seats.values()):
                return False
            return True if driver.can_undo() else None
        return True

    # ----- leaving and starting over -------------------------------------------------

    @property
    def unfinished(self) -> bool:
        """True while a game is under way that one key could throw away."""
        driver = self.driver
        if driver.is_over or driver.state.is_over:
            return False
        return bool(driver.moves) or (self._ready and self.remote)

    @property
    def remote(self) -> bool:
        """True when a player is at the other end of a connection (such games are not kept)."""
        return any(seat.remote for seat in self.driver.seats.values())

    def _ask_first(self, question: str, verb: str, then: Callable[[], None]) -> None:
        """Run ``then`` at once when nothing would be lost, else once the person says yes."""
        if not self.unfinished:
            then()
            return

        def answered(yes: bool | None) -> None:
            if yes:
                then()

        self.app.push_screen(ConfirmDialog(question, verb), answered)

    def record(self) -> GameRecord:
        """The game so far, as a game record."""
        return match_record(self.settings, self.driver)

    def _keep_for_next_time(self) -> None:
        """A local game under way is kept after every move; a finished one is let go."""
        if self.remote or (self._opened is not None and self.review_at is not None):
            return
        loop = asyncio.get_running_loop()

        def failed(error: OSError) -> None:  # in the keeper's thread
            with contextlib.suppress(RuntimeError):  # the app has ended meanwhile
                loop.call_soon_threadsafe(self._say_keeping_failed, error)

        keep_unfinished_soon(self.record() if self.unfinished else None, failed)

    def _say_keeping_failed(self, error: OSError) -> None:
        """A full disk must not stop the game, only be told."""
        if self._widgets_ready:
            self.panel.show_message(f"Could not keep this game for next time: {error}", "error")

    def forget(self) -> None:
        """The person abandoned this game: it is not offered next time."""
        if not self.remote:
            keep_unfinished_soon(None)

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
        """Same settings, empty board (a network opponent reconnects); asks first mid-game."""
        self._ask_first("Start a new game? This one is not finished.", "New game", self._restart)

    def _restart(self) -> None:
        self._cancel_hint()
        self.forget()
        self.board.pop_mode = False
        self._ready = False
        self.driver.restart()
        self._refresh_view()

    def action_rematch(self) -> None:
        """A new game with the colours swapped; the score of the series goes on."""
        self._ask_first("Start a rematch? This game is not finished.", "Rematch", self._rematch)

    def _rematch(self) -> None:
        self._cancel_hint()
        self.forget()
        kind = self.settings.kind
        colour = self.settings.person_colour.other
        if colour not in kind.person_colours and not kind.local_pair:
            colour = self.settings.person_colour  # the server decides the colours
        settings = replace(self.settings, person_colour=colour)
        self._switch_to(self.follow_up(settings, ()))

    def follow_up(self, settings: MatchSettings, history: tuple[Move, ...]) -> GameScreen:
        """The game screen that takes over from this one (a rematch, or play from a review)."""
        driver = self.app.make_driver(settings, history)  # type: ignore[attr-defined]
        return GameScreen(driver, settings, self._ascii_only, self._hint_seconds, score=self.score)

    def action_menu(self) -> None:
        """Back to the menu; the game waits there under Resume."""
        self._cancel_hint()
        self.app.clear_notifications()  # news of this game does not follow you out
        suspend = getattr(self.app, "suspend_game", None)
        if suspend is not None and self.unfinished:
            suspend(self)
        else:
            self.dismiss(None)

    def action_save(self) -> None:
        """Save the game (finished or not) as a record in the saved games folder."""
        try:
            path = save_game(self._opened or self.record())
        except OSError as error:
            self.panel.show_message(f"Could not save the game: {error}", "error")
            return
        # In the panel, not a toast: a toast would cover the board's right edge.
        until = " until you quit" if getattr(self.app, "is_visitor", False) else ""
        self.panel.show_message(f"Saved: {path.name}\n(Open, Ctrl+O in the menu, lists it{until})")

    def action_export_digits(self) -> None:
        """The game in the solvers' digit notation, shown and copied to the clipboard."""
        record = self.record()
        digits = moves_to_digits(record.columns, record.rules, record.moves)
        if digits is None:
            self.panel.show_message(
                "Digit strings write classic games of at most 9 columns, drops only; "
                "s saves the whole game instead."
            )
            return
        self.app.copy_to_clipboard(digits)
        self.panel.show_message(f"Digits (copied): {digits or '(empty board)'}")

    # ----- review --------------------------------------------------------------------

    def action_review(self) -> None:
        """Step through the game's moves (the game itself is left as it is)."""
        self._cancel_hint()
        self.review_at = len(self.driver.moves)
        self._show_review()

    def action_review_step(self, step: int) -> None:
        """One move back or forward."""
        if self.review_at is None:
            return
        last = len(self.driver.moves)
        self.review_at = max(0, min(last, self.review_at + step))
        self._show_review()

    def action_review_jump(self, where: int) -> None:
        """To the empty board (0) or the last move (-1)."""
        if self.review_at is None:
            return
        self.review_at = len(self.driver.moves) if where < 0 else 0
        self._show_review()

    def _show_review(self) -> None:
        at = self.review_at
        if at is None:
            return
        moves = self.driver.moves
        state = self.driver.positions[at]
        self.board.show(state, moves[at - 1] if at else None)
        self.board.accepting = False
        self.board.offers_play = False
        halted = self._halted() if at == len(moves) and self._ready else ""
        self.panel.show_turn(state, self._who(), halted)
        self.panel.show_moves(moves[:at], state.turn.other if at else None)
        mover = state.turn.other.name if at else ""
        shown = f"{mover} {describe_move(moves[at - 1])}" if at else "the empty board"
        result = ""
        if self._opened is not None and at == len(moves):
            record = self._opened
            result = f"\nResult: {record.result.value}" + (
                f" ({record.reason})" if record.reason else ""
            )
        self.panel.show_message(
            f"Review: move {at} of {len(moves)} — {shown}{result}\n"
            "← →: step · Home/End · c: play on from here · esc: back",
            "thinking",
        )
        self.refresh_bindings()

    def action_end_review(self) -> None:
        """Back to the game as it stands."""
        if self._opened is not None:
            self.action_continue_here(to_end=True)
            return
        self.review_at = None
        self.panel.show_message("")
        self.refresh_bindings()
        self._refresh_view()

    def action_continue_here(self, to_end: bool = False) -> None:
        """Play on from the position shown, against the same opponent."""
        at = len(self.driver.moves) if to_end or self.review_at is None else self.review_at
        if self._opened is not None and at == len(self.driver.moves):
            self._opened = None  # a saved game opened: play it on as it is
            self.review_at = None
            self.panel.show_message("")
            self.refresh_bindings()
            self._refresh_view()
            self._play_on()
            return
        if at == len(self.driver.moves):
            self.action_end_review()
            return
        if self.remote:
            self.panel.show_message("A server game cannot go back to an earlier move.", "error")
            return
        history = self.driver.moves[:at]
        self._ask_first(
            "Play on from this move? The later moves of this game are dropped.",
            "Play on",
            lambda: self._switch_to(self.follow_up(self.settings, history)),
        )

    def _switch_to(self, screen: GameScreen) -> None:
        """This game gives way to ``screen`` (which takes over the score)."""
        self.app.switch_screen(screen)

    def action_toggle_threats(self) -> None:
        """Mark, or stop marking, the empty cells where a disc would complete four."""
        self.board.show_threats = not self.board.show_threats
        if self.board.show_threats:
            self.panel.show_message("Threats: r and y mark where RED or YELLOW would make four")
        else:
            self.panel.show_message("Threats off")

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
        self.panel.show_message("Finding a hint…", "thinking")  # one line in the narrowest panel
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
        self.call_after_refresh(self._check_fit)  # the analysis row takes a line
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
        pending = "..." if self._ascii_only else "…"  # a "." alone would look like a cell
        self.board.show_analysis(tuple(pending for _ in range(state.columns)))
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
