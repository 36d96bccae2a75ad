"""Puzzles (issue 41): find the move that wins (or alone holds), proven by the solver.

The board is a game's (cursor, arrows, digits, Enter, a click); the panel says what
to find, then how each move went. A right move is answered by the defence at once;
a wrong one stays on the board while the search pool works out the solver's best
reply (never in this process: "Checking…" meanwhile, the keys answer), which is then
played and explained. The session and its record are ``puzzles/session.py``'s.
"""

from __future__ import annotations

from dataclasses import dataclass

from textual.binding import Binding
from textual.message import Message

from c4tui.engine import GameState, Move, Player
from c4tui.match.pool import SearchPool
from c4tui.puzzles.attempt import Refutation, Verdict, task_words
from c4tui.puzzles.session import PuzzleSession
from c4tui.ui.screens.board_screen import BoardScreen
from c4tui.ui.screens.help import HelpScreen
from c4tui.ui.screens.puzzle_history import PuzzleHistory
from c4tui.ui.widgets.board import Board
from c4tui.ui.widgets.puzzle_panel import PuzzlePanel
from c4tui.ui.widgets.status import Turn

#: The worker group of the wrong move's explanation (a new puzzle cancels it).
REFUTING = "puzzle-refutation"
#: What the panel says as a try begins.
FIND_IT = "Find the move: ← → and Enter, or a click."
#: What a hint costs, said with it.
HINT_COST = "Hint used: this try will not count as solved."


def change_words(change: float, ascii_only: bool = False) -> str:
    """A rating change as the panel shows it: "+14", "−9" ("-9" in ASCII), "±0"."""
    points = round(change)
    if points > 0:
        return f"+{points}"
    if points < 0:
        return f"{'-' if ascii_only else '−'}{-points}"
    return "+0" if ascii_only else "±0"


