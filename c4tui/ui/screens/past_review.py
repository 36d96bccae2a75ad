"""A finished game from the lobby, reviewed with the solver's verdict on each position.

The usual review (``review.py``) of a kept game (``GAME:<id>``), pushed over the list
of games. Where the solver proves every position (7 × 6 classic, small boards and
the boards with a book) it analyses each one in the background (the AI's process
pool, one position after another, so the screen never waits and leaving stops it):
each position's columns are labelled as in a game's analysis row, and once all are
known the loser's first move into a lost position is marked in the move list and said
in words (``ai.turning_point``). Elsewhere the review has no verdicts, and says so.
"""

from __future__ import annotations

from concurrent.futures.process import BrokenProcessPool
from dataclasses import replace
from typing import TYPE_CHECKING

from textual import work
from textual.binding import Binding

from c4tui.ai.turning_point import TurningPoint, turning_point
from c4tui.client import kept as words_of
from c4tui.engine import Player
from c4tui.match.pool import SearchPool
from c4tui.match.settings import describe_game
from c4tui.protocols.past import KeptGame
from c4tui.ui.advice import ANALYSIS_SECONDS, best_line_shown_on, proven_boards_said
from c4tui.ui.keeping import GameKeeper
from c4tui.ui.screens.review import GameSoFar, ReviewScreen
from c4tui.ui.widgets.status import Mode

# Only for typing: the analysis (and the solver with it) loads with the pool's first answer.
if TYPE_CHECKING:
    from c4tui.ai.analysis import Analysis

#: The worker group of the analyses (one review at a time analyses its game).
VERDICTS_GROUP = "verdicts"


