"""The game screen: the board and the status panel, listening to the match driver.

The driver owns the turn loop; the screen shows what it reports (``match_view``:
one handler per kind of news) and submits what the person plays. Its other parts
live beside it: the keys and the footer's policy (``game_keys``), the review
(``review``), hint and analysis (``c4tui.ui.advice``), saving and keeping the game
(``c4tui.ui.keeping``), the layout (``board_screen``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from functools import partial

from textual.message import Message

from c4tui.ai.levels import HINT_SECONDS
from c4tui.engine import POP_OFF_IN_CLASSIC, Move, MoveKind, Rules
from c4tui.match.driver import MatchDriver
from c4tui.match.score import Score
from c4tui.match.settings import DriverFactory, MatchSettings
from c4tui.records import GameRecord, moves_to_digits
from c4tui.ui.commands import PaletteCommand, ScreenCommands
from c4tui.ui.screens.advised_view import AdvisedView
from c4tui.ui.screens.confirm import ConfirmDialog
from c4tui.ui.screens.game_keys import (
    GAME_BINDINGS,
    WIDE_FOOTER,
    GameCommand,
    KeyContext,
    footer_offers,
    nothing_to,
    palette_actions,
)
from c4tui.ui.screens.help import HelpScreen
from c4tui.ui.screens.review import ReviewScreen
from c4tui.ui.widgets.board import Board
from c4tui.ui.widgets.phrasing import in_groups

#: Asks before a saved game opened plays on (it replaces the game kept for next time):
#: runs the first callable once the way is clear, the second if the person says no.
ClearWay = Callable[[Callable[[], None], Callable[[], None]], None]


def own_driver(settings: MatchSettings, history: Sequence[Move]) -> MatchDriver:
    """A driver with the seats ``settings`` name, thinking in the process's shared pool."""
    return settings.driver(None, history)


def clear_at_once(then: Callable[[], None], _declined: Callable[[], None]) -> None:
    """Nothing else to give up: play on at once."""
    then()