class PuzzleScreen(BoardScreen[None]):
    """One puzzle after another; Esc goes back to the menu.

    Args:
        trainer: the puzzles, the player's record, the try under way.
        pool: where the solver explains a wrong move (None: the process's shared pool).
        notice: said once as the screen opens (a damaged record set aside).
        ascii_only: draw with ASCII characters only.
    """

    panel_class = PuzzlePanel
    BINDINGS = [
        Binding("h", "hint", "Hint", id="puzzles.hint"),
        Binding("s", "solution", "Solution", id="puzzles.solution"),
        Binding("n", "next", "Next", id="puzzles.next"),
        Binding("r", "retry", "Retry", id="puzzles.retry"),
        Binding("d", "daily", "Daily", id="puzzles.daily"),
        Binding("y", "history", "Tries", id="puzzles.history"),
        Binding("escape", "leave", "Menu", id="puzzles.leave"),
        Binding("question_mark", "help", "Help", key_display="?", id="puzzles.help"),
    ]

    @dataclass
    class Refuted(Message):
        """The solver answered ``wrong``, which made ``state`` (None: it could not be asked)."""

        state: GameState
        wrong: Move
        refutation: Refutation | None

    def __init__(
        self,
        trainer: PuzzleSession,
        *,
        pool: SearchPool | None = None,
        notice: str | None = None,
        ascii_only: bool = False,
    ) -> None:
        super().__init__(trainer.attempt.state, "Puzzles", ascii_only)
        self.trainer = trainer
        self._pool = pool
        self._notice = notice
        #: The wrong move's explanation is being worked out.
        self.checking = False

    @property
    def pool(self) -> SearchPool:
        """The search pool that explains wrong moves."""
        return self._pool or SearchPool.shared()

    @property
    def puzzle_panel(self) -> PuzzlePanel:
        """The panel, with its standing and puzzle lines (``panel_class``)."""
        panel = self.panel
        return panel if isinstance(panel, PuzzlePanel) else self.query_one(PuzzlePanel)

    def on_mount(self) -> None:
        """The first puzzle; a damaged record's notice, once."""
        self._show_board()
        self._show_puzzle()
        if self._notice:
            self.notify(self._notice, severity="warning", timeout=20, markup=False)

    # ----- showing -------------------------------------------------------------------

    def _show_puzzle(self, before: str = "") -> None:
        """The puzzle's position, what to find, the standing; the board takes moves."""
        self.workers.cancel_group(self, REFUTING)
        self.checking = False
        trainer = self.trainer
        self.board.show(trainer.attempt.state)
        self.board.show_analysis(None)
        self.board.accepting = True
        self.board.offers_play = True
        self.panel.turn = Turn(trainer.attempt.state, {}, halted=task_words(trainer.puzzle))
        if trainer.left_unfinished:
            before += "The last try was left unfinished: it counts as failed. "
        if trainer.retry:
            before += "A retry: not rated. "
        self.panel.say(before + FIND_IT)
        self._show_standing()

    def _show_standing(self) -> None:
        """The player's rating (and its change after the try), the streaks, the puzzle."""
        trainer, recorded = self.trainer, self.trainer.recorded
        progress = trainer.progress
        rating = f"Rating {round(progress.rating.rating)}"
        if recorded is not None:
            rating += f" {change_words(recorded.change, self._ascii_only)}" * recorded.rated
            rating += " (not rated)" * (not recorded.rated)
        streak = f"Streak {progress.streak}, best {progress.best_streak}"
        self.puzzle_panel.standing = f"{rating}\n{streak}"
        puzzle = trainer.puzzle
        puzzle_rating = round(progress.puzzle_rating(puzzle).rating)
        lines = [f"Puzzle {trainer.number(puzzle.id)}, rated {puzzle_rating}"]
        if recorded is None:
            lines.append("Themes: shown after the try")
        else:
            lines.append("Themes: " + ", ".join(puzzle.themes))
        if puzzle.id == trainer.daily.id:
            tick = " ✓ solved" if trainer.daily_solved else ""
            lines.append(f"Daily puzzle of {trainer.today.isoformat()}{tick}")
        self.puzzle_panel.about = "\n".join(lines)
        self.refresh_bindings()

    def _show(self, state: GameState, last: Move | None, said: str, kind: str = "") -> None:
        """The board at ``state`` (``last`` marked) and the panel's news."""
        self.board.show(state, last_move=last)
        self.board.show_analysis(None)
        over = self.trainer.over
        self.board.accepting = not over and not self.checking
        self.board.offers_play = not over
        self.panel.say(said, kind)
        self._show_standing()

    def _result_words(self) -> str:
        """How the try ended for the record: the change, or why none; a save's failure."""
        recorded = self.trainer.recorded
        if recorded is None:
            return ""
        words = ""
        if recorded.rated:
            words = f" Rating {change_words(recorded.change, self._ascii_only)}."
        if self.trainer.save_problem:
            words += f" {self.trainer.save_problem}"
        return words

    # ----- the player's moves --------------------------------------------------------

    def on_board_move_chosen(self, message: Board.MoveChosen) -> None:
        """Enter, Space or a click: the move judged against the solution."""
        if self.board_hidden:
            self.refuse_blind_move()
            return
        trainer = self.trainer
        if trainer.over or self.checking:
            self.app.bell()
            self.panel.say("This try is over: n for the next puzzle, r to retry, s the solution.")
            return
        try:
            verdict, defence = trainer.play(message.move.column)
        except ValueError as error:
            self.app.bell()
            self.panel.say(f"{error}. {FIND_IT}", "error")
            return
        move = message.move
        if verdict is Verdict.RIGHT:
            answer = f"{_side(trainer.attempt.state.turn.other)} answers {defence}."
            self._show(trainer.attempt.state, defence, f"Right! Keep going. {answer}", "result")
        elif verdict is Verdict.SOLVED:
            said = (
                "Solved!" if trainer.attempt.solved else "Done, with a hint: not counted as solved."
            )
            self._show(trainer.attempt.state, move, said + self._result_words(), "result")
        else:
            self._wrong(move)

    def _wrong(self, move: Move) -> None:
        """A wrong move: on the board, and the solver asked why (in the pool)."""
        state = self.trainer.attempt.state
        self.checking = True
        self._show(state, move, f"{move} is not the move. Checking…", "thinking")
        refuting = self._refute(state, move)
        self.run_worker(refuting, group=REFUTING, exclusive=True, exit_on_error=False)

    async def _refute(self, state: GameState, wrong: Move) -> None:
        """Ask the pool for the best reply to the wrong move; the answer comes as a message."""
        try:
            refutation: Refutation | None = await self.pool.refute(state, owner=self)
        except Exception:  # a broken pool, a failed worker: the move is still wrong, said so
            refutation = None
        self.post_message(self.Refuted(state, wrong, refutation))

    def on_puzzle_screen_refuted(self, message: PuzzleScreen.Refuted) -> None:
        """The reply played on the board, and what the wrong move allowed, in words."""
        attempt = self.trainer.attempt
        if message.state is not attempt.state or self.trainer.solution_seen:
            return  # another puzzle, or the solution, is shown meanwhile
        self.checking = False
        wrong, refutation = message.wrong, message.refutation
        if refutation is None:
            said = f"{wrong} is not the move (the solver could not be asked)."
            self._show(attempt.state, wrong, said + self._result_words(), "error")
            return
        said = refutation_words(wrong, refutation, attempt.solver_side)
        state, last = attempt.state, wrong
        if refutation.reply is not None:
            state, last = state.play(refutation.reply), refutation.reply
        self._show(state, last, said + self._result_words() + " s: the solution.", "error")

    # ----- the keys ------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """A hint only while the try goes on; a retry once it is over."""
        finished = self.trainer.over
        if action == "hint":
            return not finished
        if action == "retry":
            return finished
        return True

    def action_hint(self) -> None:
        """Mark the column to play (the try then does not count as solved)."""
        move = self.trainer.hint()
        if move is None:
            return
        self.board.cursor = move.column
        columns = range(self.board.state.columns)
        marks = tuple("▲" if column == move.column else "" for column in columns)
        self.board.show_analysis(marks)
        self.panel.say(f"Hint: {move}, marked under the board. {HINT_COST}")

    def action_solution(self) -> None:
        """Play the solution out on the board from the puzzle's position, and list it."""
        self.workers.cancel_group(self, REFUTING)
        self.checking = False
        before = self.trainer.recorded
        state, moves = self.trainer.solution()
        said = f"Solution: {' '.join(map(str, moves))}."
        if before is None:
            said += " Seen before the end: this try counts as failed." + self._result_words()
        self._show(state, moves[-1], said + " n: next, r: retry.")

    def action_next(self) -> None:
        """The next puzzle at once: the untried one nearest your rating."""
        self.trainer.start_next()
        self._show_puzzle()

    def action_retry(self) -> None:
        """This puzzle again, from its start (not rated)."""
        self.trainer.start(self.trainer.puzzle)
        self._show_puzzle()

    def action_daily(self) -> None:
        """Today's puzzle: the same for everyone on this day."""
        self.trainer.start(self.trainer.daily)
        self._show_puzzle(f"Daily puzzle of {self.trainer.today.isoformat()}. ")

    def action_history(self) -> None:
        """The last tries, failed ones first: Enter retries the one chosen."""

        def chosen(puzzle_id: str | None) -> None:
            if puzzle_id is not None and self.trainer.start_by_id(puzzle_id):
                self._show_puzzle()

        tries = self.trainer.history()
        self.app.push_screen(PuzzleHistory(tries, self.trainer.number), chosen)

    def action_leave(self) -> None:
        """Back to the menu (a try begun counts as failed)."""
        self.workers.cancel_group(self, REFUTING)
        self.trainer.leave()
        self.dismiss(None)

    def action_help(self) -> None:
        """The rules and keys (the puzzles' among them)."""
        self.app.push_screen(HelpScreen())


def _side(player: Player) -> str:
    """A side as the panel names it: "Red", "Yellow"."""
    return player.name.capitalize()


def refutation_words(wrong: Move, refutation: Refutation, solver: Player) -> str:
    """Why the wrong move fails: "d2 lets Yellow draw: Yellow answers d3."."""
    defender = _side(solver.other)
    if refutation.winner is solver.other:
        outcome = f"lets {defender} win"
    elif refutation.winner is None:
        outcome = f"lets {defender} draw"
    else:
        outcome = "still wins, but not the way the puzzle asks"
    if refutation.reply is None:
        return f"{wrong} {outcome}: the board is full."
    return f"{wrong} {outcome}: {defender} answers {refutation.reply}."
