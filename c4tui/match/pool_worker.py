"""What runs in the search pool's worker processes (``match.pool``): their start, their jobs.

A job is a top-level function (it is pickled by name) that loads the search or the
solver only here, so they never load in the process that runs the event loop (the
app's, the server's); each gets its slot's cancel flag, read from shared memory.
"""

from __future__ import annotations

import contextlib
import os
import signal
import time
from dataclasses import dataclass
from multiprocessing.sharedctypes import SynchronizedArray
from typing import TYPE_CHECKING

from c4tui.ai.levels import MovePicker
from c4tui.engine import GameState, Move
from c4tui.match.parent_watch import end_with

if TYPE_CHECKING:
    from c4tui.ai.analysis import Analysis
    from c4tui.ai.best_line import BestLine
    from c4tui.ai.review_verdicts import GameReview
    from c4tui.ai.search import SearchResult
    from c4tui.puzzles.attempt import Refutation
    from c4tui.puzzles.puzzle import Puzzle

#: Worker processes run at this lower priority, so the event loop wins the cores.
WORKER_NICENESS = 5

_flags: SynchronizedArray[int] | None = None


def init_worker(flags: SynchronizedArray[int], parent: int) -> None:
    """Start a worker: share the cancel flags, ignore Ctrl-C (the parent handles it), be nice.

    It ends with ``parent`` (the pool's process), however that ends (``_watch_parent``).
    """
    global _flags  # noqa: PLW0603 (one per worker process, set once)
    _flags = flags
    end_with(parent)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(signal, "pthread_sigmask"):  # born with Ctrl-C blocked: see pool._ctrl_c_blocked
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    with contextlib.suppress(AttributeError, OSError):
        os.nice(WORKER_NICENESS)


#: How long a warm-up may search a board the solver has no book for (it only loads the code).
UNPROVEN_WARM_SECONDS = 0.05


@dataclass(frozen=True)
class SlotFlag:
    """The search's cancel event, read from shared memory (the parent sets it)."""

    slot: int

    def is_set(self) -> bool:
        return _flags is not None and bool(_flags[self.slot])


def choice_job(
    picker: MovePicker, state: GameState, slot: int, time_limit: float | None
) -> tuple[Move, MovePicker]:
    """Run in a worker: the picker's move, and the picker itself (its randomness moved on)."""
    move = picker.choose_move(state, SlotFlag(slot), time_limit)
    return move, picker


def hint_job(state: GameState, seconds: float, slot: int, time_limit: float | None) -> SearchResult:
    """Run in a worker: the move to hint at, proven where the solver can, else searched."""
    # Imported in the worker: the solver (NumPy, Numba) and the search never load in the
    # process that runs the event loop (the app's, the server's).
    from c4tui.ai.analysis import proven_hint  # noqa: PLC0415
    from c4tui.ai.search import search  # noqa: PLC0415

    hint = proven_hint(state, SlotFlag(slot))
    if hint is not None:
        return hint
    budget = seconds if time_limit is None else min(seconds, time_limit)
    return search(state, budget, 64, SlotFlag(slot))


def analysis_job(state: GameState, seconds: float, slot: int, time_limit: float | None) -> Analysis:
    """Run in a worker: every column's outcome (see ``ai.analysis``)."""
    from c4tui.ai.analysis import analyse_columns  # noqa: PLC0415 (in the worker, as above)

    budget = seconds if time_limit is None else min(seconds, time_limit)
    return analyse_columns(state, budget, SlotFlag(slot))


def best_line_job(
    state: GameState, seconds: float, slot: int, time_limit: float | None
) -> BestLine | None:
    """Run in a worker: best play from ``state`` to the end (see ``ai.best_line``)."""
    from c4tui.ai.best_line import follow_best_line  # noqa: PLC0415 (in the worker, as above)

    budget = seconds if time_limit is None else min(seconds, time_limit)
    return follow_best_line(state, SlotFlag(slot), budget)


def outcomes_job(moves: tuple[Move, ...], first: int, slot: int) -> tuple[int, ...]:
    """Run in a worker: each position's proven outcome from move ``first`` on (1, 0, -1)."""
    from c4tui.ai.proven_outcomes import proven_outcomes  # noqa: PLC0415 (in the worker, as above)

    return proven_outcomes(moves, first, SlotFlag(slot))


def review_job(start: GameState, moves: tuple[Move, ...], slot: int) -> GameReview:
    """Run in a worker: every move of the game judged (see ``ai.game_review``)."""
    from c4tui.ai.game_review import review_game  # noqa: PLC0415 (in the worker, as above)

    return review_game(start, moves, SlotFlag(slot))


def refutation_job(after_wrong: GameState, slot: int) -> Refutation:
    """Run in a worker: the solver's best reply to a puzzle's wrong move, and who then wins."""
    from c4tui.puzzles.making import refutation  # noqa: PLC0415 (in the worker, as above)

    return refutation(after_wrong)


def puzzles_job(digits: str, slot: int) -> list[Puzzle]:
    """Run in a worker: the puzzles in one finished 7 x 6 classic game (``puzzles.making``).

    Not cancellable once begun: a game has at most 42 positions, each solved once.
    """
    from c4tui.puzzles.making import puzzles_in_game  # noqa: PLC0415 (in the worker, as above)

    return puzzles_in_game(digits)


def warm_up_job(start: GameState | None = None) -> None:
    """Run in a worker to start it before the first real job (with ``start``, the solver too).

    With ``start``, the worker loads the solver for that board and analyses ``start``.
    The solver's first use in a process loads Numba's cached code, the opening book
    and a 64 MB table: Perfect's first move waited 0.6 s for that (and the worker's
    start), after the person had pressed Start. Analysed here, the first position is
    in the table too. A board without a book is given a moment only, not a proof.
    """
    if start is None:
        return
    # The solver, and what it needs, only in a worker that uses it.
    from c4tui.ai.perfect import exact_scores, has_exact_play  # noqa: PLC0415

    deadline = None if has_exact_play(start) else time.perf_counter() + UNPROVEN_WARM_SECONDS
    exact_scores(start, deadline=deadline)
