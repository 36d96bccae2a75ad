"""Hint and analysis for one game: searches run in the background, their answers come as messages.

The searches run in the driver's pool, started from workers in exclusive groups
of the screen that holds the ``Advice`` (the hint, the analysis row, and the best
line that follows a proven analysis: a new search replaces the last one); each
answer names the position it is about, and one about a position already left
behind is dropped.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from contextlib import suppress
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING

from textual.dom import DOMNode
from textual.message import Message
from textual.worker import WorkerCancelled, WorkerFailed

from c4tui.ai.exact_boards import PROVEN_CELLS_GOAL, proven_everywhere, unproven_boards
from c4tui.ai.search import SearchResult
from c4tui.engine import GameState, MoveKind, describe_move
from c4tui.match.driver import MatchDriver
from c4tui.ui.widgets.status import LineShown

# The one lazy import of the game's AI: the solver loads in the worker that first
# needs it, not when the game screen is imported (the menu's start stays quick).
if TYPE_CHECKING:
    from c4tui.ai.analysis import Analysis
    from c4tui.ai.best_line import BestLine

HINT_GROUP = "hint"
ANALYSIS_GROUP = "analysis"
BEST_LINE_GROUP = "best-line"
#: The analysis's budget where it cannot be proven (on 7 x 6 classic it is exact and quick).
ANALYSIS_SECONDS = 1.0
#: How long following the best line may take (0.02 to 0.3 s with a new solver table, a
#: few milliseconds with a warm one: bench/best_line.py); past it the line stops short.
BEST_LINE_SECONDS = 3.0
#: The panel says the best line is being worked out only once it has taken this long.
BEST_LINE_THINKING_AFTER = 0.3

#: What the hint adds when the search proved an outcome.
OUTLOOK_WORDS = {
    "won": " — you can force a win",
    "lost": " — but the opponent can force a win",
}

#: What the panel says when every column's label is the same, by the outcome's value
#: (not the ``Outcome`` itself: importing it would load the solver with the screen).
ALIKE_WORDS = {
    "win": "every move wins in {moves}",
    "loss": "every move loses in {moves}",
    "draw": "every move draws",
    "looks good": "all columns look good",
    "looks even": "all columns look even",
    "looks bad": "all columns look bad",
}

#: The outcomes a search proves when it finds them (values: importing ``Outcome`` loads the solver).
FORCED = frozenset({"win", "loss"})

Labels = tuple[str, ...] | None
ShowLine = Callable[[LineShown | None], None]


def analysis_words(analysis: Analysis) -> str:
    """The analysis in words: the best column, or that none is better than another."""
    best = analysis.best_column()
    verdict = analysis.columns[best]
    assert verdict is not None  # the best column is a playable one
    kind = "proven" if analysis.exact else "estimate: a short search"
    if not analysis.exact and verdict.outcome.value in FORCED:
        kind = "proven by a short search"  # W and L labels are proofs, whoever found them
    if analysis.all_alike():
        return f"Analysis ({kind}): " + ALIKE_WORDS[verdict.outcome.value].format(
            moves=verdict.moves
        )
    return f"Analysis ({kind}): column {best + 1} is best — {verdict.words}"


def agreeing_hint(result: SearchResult, analysis: Analysis) -> SearchResult:
    """The hint, made to name one of the analysis row's best columns when it shows.

    The hint's own search and the row's can rank columns differently (a short
    search, equals broken another way); a hint that contradicts the row on screen
    is worse than either. Pops stand: the row judges drops only.
    """
    if result.move.kind is not MoveKind.DROP or result.move.column in analysis.best_columns():
        return result
    return analysis.hint(result.depth)


class Advice:
    """The hint and the analysis row of one game, worked out off the UI's hands.

    Args:
        owner: the screen whose workers search and which receives the answers.
        driver: the game's driver (its pool searches).
        hint_seconds: how long a hint may think.
        show_labels: shows a row of labels under the board (None: no row).
        ascii_only: draw with ASCII characters only.
        show_line: shows the analysis's best line in the panel (None: no line).
    """

    @dataclass
    class HintFound(Message, namespace="advice"):
        """The hint search finished for ``state``."""

        state: GameState
        result: SearchResult

    @dataclass
    class AnalysisFound(Message, namespace="advice"):
        """Every column's outcome in ``state`` is known (or estimated)."""

        state: GameState
        analysis: Analysis

    @dataclass
    class BestLineFound(Message, namespace="advice"):
        """Best play from ``state`` to the end is known (None: not on this board)."""

        state: GameState
        line: BestLine | None

    def __init__(
        self,
        owner: DOMNode,
        driver: MatchDriver,
        hint_seconds: float,
        show_labels: Callable[[Labels], None],
        ascii_only: bool = False,
        *,
        show_line: ShowLine | None = None,
    ) -> None:
        self._owner = owner
        self._driver = driver
        self._hint_seconds = hint_seconds
        self._show_labels = show_labels
        self._ascii_only = ascii_only
        #: The analysis row is wanted.
        self.analysis_on = False
        self._analysed: GameState | None = None  # the position the analysis row is about
        self._analysed_ready = False  # and whether it was a person's to play then
        self._known: tuple[GameState, Analysis] | None = None  # the row's last verdicts
        self._show_line = show_line or (lambda _shown: None)
        self._summary: tuple[GameState, str] | None = None  # the analysis in words, and where
        self._line: tuple[GameState, BestLine] | None = None  # the panel's best line

    def _start(self, search: Callable[[], Awaitable[None]], group: str) -> None:
        """Run ``search`` in the owner's ``group``, instead of the one running there.

        Given as a function, not a coroutine: a search replaced before it began is
        never made, rather than left never awaited.
        """
        self._owner.run_worker(search, group=group, exclusive=True, exit_on_error=False)

    # ----- the hint ------------------------------------------------------------------

    def find_hint(self) -> None:
        """Search the current position; ``HintFound`` comes back to the owner."""
        self._start(partial(self._hint, self._driver.state), HINT_GROUP)

    async def _hint(self, state: GameState) -> None:
        result = await self._driver.hint(self._hint_seconds)
        analysis = await self._analysis_of(state)
        if analysis is not None:
            result = agreeing_hint(result, analysis)
        self._owner.post_message(self.HintFound(state, result))

    def cancel_hint(self) -> None:
        """Stop a hint search (the pool drops it or tells its worker to stop)."""
        self._owner.workers.cancel_group(self._owner, HINT_GROUP)

    def is_current(self, found: HintFound | AnalysisFound | BestLineFound) -> bool:
        """True when ``found`` is about the position on the board (not one played past)."""
        if isinstance(found, Advice.AnalysisFound | Advice.BestLineFound) and not self.analysis_on:
            return False
        return found.state is self._driver.state

    @staticmethod
    def hint_words(result: SearchResult) -> str:
        """The hint in words, with what is known about it."""
        outlook = OUTLOOK_WORDS.get(result.outlook or "", "")
        return f"Hint: {describe_move(result.move)}{outlook}"

    @staticmethod
    def hint_pops(result: SearchResult) -> bool:
        """True when the hinted move pops a disc."""
        return result.move.kind is MoveKind.POP

    # ----- the analysis row ----------------------------------------------------------

    def toggle_analysis(self) -> bool:
        """Turn the analysis row on or off; True when it is now on."""
        self.analysis_on = not self.analysis_on
        self._analysed = None
        if self.analysis_on:
            self.update_analysis()
        else:
            self._owner.workers.cancel_group(self._owner, ANALYSIS_GROUP)
            self._show_labels(None)
            self._forget_line()
        return self.analysis_on

    def update_analysis(self) -> None:
        """Analyse a new position on a person's turn (the computer's turn needs the worker).

        Also the same position once it becomes a person's turn: a game's first position is
        on the board before its game starts (a rematch's, a game played on from a review).
        """
        state = self._driver.state
        ready = not state.is_over and self._driver.awaiting_submission()
        if not self.analysis_on or (state is self._analysed and ready == self._analysed_ready):
            return
        self._analysed, self._analysed_ready = state, ready
        self._owner.workers.cancel_group(self._owner, ANALYSIS_GROUP)
        self._forget_line()
        if not ready:
            self._show_labels(None)
            return
        pending = "..." if self._ascii_only else "…"  # a "." alone would look like a cell
        self._show_labels(tuple(pending for _ in range(state.columns)))
        self._start(partial(self._analyse, state), ANALYSIS_GROUP)

    async def _analyse(self, state: GameState) -> None:
        analysis = await self._driver.analysis(ANALYSIS_SECONDS)
        self._known = (state, analysis)  # kept at once: a hint that finishes next follows it
        self._owner.post_message(self.AnalysisFound(state, analysis))

    async def _analysis_of(self, state: GameState) -> Analysis | None:
        """The analysis row's verdicts on ``state`` if it shows them (waiting for a running one)."""
        if not self.analysis_on or state is not self._analysed:
            return None
        for worker in self._owner.workers:
            if worker.group == ANALYSIS_GROUP and worker.is_running:
                with suppress(WorkerCancelled, WorkerFailed):  # then the hint is its own
                    await worker.wait()  # the row's search is short (ANALYSIS_SECONDS)
        known = self._known
        return known[1] if known is not None and known[0] is state else None

    def analysis_found(self, found: AnalysisFound) -> str:
        """Label the columns (and follow the best line); the best one in words (for the panel)."""
        analysis = found.analysis
        self._show_labels(tuple("" if v is None else v.label for v in analysis.columns))
        self._follow_line(found.state, analysis)
        words = analysis_words(analysis)
        self._summary = (found.state, words)
        return words

    @property
    def summary(self) -> str:
        """The analysis of the position on the board in words ("" until known, or when off).

        What the panel says again once a hint, the best line or the review has had its say.
        """
        summary = self._summary
        on_board = summary is not None and summary[0] is self._driver.state
        return summary[1] if on_board and self.analysis_on and summary else ""

    def with_summary(self, said: str) -> str:
        """``said``, then the analysis's summary below it (when there is one)."""
        return f"{said}\n{self.summary}" if self.summary else said

    # ----- the best line -------------------------------------------------------------

    def _follow_line(self, state: GameState, analysis: Analysis) -> None:
        """After a proven analysis of ``state`` (where the line is shown), follow best play."""
        if not (analysis.exact and best_line_shown_on(state)):
            return
        self._start(partial(self._best_line, state), BEST_LINE_GROUP)
        self._owner.set_timer(BEST_LINE_THINKING_AFTER, partial(self._still_thinking, state))

    async def _best_line(self, state: GameState) -> None:
        line = await self._driver.best_line(BEST_LINE_SECONDS)
        self._owner.post_message(self.BestLineFound(state, line))

    def _still_thinking(self, state: GameState) -> None:
        """The line is taking a while: say it is coming (unless it came, or is moot)."""
        if self.analysis_on and state is self._driver.state and self._line is None:
            self._show_line(LineShown())

    def _forget_line(self) -> None:
        """The position moved on (or the analysis went off): its line goes."""
        self._owner.workers.cancel_group(self._owner, BEST_LINE_GROUP)
        self._line = None
        self._show_line(None)

    def best_line_found(self, found: BestLineFound) -> None:
        """Show the line in the panel (and keep it for stepping through)."""
        line = found.line
        if line is None:
            self._show_line(None)
            return
        self._line = (found.state, line)
        columns = tuple(move.column + 1 for move in line.moves)
        self._show_line(LineShown(columns, line.result_words, line.complete))

    @property
    def best_line(self) -> BestLine | None:
        """The best line from the position on the board, once it is known."""
        line = self._line
        return line[1] if line is not None and line[0] is self._driver.state else None

    def why_no_best_line(self) -> str:
        """Why there is no best line to step through now."""
        driver = self._driver
        if not best_line_shown_on(driver.state):
            return f"The best line (proven by the solver) is shown on {proven_boards_said()} only."
        if driver.is_over or driver.state.is_over:
            return "The game is over: no best line to show."
        if not self.analysis_on:
            return "The best line comes with the analysis: press a first."
        if not driver.awaiting_submission():
            return "The best line comes on your turn."
        return "The best line is still being worked out."


def best_line_shown_on(state: GameState) -> bool:
    """Whether the panel shows a best line in games like ``state``'s.

    Where the solver proves every position at once (``ai.exact_boards``, which loads
    no NumPy): classic boards up to 25 cells, 7 × 6, and the boards c4tui has a book of.
    """
    return proven_everywhere(state.columns, state.rows, state.rules)


def proven_boards_said() -> str:
    """The boards the solver proves everywhere, in words: ``classic boards up to 42 cells``."""
    said = f"classic boards of up to {PROVEN_CELLS_GOAL} cells"
    left = [f"{columns} × {rows}" for columns, rows in unproven_boards()]
    if not left:
        return said
    listed = left[0] if len(left) == 1 else f"{', '.join(left[:-1])} and {left[-1]}"
    return f"{said} except {listed}"