class PastGameReview(ReviewScreen):
    """Steps through a kept game, with the solver's verdicts where it proves every position.

    Args:
        kept: the game, as the server keeps it.
        viewer: whose game it is in the list (its result is said for this player).
        ascii_only: draw with ASCII characters only.
        saves_last_until_quit: saved games go when the app quits (a browser visitor).
        pool: where the solver runs (the process's shared pool by default).
    """

    BINDINGS = [
        Binding("t", "turning_point", "Lost here", id="past.turning_point"),
    ]

    def __init__(
        self,
        kept: KeptGame,
        viewer: str,
        *,
        ascii_only: bool = False,
        saves_last_until_quit: bool = False,
        pool: SearchPool | None = None,
    ) -> None:
        record = words_of.record_of(kept, viewer)
        positions = record.positions()
        final = positions[-1]
        # Remote: a kept game is only saved when asked, never kept for the next start.
        keeper = GameKeeper(
            remote=True, saves_last_until_quit=saves_last_until_quit, keeping_failed=_never
        )
        super().__init__(
            GameSoFar(
                positions=positions,
                moves=record.moves,
                who={Player.RED: kept.red, Player.YELLOW: kept.yellow},
                halted="" if final.is_over else words_of.result_line(kept),
                mode=Mode.of(record.rules, False, game_over=True),
                score="",
                unfinished=False,
                remote=True,
            ),
            f"Game {kept.number}: {describe_game(*kept.game)}\n{kept.red} vs {kept.yellow}",
            at=0,
            cursor=final.columns // 2,
            opened=record,
            record=lambda: record,
            keeper=keeper,
            ascii_only=ascii_only,
        )
        self.kept = kept
        self._pool = pool
        #: The proven analysis of each position a move was played in, in order, as they come.
        self.analyses: list[Analysis] = []
        #: Why there are no verdicts ("": there are, or they are coming).
        self._without_verdicts = (
            ""
            if best_line_shown_on(final)
            else f"No solver verdicts: on {proven_boards_said()} only."
        )
        #: Set once every position is analysed (None: no move lost the game, or not yet).
        self.turning: TurningPoint | None = None
        self.analysed = False

    def on_mount(self) -> None:
        """Start the analyses (the review's own ``on_mount`` shows the first position)."""
        if not self._without_verdicts:
            self._analyse_every_position()

    @work(group=VERDICTS_GROUP, exclusive=True, exit_on_error=False)
    async def _analyse_every_position(self) -> None:
        """Ask the solver about each position in turn; each answer shows as it comes."""
        pool = self._pool or SearchPool.shared()
        moves = self.kept.moves
        try:
            for state in self._positions[: len(moves)]:
                analysis = await pool.analyse_columns(state, ANALYSIS_SECONDS, owner=self)
                if not analysis.exact:
                    self._without_verdicts = "The solver could not prove these positions."
                    break
                self.analyses.append(analysis)
                self._refresh_view()
        except (BrokenProcessPool, RuntimeError, OSError) as error:
            self._without_verdicts = f"The solver stopped: {error}"
        if len(self.analyses) == len(moves):
            self.turning = self._loser_turning_point()
            self.analysed = True
        self._refresh_view()

    def _loser_turning_point(self) -> TurningPoint | None:
        """The loser's losing move, from the analyses (None for a draw)."""
        winner = words_of.winner_of(self.kept)
        if winner is None:
            return None
        moves = self.kept.moves
        return turning_point(self._positions, moves, self.analyses, winner.other)

    def _refresh_view(self) -> None:
        """Show the position again, with what is known now (once the widgets are there)."""
        if self._widgets_ready:
            self._show()
            self.refresh_bindings()

    def _show(self) -> None:
        """The review's view, the column labels under the board, the losing move marked."""
        super()._show()
        at, analyses = self.at, self.analyses
        labels: tuple[str, ...] | None = None
        if at < len(analyses):
            labels = tuple("" if v is None else v.label for v in analyses[at].columns)
        elif at < len(self.kept.moves) and not self._without_verdicts:
            pending = "..." if self._ascii_only else "…"
            labels = tuple(pending for _ in range(self.board.state.columns))
        self.board.show_analysis(labels)
        turning = self.turning
        if turning is not None and self.panel.moves is not None:
            self.panel.moves = replace(self.panel.moves, marked=turning.number - 1)

    def _notes(self, at: int) -> str:
        """The solver's verdict on the game: coming, the losing move, or why there is none."""
        if self._without_verdicts:
            return f"\n{self._without_verdicts}"
        total = len(self.kept.moves)
        if not self.analysed:
            return f"\nSolver: {len(self.analyses)} of {total} positions…"
        turning = self.turning
        if turning is None:
            return "\n" + self._nobody_lost()
        name = words_of.name_of(self.kept, turning.mover)
        here = "Next: " if at == turning.number - 1 else ""
        return f"\n{here}{turning.words(name)}."

    def _nobody_lost(self) -> str:
        """Why no move is marked: a draw, a game not over, or the loser never threw one away."""
        winner = words_of.winner_of(self.kept)
        if not self.kept.reason:  # GAME:<id> of a game under way (c4tui replay --server)
            return "Solver: the game is not over; no move has lost it yet."
        if winner is None:
            return "Solver: a draw; no move lost the game."
        loser = words_of.name_of(self.kept, winner.other)
        return f"Solver: no move of {loser}'s threw away a draw or a win."

    def _keys(self) -> str:
        """What the keys do here (the review of a kept game does not play on)."""
        turning = "t: the losing move · " if self.turning is not None else ""
        return f"\n← →: step · Home/End · {turning}esc: back"

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """No playing on (a kept game is only looked at); t once a move is found."""
        if action == "play_on":
            return False
        if action == "turning_point":
            return self.turning is not None
        return super().check_action(action, parameters)

    def action_turning_point(self) -> None:
        """To the position the losing move was played in: its labels show what held."""
        if self.turning is not None:
            self.at = self.turning.number - 1
            self._show()


def _never(_error: OSError) -> None:
    """A remote game is never kept for the next start, so keeping it never fails."""
