"""``c4tui console --puzzles``: the puzzle trainer (issue 41) in plain text, line by line.

The puzzle core judges each move (``puzzles.attempt``); a wrong move is explained by
the solver's best reply, proven in the search pool's process as the console's
computer opponent thinks there (the solver never loads in this process). Every try
is recorded and saved at once, so a trainer ended by Ctrl-C loses nothing finished.
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
from c4tui.engine.sequence import play_sequence
from c4tui.match.pool import SearchPool
from c4tui.puzzles.attempt import Attempt, Verdict, task_words
from c4tui.puzzles.collection import daily_puzzle, next_puzzle, puzzle_by_id
from c4tui.puzzles.keeping import load_progress, save_progress
from c4tui.puzzles.puzzle import Puzzle

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
        self._record = record
        self._progress, self._notice = load_progress(record)
        self._attempt = Attempt(first or next_puzzle(puzzles, self._progress))
        #: Whether the try under way has a move or a hint in it (then leaving it fails it).
        self._engaged = False
        self._recorded = False
        #: Puzzles opened in this session: ``next`` goes on to others.
        self._seen: set[str] = set()

    async def run(self) -> int:
        """Train until quit or the end of input; the exit status (0)."""
        try:
            if self._notice is not None:
                self.say(self._notice)
            self.say(standing_words(self._progress) + " Type help for the commands.")
            SearchPool.shared().warm_up()  # a wrong move's check then waits less
            self._open(self._attempt.puzzle)
            while True:
                prompt = AFTER_PROMPT if self._attempt.finished else MOVE_PROMPT
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
            self._open_by_id(rest or self._attempt.puzzle.id)
        elif word == "open":
            self.say("open needs a puzzle's id: history lists the ones you tried.")
        elif not word and self._attempt.finished:
            self._switch(self._next_puzzle())
        else:
            await self._move(text)

    # ----- a try -------------------------------------------------------------------

    def _open(self, puzzle: Puzzle) -> None:
        """Start a try at ``puzzle``: its board and what to find."""
        self._attempt = Attempt(puzzle)
        self._engaged = self._recorded = False
        self._seen.add(puzzle.id)
        self.say()
        self._show(self._attempt.state)
        rating = self._progress.puzzle_rating(puzzle).rating
        self.say(puzzle_heading(puzzle, rating, task_words(puzzle)))
        if self._progress.tried(puzzle.id):
            self.say("You tried this one before: this try is not rated.")

    async def _move(self, text: str) -> None:
        """Judge a typed move; a line that is no legal drop is refused with the reason."""
        if self._attempt.finished:
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
            verdict, defence = self._attempt.play(move.column)
        except ValueError as error:
            self.say(f"Invalid move: {error}.")
            return
        self._engaged = True
        if verdict is Verdict.WRONG:
            await self._refute(move)
        elif verdict is Verdict.SOLVED:
            self._show(self._attempt.state)
            self._finish()
        elif defence is not None:
            defender = side_name(self._attempt.solver_side.other)
            self.say(f"Right! {defender} answers {format_move(defence)}.")
            self._show(self._attempt.state)
            self.say(f"{side_name(self._attempt.solver_side)} to move: go on.")

    async def _refute(self, wrong: Move) -> None:
        """Why ``wrong`` fails, proven in the search pool: its reply played, and the rating."""
        self.say("Checking…")
        after = self._attempt.state
        try:
            refuted = await SearchPool.shared().refute(after, self)
        except (BrokenProcessPool, RuntimeError, OSError) as error:
            self.say(
                f"{format_move(wrong)} is not the move (the solver could not say why: {error})."
            )
        else:
            self.say(refutation_words(wrong, refuted, self._attempt.solver_side))
            if refuted.reply is not None:
                after = after.play(refuted.reply)
        self._show(after)
        self._finish()
        self.say("Type solution to see the way, retry to try again, or Enter for the next one.")

    def _show(self, state: GameState) -> None:
        """The board; once the game is over, how it ended too (the four marked)."""
        self.say(board_text(state, final=True) if state.is_over else render_board(state))

    def _hint(self) -> None:
        """The column to play; the try goes on but no longer counts as solved."""
        expected = self._attempt.hint()
        if expected is None:
            self.say(OVER)
            return
        self._engaged = True
        self.say(
            f"Hint: column {expected.column + 1} ({format_move(expected)}). "
            "This try no longer counts as solved."
        )

    def _solution(self) -> None:
        """The whole solution and the board it ends on; a try under way is failed by it."""
        attempt = self._attempt
        self.say(solution_words(attempt.puzzle, attempt.solver_side))
        end = play_sequence(attempt.puzzle.moves)
        for notation in attempt.puzzle.solution:
            end = end.play(parse_move(notation))
        self._show(end)
        if not self._recorded:
            attempt.failed = True
            self._finish()

    def _finish(self) -> None:
        """Record the try that just ended, save the record, and say how the rating moved."""
        attempt = self._attempt
        rated = not self._progress.tried(attempt.puzzle.id)
        change = self._progress.record(attempt.puzzle, attempt.solved, date.today().isoformat())
        self._recorded = True
        if attempt.solved:
            head = "Solved!"
        elif attempt.hinted and not attempt.failed:
            head = "Solved, with a hint: counted as failed."
        else:
            head = "Failed."
        self.say(f"{head} {rating_words(self._progress, change, rated)}.")
        try:
            save_progress(self._progress, self._record)
        except OSError as error:
            self.say(f"Your puzzle record could not be saved: {error}")

    def _leave(self) -> None:
        """Leaving a try with a move or a hint in it before its end counts as failed."""
        if self._engaged and not self._recorded:
            self._attempt.failed = True
            self.say("Left before its end: counted as failed.")
            self._finish()

    # ----- other puzzles -----------------------------------------------------------

    def _switch(self, puzzle: Puzzle) -> None:
        """Leave the try under way (said how it counts) and open ``puzzle``."""
        self._leave()
        self._open(puzzle)

    def _next_puzzle(self) -> Puzzle:
        """The next by the player's rating, among those not opened in this session."""
        unseen = [puzzle for puzzle in self._puzzles if puzzle.id not in self._seen]
        return next_puzzle(unseen or self._puzzles, self._progress)

    def _open_by_id(self, puzzle_id: str) -> None:
        puzzle = puzzle_by_id(self._puzzles, puzzle_id)
        if puzzle is None:
            self.say(f"No puzzle {printable(puzzle_id)} in the set: history lists your tries.")
            return
        self._switch(puzzle)

    def _daily(self) -> None:
        today = date.today()
        puzzle = daily_puzzle(self._puzzles, today)
        self._switch(puzzle)
        if self._progress.solved_on(puzzle.id, today.isoformat()):
            self.say("The daily puzzle: you solved it today already.")
        else:
            self.say(f"The daily puzzle of {today.isoformat()}, the same for everyone.")

    def _history(self) -> None:
        for line in history_lines(self._progress.history):
            self.say(line)


def run_puzzles(
    puzzles: Sequence[Puzzle], first: Puzzle | None = None, stdin: TextIO | None = None
) -> int:
    """Entry point of ``c4tui console --puzzles``: never a traceback, Ctrl-C included."""
    stdin = stdin or sys.stdin
    tolerate_bad_bytes(stdin)
    trainer = PuzzleTrainer(puzzles, first, stdin, sys.stdout)
    return quietly(lambda: asyncio.run(trainer.run()))