class GameScreen(AdvisedView):
    """One match: people play with keys or mouse; the driver runs everything else.

    Args:
        driver: the match's driver (not started: the screen starts it).
        settings: the match's settings (a rematch swaps the colours).
        ascii_only: draw with ASCII characters only.
        hint_seconds: how long a hint may think.
        score: the running score of a series of rematches.
        review: opened to review this saved game: the driver starts when play goes on.
        review_at: the move of ``review`` shown first (0: the empty board; a position set
            up is shown at its last move).
        make_driver: builds the driver of the game that follows this one (a rematch,
            or play on from a move reviewed).
        saves_last_until_quit: saved games go when the app quits (a browser visitor).
        clear_way: asks, before a saved game opened plays on, to give up the games it
            would replace (the app's); viewing it alone touches nothing.
    """

    BINDINGS = GAME_BINDINGS
    COMMANDS = {ScreenCommands}  # the game's actions in the palette, beside Textual's

    @dataclass
    class Suspended(Message):
        """The person left ``screen``'s unfinished game for the menu (it waits under Resume).

        The app keeps the screen and dismisses it; where nobody does, the screen
        dismisses itself (and its game ends).
        """

        screen: GameScreen

    @dataclass
    class OpenRequested(Message):
        """From ``screen``'s game, the person asked to open a saved game (the palette)."""

        screen: GameScreen

    def __init__(
        self,
        driver: MatchDriver,
        settings: MatchSettings,
        ascii_only: bool = False,
        hint_seconds: float = HINT_SECONDS,
        *,
        score: Score | None = None,
        review: GameRecord | None = None,
        review_at: int = 0,
        make_driver: DriverFactory | None = None,
        saves_last_until_quit: bool = False,
        clear_way: ClearWay = clear_at_once,
    ) -> None:
        super().__init__(
            driver,
            settings,
            ascii_only,
            hint_seconds,
            score=score,
            opened=review,
            saves_last_until_quit=saves_last_until_quit,
        )
        self._make_driver = make_driver or own_driver
        self._saves_last_until_quit = saves_last_until_quit
        self._hint_seconds = hint_seconds
        self._clear_way = clear_way
        self._review_at = review_at

    def on_mount(self) -> None:
        """Listen to the driver, focus the board and start the game (or review a saved one)."""
        self._show_board()
        self._stop_listening = self.driver.subscribe(self._post_news)
        self.panel.score = self._score_text()
        self._show_game()
        if self._opened is None:
            self._play_on()
        else:
            self._review(at=self._review_at)

    def _play_on(self) -> None:
        """Start the game from where it stands (kept at once if it is already under way)."""
        self.driver.start()
        if self.unfinished:
            self._keep_for_next_time()

    async def on_unmount(self) -> None:
        """Leaving for good: stop the game and release its seats (connections, AI work)."""
        self._shown = False
        self._stop_listening()
        await self.driver.close()
        await self._release()

    async def _release(self) -> None:
        """What a kind of game lets go of once its driver is closed (here: nothing).

        A hook, not an ``on_unmount`` of the subclass: Textual runs every class's handler,
        so an overriding handler that also called this one would close the game twice.
        """

    # ----- a person plays ------------------------------------------------------------

    def on_board_move_chosen(self, message: Board.MoveChosen) -> None:
        """A person chose a move (a key or a click)."""
        self._submit(message.move)

    def action_why_not(self) -> None:
        """Play was pressed while moves wait: the driver's refusal says why."""
        kind = MoveKind.POP if self.pop_mode else MoveKind.DROP
        self._submit(Move(kind, self.board.cursor))

    def _submit(self, move: Move) -> None:
        """Submit ``move`` (the driver says why not, if it won't; never while the board is hidden).

        Once the game is over, a move is no news: the result (and an online game's new
        ratings) stays in view rather than give way to "the game is over".
        """
        if self.driver.is_over:
            return
        if self.board_hidden:
            self.refuse_blind_move()  # a move played blind is no move the person chose
            return
        if self.driver.problem is not None:
            self._show_problem(self.driver.problem)  # the reason stays in view
            return
        if self.driver.submit(move) is None:
            self.advice.cancel_hint()

    def action_toggle_pop(self) -> None:
        """Switch the next move between dropping and popping."""
        if self.settings.rules is Rules.POPOUT:
            self.pop_mode = not self.pop_mode

    def action_why_no_pop(self) -> None:
        """p while Drop/Pop is hidden or dimmed: classic rules (and how to play Pop Out)."""
        if self.settings.rules is Rules.CLASSIC:
            self.panel.say(f"{POP_OFF_IN_CLASSIC}: choose Pop Out in the menu's Rules to pop.")
        elif self.driver.is_over or self.driver.state.is_over:
            self.panel.say("The game is over: nothing to pop.\nn: new game · esc: menu")
        else:
            self.panel.say("Popping is for your turn.")

    # ----- the footer ----------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """What the footer offers now (``game_keys`` says what when)."""
        if not self._widgets_ready:
            return False  # keys that come before the screen has its widgets, or after
        return footer_offers(action, self.driver, self._key_context())

    def _key_context(self) -> KeyContext:
        return KeyContext(
            popout=self.settings.rules is Rules.POPOUT,
            wide=self.app.size.width >= WIDE_FOOTER,
            analysis_on=self.advice.analysis_on,
        )

    def palette_commands(self) -> list[PaletteCommand]:
        """The game's actions for the command palette, each running what its key runs."""
        chosen = palette_actions(self.driver, self._key_context(), remote=self.remote)
        offered = [(c, a) for c, a in chosen if self._in_palette(c)]
        return [PaletteCommand(c.name, c.help, partial(self.action_anytime, a)) for c, a in offered]

    def _in_palette(self, command: GameCommand) -> bool:
        """Whether this kind of game offers ``command`` in the palette at all (here: all)."""
        return True

    def action_anytime(self, action: str) -> None:
        """An action whose footer entry is hidden (to save room) but still works.

        Also what the palette's commands run: the footer's rules were applied already.
        """
        anytime = {
            "rematch": self.action_rematch,
            "review": self.action_review,
            "save": self.action_save,
            "download": self.action_download,
            "toggle_threats": self.action_toggle_threats,
            "export_digits": self.action_export_digits,
            "new_game": self.action_new_game,
            "open_saved": self.action_open_saved,
            "toggle_analysis": self.action_toggle_analysis,
            "hint": self.action_hint,
            "why_no_hint": self.action_why_no_hint,
            "undo": self.action_undo,
            "why_no_undo": self.action_why_no_undo,
            "redo": self.action_redo,
            "why_no_redo": self.action_why_no_redo,
        }
        if action in anytime:
            anytime[action]()

    # ----- leaving, saving and starting over -----------------------------------------

    def _ask_first(self, question: str, verb: str, then: Callable[[], None]) -> None:
        """Run ``then`` at once when nothing would be lost, else once the person says yes."""
        if not self.unfinished:
            then()
            return

        def answered(yes: bool | None) -> None:
            if yes:
                then()

        self.app.push_screen(ConfirmDialog(question, verb), answered)

    def action_undo(self) -> None:
        """Take back the last move (against the computer: back to before your last move)."""
        self.advice.cancel_hint()
        if not self.driver.undo():
            self.action_why_no_undo()

    def action_why_no_undo(self) -> None:
        """u with nothing to take back (or in a game that takes nothing back): say so."""
        self.panel.say(nothing_to("undo", self.driver))

    def action_redo(self) -> None:
        """Play again what the last undo took back (until a new move is made)."""
        self.advice.cancel_hint()
        if not self.driver.redo():
            self.action_why_no_redo()

    def action_why_no_redo(self) -> None:
        """U or Ctrl+Y with nothing undone to play again: say so."""
        self.panel.say(nothing_to("redo", self.driver))

    def action_new_game(self) -> None:
        """Same settings, empty board (a network opponent reconnects); asks first mid-game."""
        self._ask_first("Start a new game? This one is not finished.", "New game", self._restart)

    def _restart(self) -> None:
        self.advice.cancel_hint()
        self.forget()
        self.pop_mode = False
        self._ready = False
        self.driver.restart()
        self._show_game()

    def action_rematch(self) -> None:
        """A new game with the colours swapped; the score of the series goes on."""
        self._ask_first("Start a rematch? This game is not finished.", "Rematch", self._rematch)

    def _rematch(self) -> None:
        self.advice.cancel_hint()
        self.forget()
        kind = self.settings.kind
        colour = self.settings.person_colour.other
        if colour not in kind.person_colours and not kind.local_pair:
            colour = self.settings.person_colour  # the server decides the colours
        settings = replace(self.settings, person_colour=colour)
        self._switch_to(self.follow_up(settings, ()))

    def follow_up(self, settings: MatchSettings, history: Sequence[Move]) -> GameScreen:
        """The game screen that takes over from this one (a rematch, or play from a review)."""
        return GameScreen(
            self._make_driver(settings, history),
            settings,
            self._ascii_only,
            self._hint_seconds,
            score=self.score,
            make_driver=self._make_driver,
            saves_last_until_quit=self._saves_last_until_quit,
        )

    def _switch_to(self, screen: GameScreen) -> None:
        """This game gives way to ``screen`` (which takes over the score, and the analysis)."""
        screen.advice.analysis_on = self.advice.analysis_on  # it starts as the screen mounts
        self.app.switch_screen(screen)

    def action_menu(self) -> None:
        """Back to the menu; an unfinished game waits there under Resume (if the app keeps it)."""
        self.advice.cancel_hint()
        self.app.clear_notifications()  # news of this game does not follow you out
        if not self.unfinished:
            self.dismiss(None)
            return
        self.post_message(self.Suspended(self))
        # Once the message has reached the app (it bubbles through this screen's queue
        # first), and the app had its turn: an app that keeps no games leaves it here.
        self.call_later(self.app.call_later, self._leave_unless_kept)

    def _leave_unless_kept(self) -> None:
        """Nobody took the game left for the menu: leave it as a finished one is left."""
        if self.is_current:
            self.dismiss(None)

    def action_open_saved(self) -> None:
        """Open a saved game, or a position pasted as digits (the app's Open dialog)."""
        self.advice.cancel_hint()
        self.post_message(self.OpenRequested(self))

    def action_save(self) -> None:
        """Save the game (finished or not) in the saved games folder, under the name asked."""
        self.keeper.ask_and_save(self.app, self.record(), self._tell)

    def action_download(self) -> None:
        """Hand the game over as a record file (a browser visitor's saves stay on the server)."""
        self._tell(self.keeper.download(self.app, self.record()))

    def action_export_digits(self) -> None:
        """The game in the solvers' digit notation, shown and copied to the clipboard."""
        record = self.record()
        digits = moves_to_digits(record.columns, record.rules, record.moves)
        if digits is None:
            self.panel.say(
                "Digit strings write classic games of at most 9 columns, drops only; "
                "s saves the whole game instead."
            )
            return
        self.app.copy_to_clipboard(digits)
        self.panel.say(f"Digits (copied):\n{in_groups(digits) or '(empty board)'}")

    def action_toggle_threats(self) -> None:
        """Mark, or stop marking, the empty cells where a disc would complete four."""
        self.board.show_threats = not self.board.show_threats
        if self.board.show_threats:
            self.panel.say("Threats: r and y mark where RED or YELLOW would make four")
        else:
            self.panel.say("Threats off")

    def action_help(self) -> None:
        """Show the rules and keys."""
        self.app.push_screen(HelpScreen())

    # ----- review --------------------------------------------------------------------

    def action_review(self) -> None:
        """Step through the game's moves (the game itself is left as it is)."""
        self.advice.cancel_hint()
        self._review(at=len(self.driver.moves))

    def _review(self, at: int, line: tuple[Move, ...] = ()) -> None:
        """Push the review on top, showing move ``at`` (with ``line`` after the game's moves)."""
        self._reviewing = ReviewScreen(
            self._game_so_far(),
            self.settings.describe(),
            at=at,
            cursor=self.board.cursor,
            opened=self._opened,
            record=self.record,
            keeper=self.keeper,
            ascii_only=self._ascii_only,
            line=line,
        )
        self.app.push_screen(self._reviewing, self._review_ended)

    def _review_ended(self, at: int | None) -> None:
        """Back from the review: to the game as it stands, or play on from move ``at``.

        ``at`` None is Esc. A saved game opened is then left for the menu, asking nothing
        (the panel says "esc: back"); ``c`` plays it on, only once the games it replaces
        are given up (after asking): if they are kept, it is left for the menu, where they
        wait. A finished one has nothing to play on at its end.
        """
        self._reviewing = None
        if self._opened is None:
            self._go_on_from(at)
            return
        finished = self.driver.is_over or self.driver.state.is_over
        if at is None or (finished and at >= len(self.driver.moves)):
            self._close()  # nothing to play on, or Esc: it leaves
            return
        self._clear_way(lambda: self._go_on_from(at), self._close)

    def _close(self) -> None:
        """Leave this game for the menu, where nothing waits for it."""
        self.dismiss(None)

    def _go_on_from(self, at: int | None) -> None:
        """Back to the game as it stands, or play on from move ``at``."""
        moves = self.driver.moves
        if at is not None and at < len(moves):
            self.uncount_result()  # the game goes on from before its end: it ends anew
            self._switch_to(self.follow_up(self.settings, moves[:at]))
            return
        self.panel.say(self.advice.summary)  # the review had its say: the analysis again
        self.refresh_bindings()
        if self._opened is not None:
            self._opened = None  # a saved game opened: play it on as it is
            self._play_on()

    # ----- the best line (hints and analysis: AdvisedView) -----------------------------

    def action_best_line(self) -> None:
        """Step through the analysis's best line on the board; the game is left as it is."""
        line = self.advice.best_line
        if line is None:
            self.panel.say(self.advice.why_no_best_line())
            return
        self.advice.cancel_hint()
        self._review(at=len(self.driver.moves), line=line.moves)
