"""Showing a match as it is played: one handler per kind of driver news, and the game kept.

The driver reports what happened (``c4tui.match.events``); ``MatchView`` turns each
event into what the board and the status panel show, from the event it was given,
and keeps a local game under way for the next run. A timed game here shows both
clocks at the top of the panel, with the lobby's widget (``GameClocks``), running.
``AdvisedView`` adds hints and the analysis, ``GameScreen`` the rest of what the
person does (keys, leaving, saving, review).
"""

from __future__ import annotations

from dataclasses import dataclass

from textual.message import Message
from textual.reactive import reactive

from c4tui.client import words
from c4tui.engine import GameState, Move, Player
from c4tui.match.backends.computer import ComputerBackend
from c4tui.match.driver import MatchDriver
from c4tui.match.events import (
    GameOver,
    GameStarted,
    MatchEvent,
    MatchFailed,
    MovePlayed,
    MoveRefused,
    MovesRedone,
    MovesTakenBack,
    SeatLeft,
    SeatStarting,
    TurnStarted,
)
from c4tui.match.record import match_record
from c4tui.match.score import Score
from c4tui.match.settings import FIRST_PLAYER, MatchSettings
from c4tui.match.timing import ran_out
from c4tui.records import GameRecord, Result
from c4tui.ui.advice import Advice
from c4tui.ui.keeping import GameKeeper
from c4tui.ui.screens.board_screen import BoardScreen
from c4tui.ui.screens.review import GameSoFar, ReviewScreen
from c4tui.ui.widgets.game_clocks import GameClocks
from c4tui.ui.widgets.status import LineShown, Mode, MovesSoFar, Turn


