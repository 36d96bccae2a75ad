"""``c4tui console --puzzles``: the puzzle trainer (issue 41) in plain text, line by line.

The session is the app's (``puzzles.session``: each move judged, a begun try left
counted as failed, each try recorded and saved as it ends, so Ctrl-C loses nothing
finished); this says it in lines. A wrong move is explained by the solver's best
reply, proven in the search pool's process as the console's computer opponent thinks
there (the solver never loads in this process).
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Sequence
from concurrent.futures.process import BrokenProcessPool
from datetime import date
from pathlib import Path
from typing import TextIO

from c4tui.console.game import (
    GOODBYE,
    QUIT_WORDS,
    Quit,
    board_text,
    move_hint,
    quietly,
    tolerate_bad_bytes,
)
from c4tui.console.lines import EndOfInput, PlainText, printable
from c4tui.console.puzzle_words import (
    history_lines,
    puzzle_heading,
    rating_words,
    refutation_words,
    side_name,
    solution_words,
    standing_words,
)
from c4tui.engine import (
    GameState,
    Move,
    MoveKind,
    MoveSyntaxError,
    Rules,
    format_move,
    parse_move,
    render_board,
)
from c4tui.match.pool import SearchPool
from c4tui.puzzles.attempt import Verdict, task_words
from c4tui.puzzles.collection import next_puzzle, puzzle_by_id
from c4tui.puzzles.keeping import load_progress, save_progress
from c4tui.puzzles.puzzle import Puzzle
from c4tui.puzzles.session import PuzzleSession

MOVE_PROMPT = "Move: "
AFTER_PROMPT = "Next puzzle (Enter) or a command: "
OVER = "This puzzle is over: Enter or next for another, retry to try it again, solution to see it."


def help_text() -> str:
    """What can be typed at the trainer's prompts."""
    return (
        f"Moves: {move_hint(Rules.CLASSIC)}. Also: hint (the column to play; the try then "
        "does not count as solved), solution (shows it; counts as failed), next (another "
        "puzzle), retry (this one again, not rated), retry ID or open ID (a puzzle by its "
        "id, as history lists them), daily (today's puzzle), history (your last tries), "
        "help, quit. Ctrl-D also ends the program."
    )


