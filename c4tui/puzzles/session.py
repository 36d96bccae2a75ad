"""A puzzle session, for every front end: the puzzle shown, the try at it, the record after each.

No Textual and no solver here: the app's puzzle screen and the console's trainer show
what this says, and ask the search pool why a wrong move fails. A try is recorded
(``PuzzleProgress.record``) and saved at once when it ends: solved, a wrong move, or
the solution shown before the end. A try left unfinished after a move or a hint (for
the next puzzle, a retry, the menu) counts as failed, so a hard one cannot be skipped
unrated once it was begun; one left untouched is not recorded at all.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date

from c4tui.engine import GameState, Move, parse_move
from c4tui.puzzles.attempt import Attempt, Verdict
from c4tui.puzzles.collection import daily_puzzle, next_puzzle, puzzle_by_id
from c4tui.puzzles.progress import PuzzleProgress, Try
from c4tui.puzzles.puzzle import Puzzle

#: How many puzzles the history list offers.
HISTORY_SHOWN = 100

Save = Callable[[PuzzleProgress], None]


@dataclass(frozen=True)
class Recorded:
    """What a finished try did to the record: solved or not, rated or not, the change."""

    solved: bool
    rated: bool
    change: float


class PuzzleSession:
    """One player's puzzles: the set, their record, the try under way.

    Args:
        puzzles: the set to draw from (the shipped one).
        progress: the player's record (``puzzles.keeping.load_progress``).
        today: the day tries are recorded under (the daily puzzle's day).
        save: writes the record whole (raises OSError when it cannot).
    """

    def __init__(
        self, puzzles: Sequence[Puzzle], progress: PuzzleProgress, today: date, save: Save
    ) -> None:
        self.puzzles = puzzles
        self.progress = progress
        self.today = today
        self._save = save
        self._numbers = {puzzle.id: number for number, puzzle in enumerate(puzzles, start=1)}
        self.attempt = Attempt(next_puzzle(puzzles, progress))
        #: The try's record once it ended (None while it goes on).
        self.recorded: Recorded | None = None
        #: The try is a retry of a puzzle tried before (it is not rated).
        self.retry = progress.tried(self.attempt.puzzle.id)
        #: Why the record could not be saved after the last try (None: it was).
        self.save_problem: str | None = None
        #: The last try was left unfinished, and counted as failed.
        self.left_unfinished = False
        #: The solution was shown: the try takes no more moves.
        self.solution_seen = False

    # ----- which puzzle --------------------------------------------------------------

    @property
    def puzzle(self) -> Puzzle:
        """The puzzle shown."""
        return self.attempt.puzzle

    def number(self, puzzle_id: str) -> int:
        """The place in the set of the puzzle called ``puzzle_id``, from 1 (0: not in it)."""
        return self._numbers.get(puzzle_id, 0)

    @property
    def daily(self) -> Puzzle:
        """Today's puzzle: the same for everyone with this set."""
        return daily_puzzle(self.puzzles, self.today)

    @property
    def daily_solved(self) -> bool:
        """True when today's puzzle was solved today."""
        return self.progress.solved_on(self.daily.id, self.today.isoformat())

    def start(self, puzzle: Puzzle) -> None:
        """A new try at ``puzzle`` (the one under way, if begun, counts as failed)."""
        self.left_unfinished = self._leave()
        self.attempt = Attempt(puzzle)
        self.recorded = None
        self.solution_seen = False
        self.retry = self.progress.tried(puzzle.id)

    def start_next(self) -> None:
        """The untried puzzle nearest the player's rating (a begun try is recorded first)."""
        left = self._leave()
        others = [puzzle for puzzle in self.puzzles if puzzle.id != self.puzzle.id]
        self.start(next_puzzle(others or self.puzzles, self.progress))
        self.left_unfinished = left

    def start_by_id(self, puzzle_id: str) -> bool:
        """A try at the puzzle called ``puzzle_id``; False when the set has none."""
        puzzle = puzzle_by_id(self.puzzles, puzzle_id)
        if puzzle is not None:
            self.start(puzzle)
        return puzzle is not None

    # ----- the try -------------------------------------------------------------------

    @property
    def over(self) -> bool:
        """True once the try ended: solved, a wrong move, or the solution shown."""
        return self.attempt.finished or self.solution_seen

    @property
    def _begun_unrecorded(self) -> bool:
        attempt = self.attempt
        return self.recorded is None and (attempt.step > 0 or attempt.hinted or attempt.failed)

    def play(self, column: int) -> tuple[Verdict, Move | None]:
        """Judge a drop in ``column`` (raises ValueError: the try is over, or the drop illegal).

        A wrong move or the last right one ends the try, recorded and saved.
        """
        if self.solution_seen:
            raise ValueError("the solution was shown: this try is over")
        verdict, defence = self.attempt.play(column)
        if self.attempt.finished:
            self._finish(self.attempt.solved)
        return verdict, defence

    def hint(self) -> Move | None:
        """The move to find (the try then is not counted as solved); None when over."""
        return self.attempt.hint()

    def solution(self) -> tuple[GameState, tuple[Move, ...]]:
        """The solution's moves and the board they lead to from the puzzle's position.

        Seen before the try's end, the try counts as failed.
        """
        if self.recorded is None:
            self._finish(solved=False)
        self.solution_seen = True
        moves = tuple(parse_move(text) for text in self.puzzle.solution)
        state = Attempt(self.puzzle).state
        for move in moves:
            state = state.play(move)
        return state, moves

    def leave(self) -> None:
        """The player goes (to the menu): a begun try counts as failed."""
        self.left_unfinished = self._leave()

    def _leave(self) -> bool:
        """Record a begun try as failed; True when there was one."""
        if not self._begun_unrecorded:
            return False
        self._finish(solved=False)
        return True

    def _finish(self, solved: bool) -> None:
        """Record the try and save the record at once (a failure to save is kept to say)."""
        rated = not self.progress.tried(self.puzzle.id)
        change = self.progress.record(self.puzzle, solved, self.today.isoformat())
        self.recorded = Recorded(solved, rated, change)
        try:
            self._save(self.progress)
        except OSError as error:
            self.save_problem = f"Your puzzle record could not be saved: {error}"
        else:
            self.save_problem = None

    # ----- the history ---------------------------------------------------------------

    def history(self) -> list[Try]:
        """Each puzzle's latest try, the failed ones first, newest first within each."""
        latest: dict[str, Try] = {}
        for entry in reversed(self.progress.history):
            latest.setdefault(entry.puzzle_id, entry)
        tries = list(latest.values())[:HISTORY_SHOWN]
        return [t for t in tries if not t.solved] + [t for t in tries if t.solved]