class MatchView(BoardScreen[bool | None]):
    """The board and the panel showing ``driver``'s match, kept up to date by its news.

    Args:
        driver: the match's driver.
        settings: the match's settings.
        ascii_only: draw with ASCII characters only.
        hint_seconds: how long a hint may think.
        score: the running score of a series of rematches.
        opened: a saved game being opened (reviewed until play goes on; not kept meanwhile).
        saves_last_until_quit: saved games go when the app quits (a browser visitor).
    """

    #: Whether the next move pops a disc (Pop Out): the screen's choice, the board shows it.
    pop_mode: reactive[bool] = reactive(False, repaint=False, init=False)

    @dataclass
    class MatchNews(Message):
        """The driver reported ``event``."""

        event: MatchEvent

    @property
    def game_in_progress(self) -> bool:
        """True until the match has a result (or cannot go on)."""
        return not self.driver.is_over

    def __init__(
        self,
        driver: MatchDriver,
        settings: MatchSettings,
        ascii_only: bool,
        hint_seconds: float,
        *,
        score: Score | None,
        opened: GameRecord | None,
        saves_last_until_quit: bool,
    ) -> None:
        super().__init__(driver.state, settings.describe(), ascii_only)
        self.driver = driver
        self.settings = settings
        #: The running score of this series of rematches.
        self.score = score or Score()
        #: Opened to review a saved game: the driver starts when play goes on.
        self._opened = opened
        self._counted: GameOver | None = None  # the last result added to the score
        #: A game that was over when opened (a saved one) does not count in the score.
        self._over_when_opened = driver.state.is_over
        #: "Getting ready" until the seats are (a network opponent connects first).
        self._ready = False
        self._available: tuple[bool, ...] | None = None  # what the footer last offered
        #: What undo or redo just did: said again when the turn it gave back starts.
        self._rewound = ""
        #: The review on top of this game, if any (it is told of every change).
        self._reviewing: ReviewScreen | None = None
        self.advice = Advice(
            self, driver, hint_seconds, self._show_labels, ascii_only, show_line=self._show_line
        )
        self.keeper = GameKeeper(
            remote=self.remote,
            saves_last_until_quit=saves_last_until_quit,
            keeping_failed=self._say_keeping_failed,
        )
        #: Both players' times, in a timed game here (a lobby game's screen has its own).
        self._clocks = (
            None
            if driver.clock is None
            else GameClocks(self._who(), ascii_only=ascii_only, id="clocks")
        )

    def on_mount(self) -> None:
        """A timed game's clocks go at the top of the panel, under its title."""
        if self._clocks is not None:
            self.panel.mount(self._clocks, after="#game-title")
            self._show_clocks()

    def _show_clocks(self) -> None:
        """Both times as the driver's clock has them (the mover's runs on in the widget)."""
        if self._clocks is not None and self.driver.clock is not None:
            self._clocks.reading = self.driver.clock.reading()

    def _post_news(self, event: MatchEvent) -> None:
        self.post_message(self.MatchNews(event))

    # ----- what the driver reports: one handler per kind of news ---------------------

    def on_match_view_match_news(self, message: MatchNews) -> None:
        """Show what happened; the driver decides what happens next."""
        if not self._widgets_ready:
            return  # news that arrived as the screen went away
        match message.event:
            case SeatStarting(note=note):
                self.panel.say(note, "thinking")
            case GameStarted(state=state):
                self._ready = True
                self._show_turn(state)
                self._show_controls()
            case TurnStarted() as turn:
                self._show_controls()
                self._turn_started(turn)
            case MovePlayed(after=after, moves=moves):
                self.pop_mode = False
                self._show_position(after, moves, animate=True)
                self._show_turn(after)
                self._show_controls()
                self._keep_for_next_time()
            case MoveRefused(reason=reason):
                self.panel.say(reason[0].upper() + reason[1:], "error")
                self.app.bell()
            case MovesTakenBack(state=state, moves=moves):
                self._show_rewound(state, moves, "Move taken back")
            case MovesRedone(state=state, moves=moves, count=count):
                self._show_rewound(state, moves, f"Redone: {count} move{'s' * (count > 1)}")
            case SeatLeft(player=player, reason=reason):
                self._tell_seat_left(player, reason)
            case GameOver(state=state) as result:
                self._show_turn(state)
                self._show_controls()
                self._keep_for_next_time()
                self._show_result(result)
            case MatchFailed(problem=problem, state=state):
                self._show_turn(state)
                self._show_controls()
                self._failed(problem)
        self._show_clocks()
        if self._reviewing is not None:
            self._reviewing.game_changed(self._game_so_far())

    def _tell_seat_left(self, player: Player, reason: str) -> None:
        """A seat left or failed: a note over the board saying which, and why."""
        seat = self.driver.seats[player]
        left = f"{player.name}'s {seat.noun} failed" if seat.fails else f"{player.name} left"
        self.notify(reason, title=left, markup=False)

    def _show_rewound(self, state: GameState, moves: tuple[Move, ...], words: str) -> None:
        """Undo or redo moved the game to ``state`` without a move being played."""
        self._show_position(state, moves)
        self._show_turn(state)
        self._show_controls()
        self._keep_for_next_time()
        self._rewound = words

    def _turn_started(self, event: TurnStarted) -> None:
        if event.submits:
            self.panel.say(self._rewound)
        else:
            self.panel.say(f"{event.label} is thinking…", "thinking")
        self._rewound = ""

    def _failed(self, problem: str) -> None:
        """Say why the game stopped; n starts over, m goes back.

        In the panel only: a toast would cover the board and linger on the next screen.
        """
        self._show_problem(problem)
        self.app.bell()

    def _show_problem(self, problem: str) -> None:
        again = "n: reconnect" if self.remote else "n: try again"
        self.panel.say(f"{problem}\n{again} · esc: menu", "error")

    def _show_result(self, result: GameOver) -> None:
        aborted = result.reason == words.GAME_ABORTED  # called off: it counts for nobody
        if result is not self._counted and not self._over_when_opened and not aborted:
            self._counted = result
            self.score.add(self._winner_name(result.winner))
        self.panel.score = self._score_text()
        self.panel.say(self._result_text(result), "result")

    def uncount_result(self) -> None:
        """The score forgets this game's counted end: it plays on from its review.

        The game ends again, and counts once, however often it plays on from before its end.
        """
        if self._counted is not None:
            self.score.take_back(self._winner_name(self._counted.winner))
            self._counted = None
            self.panel.score = self._score_text()

    def _winner_name(self, winner: Player | None) -> str | None:
        return None if winner is None else self.driver.seats[winner].label

    def _score_text(self) -> str:
        """The score for the panel: the computer named by its level ("Perfect 1")."""
        short = {
            seat.label: seat.level.name
            for seat in self.driver.seats.values()
            if isinstance(seat, ComputerBackend)
        }
        return self.score.describe(self._score_names(), short)

    def _score_names(self) -> tuple[str, str]:
        """The two players' names, the person here (or Player 1) first."""
        labels = sorted(seat.label for seat in self.driver.seats.values())
        first = next((name for name in labels if name in ("You", FIRST_PLAYER)), labels[0])
        return first, next(name for name in labels if name != first)

    def _result_text(self, result: GameOver) -> str:
        """How the game ended, and what the keys do next."""
        if result.state.is_over and result.winner is not None:
            text = "Four in a row!"  # the turn line above says who won
        elif result.flagged is not None:
            text = f"{ran_out(result.flagged)}."
        elif result.winner is not None:
            text = f"{result.winner.name} wins: {result.reason}."
        else:
            text = f"Draw: {result.reason}."
        return f"{text}\nr: rematch · esc: menu"

    def watch_pop_mode(self, pop: bool) -> None:
        """The board's markers and the panel's mode line show the mode."""
        self.board.pop_mode = pop
        self.panel.mode = Mode.of(self.driver.state.rules, pop, self.driver.is_over)

    # ----- showing --------------------------------------------------------------------

    def _show_game(self) -> None:
        """Everything as the driver has it (on mounting, and on starting over)."""
        state = self.driver.state
        self._show_position(state, self.driver.moves)
        self._show_turn(state)
        self._show_controls()

    def _show_position(
        self, state: GameState, moves: tuple[Move, ...], animate: bool = False
    ) -> None:
        """The board and the move list at ``state``, reached by ``moves``."""
        animate = animate and self.app.animation_level != "none"
        self.board.show(state, moves[-1] if moves else None, animate=animate)
        self.panel.moves = MovesSoFar(moves, state.turn.other if moves else None)

    def _show_turn(self, state: GameState) -> None:
        """Whose turn it is in ``state``, who won, or why the game is not going on."""
        self.panel.turn = Turn(state, self._who(), self._halted())

    def _offers_play(self) -> bool:
        """Whether the footer shows Play at all (dimmed while it is not our turn)."""
        return not (self.driver.is_over or self.driver.state.is_over)

    def _show_controls(self) -> None:
        """What can be done now: the board's Play, the mode line, the footer and the analysis."""
        driver = self.driver
        awaiting = driver.awaiting_submission()
        self.board.accepting = awaiting
        self.board.offers_play = self._offers_play()
        self.panel.mode = Mode.of(driver.state.rules, self.pop_mode, driver.is_over)
        # The footer is rebuilt on every refresh_bindings: only when what it shows changes.
        available = (awaiting, driver.can_undo(), driver.can_redo(), driver.is_over)
        if available != self._available:
            self._available = available
            self.refresh_bindings()
        self.advice.update_analysis()

    def _show_labels(self, labels: tuple[str, ...] | None) -> None:
        self.board.show_analysis(labels)

    def _show_line(self, shown: LineShown | None) -> None:
        if self._widgets_ready:
            self.panel.best_line = shown

    def _halted(self) -> str:
        """What the turn line says instead of whose turn it is, when the game is not going on."""
        driver = self.driver
        if driver.result is not None and not driver.state.is_over:  # a forfeit: no four shown
            winner = driver.result.winner
            if winner is not None and driver.result.flagged is not None:
                return f"{winner.name} wins on time"  # as a lobby's game lost on time says
            return f"{winner.name} wins by forfeit" if winner else "Game over"
        if driver.problem:
            return "Game stopped"
        return "" if self._ready else "Getting ready…"

    def _who(self) -> dict[Player, str]:
        """Who plays each colour ("You", "Computer (Hard)", "Player 2" after a rematch).

        A saved game being stepped through names its own players: a game kept by a
        lobby server opens as two people here, but it was ann against bob.
        """
        if self._opened is not None:
            return {Player.RED: self._opened.red, Player.YELLOW: self._opened.yellow}
        return {player: seat.label for player, seat in self.driver.seats.items()}

    @property
    def unfinished(self) -> bool:
        """True while a game is under way that one key could throw away."""
        driver = self.driver
        if driver.is_over or driver.state.is_over or self._decided_as_opened:
            return False
        return bool(driver.moves) or (self._ready and self.remote)

    @property
    def _decided_as_opened(self) -> bool:
        """A saved game whose record gives its result (a forfeit), seen as it was saved."""
        opened = self._opened
        return (
            opened is not None
            and opened.result is not Result.UNFINISHED
            and self.driver.moves == opened.moves
        )

    @property
    def remote(self) -> bool:
        """True when a player is at the other end of a connection (such games are not kept)."""
        return any(seat.remote for seat in self.driver.seats.values())

    def record(self) -> GameRecord:
        """The game so far, as a game record."""
        return match_record(self.settings, self.driver)

    def _keep_for_next_time(self) -> None:
        """A local game under way is kept after every move; a finished one is let go.

        Not a saved game being opened: it is in its folder already until play goes on.
        """
        if self._opened is None:
            self.keeper.keep(self.record() if self.unfinished else None)

    def _say_keeping_failed(self, error: OSError) -> None:
        """A full disk must not stop the game, only be told."""
        if self._widgets_ready:
            self.panel.say(f"Could not keep this game for next time: {error}", "error")

    def forget(self) -> None:
        """The person abandoned this game: it is not offered next time."""
        self.keeper.forget()

    def _game_so_far(self) -> GameSoFar:
        """What the review shows of this game as it stands."""
        driver = self.driver
        return GameSoFar(
            positions=driver.positions,
            moves=driver.moves,
            who=self._who(),
            halted=self._halted() if self._ready else "",
            mode=Mode.of(driver.state.rules, self.pop_mode, driver.is_over),
            score=self._score_text(),
            unfinished=self.unfinished,
            remote=self.remote,
        )