class PuzzleTrainer(PlainText):
    """Puzzles one after another, read from ``stdin``, said on ``stdout``.

    Args:
        puzzles: the set to take puzzles from (the shipped one).
        first: the puzzle to start with (None: the next by the player's rating).
        record: the player's record file (None: ``puzzles.json`` in the data folder).
    """

    def __init__(
        self,
        puzzles: Sequence[Puzzle],
        first: Puzzle | None,
        stdin: TextIO,
        stdout: TextIO,
        record: Path | None = None,
    ) -> None:
        super().__init__(stdin, stdout, echo=not stdin.isatty())
        self._puzzles = puzzles
        progress, self._notice = load_progress(record)
        self._session = PuzzleSession(
            puzzles, progress, date.today(), lambda kept: save_progress(kept, record)
        )
        self._first = first or self._session.puzzle
        #: Puzzles opened in this session: ``next`` goes on to others.
        self._seen: set[str] = set()

    async def run(self) -> int:
        """Train until quit or the end of input; the exit status (0)."""
        try:
            if self._notice is not None:
                self.say(self._notice)
            self.say(standing_words(self._session.progress) + " Type help for the commands.")
            SearchPool.shared().warm_up()  # a wrong move's check then waits less
            self._open(self._first)
            while True:
                prompt = AFTER_PROMPT if self._session.over else MOVE_PROMPT
                await self._obey(await self.ask(prompt))
        except EndOfInput:
            self._leave()
            self.say(GOODBYE)
        except Quit:
            self._leave()
            self.say("Goodbye.")
        return 0

    async def _obey(self, text: str) -> None:
        """Do what a typed line asks: a command, else a move."""
        word, _, rest = text.strip().partition(" ")
        word, rest = word.lower(), rest.strip()
        if word in QUIT_WORDS:
            raise Quit
        commands = {
            "help": lambda: self.say(help_text()),
            "hint": self._hint,
            "solution": self._solution,
            "next": lambda: self._switch(self._next_puzzle()),
            "daily": self._daily,
            "history": self._history,
        }
        if word in commands and not rest:
            commands[word]()
        elif word in ("open", "retry") and (rest or word == "retry"):
            self._open_by_id(rest or self._session.puzzle.id)
        elif word == "open":
            self.say("open needs a puzzle's id: history lists the ones you tried.")
        elif not word and self._session.over:
            self._switch(self._next_puzzle())
        else:
            await self._move(text)

    # ----- a try -------------------------------------------------------------------

    def _open(self, puzzle: Puzzle) -> None:
        """Start a try at ``puzzle``: its board and what to find."""
        self._session.start(puzzle)
        self._seen.add(puzzle.id)
        self.say()
        self._show(self._session.attempt.state)
        rating = self._session.progress.puzzle_rating(puzzle).rating
        self.say(puzzle_heading(puzzle, rating, task_words(puzzle)))
        if self._session.retry:
            self.say("You tried this one before: this try is not rated.")

    async def _move(self, text: str) -> None:
        """Judge a typed move; a line that is no legal drop is refused with the reason."""
        if self._session.over:
            self.say(OVER)
            return
        try:
            move = parse_move(text)
        except MoveSyntaxError as error:
            self.say(f"Invalid move: {error}; {move_hint(Rules.CLASSIC)}, or type help.")
            return
        if move.kind is not MoveKind.DROP:
            self.say("Invalid move: puzzles are classic Connect Four: drop a disc, no pops.")
            return
        try:
            verdict, defence = self._session.play(move.column)
        except ValueError as error:
            self.say(f"Invalid move: {error}.")
            return
        attempt = self._session.attempt
        if verdict is Verdict.WRONG:
            await self._refute(move)
        elif verdict is Verdict.SOLVED:
            self._show(attempt.state)
            self._say_recorded()
        elif defence is not None:
            defender = side_name(attempt.solver_side.other)
            self.say(f"Right! {defender} answers {format_move(defence)}.")
            self._show(attempt.state)
            self.say(f"{side_name(attempt.solver_side)} to move: go on.")

    async def _refute(self, wrong: Move) -> None:
        """Why ``wrong`` fails, proven in the search pool: its reply played, and the rating."""
        self.say("Checking…")
        attempt = self._session.attempt
        after = attempt.state
        try:
            refuted = await SearchPool.shared().refute(after, self)
        except (BrokenProcessPool, RuntimeError, OSError) as error:
            self.say(
                f"{format_move(wrong)} is not the move (the solver could not say why: {error})."
            )
        else:
            self.say(refutation_words(wrong, refuted, attempt.solver_side))
            if refuted.reply is not None:
                after = after.play(refuted.reply)
        self._show(after)
        self._say_recorded()
        self.say("Type solution to see the way, retry to try again, or Enter for the next one.")

    def _show(self, state: GameState) -> None:
        """The board; once the game is over, how it ended too (the four marked)."""
        self.say(board_text(state, final=True) if state.is_over else render_board(state))

    def _hint(self) -> None:
        """The column to play; the try goes on but no longer counts as solved."""
        expected = None if self._session.over else self._session.hint()
        if expected is None:
            self.say(OVER)
            return
        self.say(
            f"Hint: column {expected.column + 1} ({format_move(expected)}). "
            "This try no longer counts as solved."
        )

    def _solution(self) -> None:
        """The whole solution and the board it ends on; a try under way is failed by it."""
        unrecorded = self._session.recorded is None
        end, _ = self._session.solution()
        self.say(solution_words(self._session.puzzle, self._session.attempt.solver_side))
        self._show(end)
        if unrecorded:
            self._say_recorded()

    def _say_recorded(self) -> None:
        """How the try that just ended counted and moved the rating; a failed save too."""
        attempt, recorded = self._session.attempt, self._session.recorded
        assert recorded is not None  # said only once a try was recorded
        if recorded.solved:
            head = "Solved!"
        elif attempt.finished and attempt.hinted and not attempt.failed:
            head = "Solved, with a hint: counted as failed."
        else:
            head = "Failed."
        self.say(f"{head} {rating_words(self._session.progress, recorded.change, recorded.rated)}.")
        if self._session.save_problem is not None:
            self.say(self._session.save_problem)

    def _leave(self) -> None:
        """Leaving a try with a move or a hint in it before its end counts as failed."""
        self._session.leave()
        if self._session.left_unfinished:
            self.say("Left before its end: counted as failed.")
            self._say_recorded()

    # ----- other puzzles -----------------------------------------------------------

    def _switch(self, puzzle: Puzzle) -> None:
        """Leave the try under way (said how it counts) and open ``puzzle``."""
        self._leave()
        self._open(puzzle)

    def _next_puzzle(self) -> Puzzle:
        """The next by the player's rating, among those not opened in this session."""
        unseen = [puzzle for puzzle in self._puzzles if puzzle.id not in self._seen]
        return next_puzzle(unseen or self._puzzles, self._session.progress)

    def _open_by_id(self, puzzle_id: str) -> None:
        puzzle = puzzle_by_id(self._puzzles, puzzle_id)
        if puzzle is None:
            self.say(f"No puzzle {printable(puzzle_id)} in the set: history lists your tries.")
            return
        self._switch(puzzle)

    def _daily(self) -> None:
        self._switch(self._session.daily)
        if self._session.daily_solved:
            self.say("The daily puzzle: you solved it today already.")
        else:
            day = self._session.today.isoformat()
            self.say(f"The daily puzzle of {day}, the same for everyone.")

    def _history(self) -> None:
        for line in history_lines(self._session.progress.history):
            self.say(line)


def run_puzzles(
    puzzles: Sequence[Puzzle], first: Puzzle | None = None, stdin: TextIO | None = None
) -> int:
    """Entry point of ``c4tui console --puzzles``: never a traceback, Ctrl-C included."""
    stdin = stdin or sys.stdin
    tolerate_bad_bytes(stdin)
    trainer = PuzzleTrainer(puzzles, first, stdin, sys.stdout)
    return quietly(lambda: asyncio.run(trainer.run()))
