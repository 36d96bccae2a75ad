"""AI work in other processes: the event loop's interpreter never searches.

A search in a thread fights the event loop for Python's interpreter lock: with
twenty Hard games a server's handshakes took seconds, and the app's keys lagged.
Here every search runs in a worker process (at a lower priority than the loop),
so the loop only sends a position and receives a move.

The pool also decides how the workers are shared:
- **Fair**: waiting jobs are served round-robin by owner (one client, one game),
  so nobody's burst of requests delays everybody else.
- **Deadlines**: a job's time budget counts from when it was asked for, and under
  load each job's slice shrinks to its share of the workers, so every reply comes
  about on time (the moves get weaker, never later).
- **Cancellable**: a job whose asker stops waiting (a client hung up, the person
  moved first) leaves the queue, or, already running, sees a shared flag and stops.
- **Bounded**: past ``queue_limit`` waiting jobs, moves are chosen at once by the
  quick tactical player in this process instead of queueing without end.
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import multiprocessing
import os
import signal
import sys
import threading
import time
from collections import OrderedDict, deque
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from multiprocessing import resource_tracker
from multiprocessing.sharedctypes import SynchronizedArray
from typing import TYPE_CHECKING, Any, TypeVar

from c4tui.ai.levels import MovePicker, TacticalPlayer
from c4tui.engine import GameState, Move
from c4tui.match.pool_worker import (
    analysis_job,
    best_line_job,
    choice_job,
    hint_job,
    init_worker,
    outcomes_job,
    puzzles_job,
    refutation_job,
    review_job,
    warm_up_job,
)

if TYPE_CHECKING:
    from c4tui.ai.analysis import Analysis
    from c4tui.ai.best_line import BestLine
    from c4tui.ai.review_verdicts import GameReview
    from c4tui.ai.search import SearchResult
    from c4tui.puzzles.attempt import Refutation
    from c4tui.puzzles.puzzle import Puzzle

T = TypeVar("T")

#: Jobs that can be running or cancelled at once (one cancel flag each).
SLOTS = 1024
#: The shortest slice a job gets, however long the queue: enough for a shallow search.
MIN_SLICE = 0.02
#: How long a shutdown waits for the workers to finish before it stops them.
SHUTDOWN_GRACE_SECONDS = 2.0


@contextlib.contextmanager
def _ctrl_c_blocked() -> Iterator[None]:
    """Start child processes with Ctrl-C blocked, so one pressed while they start is not theirs.

    Ctrl-C in a terminal reaches every process of the group; a worker still importing
    would die of it with a screenful of traceback. The blocked mask is inherited, and
    the worker ignores the signal before it unblocks it.
    """
    if not hasattr(signal, "pthread_sigmask"):
        yield
        return
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


@contextlib.contextmanager
def _stderr_with_a_file() -> Iterator[None]:
    """Give multiprocessing a standard error it can hand to its helper process.

    Under a running Textual app ``sys.stderr`` captures prints and has no file
    (its fileno is -1), and the helper cannot start with that; it gets the null
    device instead, so its rare warnings never land on the app's screen.
    """
    try:
        has_file = sys.stderr is not None and sys.stderr.fileno() >= 0
    except (AttributeError, OSError, ValueError):
        has_file = False
    if has_file:
        yield
        return
    with open(os.devnull, "w") as nowhere, contextlib.redirect_stderr(nowhere):
        yield


# ----- in the parent -----------------------------------------------------------------


@dataclass(eq=False)
class _Job:
    """One request: what to run, for whom, and by when."""

    owner: object
    run: Callable[[ProcessPoolExecutor, int, float | None], Future[Any]]
    budget: float | None
    asked_at: float
    future: asyncio.Future[Any]
    slot: int | None = None
    done: bool = field(default=False)


class SearchPool:
    """Worker processes that choose AI moves and analyse positions.

    Args:
        workers: processes (default: one per core).
        queue_limit: waiting jobs beyond which moves are chosen at once instead.
    """

    _shared: SearchPool | None = None

    def __init__(self, workers: int | None = None, queue_limit: int = 256) -> None:
        self.workers = max(1, workers or os.cpu_count() or 1)
        self.queue_limit = queue_limit
        self._context = multiprocessing.get_context("spawn")
        # Start multiprocessing's helper now, not in the middle of the first job.
        with _ctrl_c_blocked(), _stderr_with_a_file():
            resource_tracker.ensure_running()
        self._flags: SynchronizedArray[int] = self._context.Array("b", SLOTS, lock=False)
        self._free_slots = list(range(SLOTS))
        self._executor: ProcessPoolExecutor | None = None
        self._waiting: OrderedDict[object, deque[_Job]] = OrderedDict()
        self._running: set[_Job] = set()
        # Finished jobs may be reported from the executor's thread (when their loop is
        # gone), so the queue's bookkeeping is guarded.
        self._lock = threading.RLock()
        #: Counters for tests, logs and benchmarks.
        self.completed = 0
        self.cancelled = 0
        self.overflowed = 0

    @classmethod
    def shared(cls) -> SearchPool:
        """The process's pool for the app and the console (made on first use, closed at exit)."""
        if cls._shared is None:
            cls._shared = cls(workers=1)
            atexit.register(cls._shared.shutdown)
        return cls._shared

    # ----- asking --------------------------------------------------------------------

    async def choose_move(
        self, picker: MovePicker, state: GameState, *, owner: object = None, budget: float | None
    ) -> tuple[Move, MovePicker]:
        """``picker``'s move in ``state`` (within ``budget`` seconds from now when given).

        Returns the move and the picker to use next time (its state moved on in
        the worker). Cheap pickers run here at once.
        """
        if picker.cheap:
            return picker.choose_move(state), picker
        if self.pending >= self.queue_limit:
            self.overflowed += 1
            return TacticalPlayer().choose_move(state), picker

        def run(executor: ProcessPoolExecutor, slot: int, limit: float | None) -> Future[Any]:
            return executor.submit(choice_job, picker, state, slot, limit)

        result: tuple[Move, MovePicker] = await self._ask(owner, run, budget)
        return result

    async def analyse(
        self, state: GameState, seconds: float, *, owner: object = None
    ) -> SearchResult:
        """Search ``state`` for ``seconds``: the best move and what is known of the outcome."""
        result: SearchResult = await self._study(hint_job, state, seconds, owner)
        return result

    async def analyse_columns(
        self, state: GameState, seconds: float, *, owner: object = None
    ) -> Analysis:
        """Every column's outcome in ``state`` (exact on 7 x 6 classic, else searched)."""
        result: Analysis = await self._study(analysis_job, state, seconds, owner)
        return result

    async def best_line(
        self, state: GameState, seconds: float, *, owner: object = None
    ) -> BestLine | None:
        """Best play from ``state`` to the end on 7 x 6 classic (None elsewhere)."""
        result: BestLine | None = await self._study(best_line_job, state, seconds, owner)
        return result

    async def proven_outcomes(
        self, moves: Sequence[Move], first: int, *, owner: object = None
    ) -> tuple[int, ...]:
        """A 7 x 6 classic game's positions from move ``first`` on, each solved: 1, 0 or -1.

        One job for the whole game, so its positions share a worker's solver table;
        it takes what it takes (a proof has no budget), and stops when cancelled.
        """
        return await self._unbudgeted(owner, outcomes_job, tuple(moves), first)

    async def review_game(
        self, start: GameState, moves: tuple[Move, ...], owner: object
    ) -> GameReview:
        """Every move of the game from ``start`` judged: one job, as ``proven_outcomes``."""
        return await self._unbudgeted(owner, review_job, start, tuple(moves))

    async def refute(self, after_wrong: GameState, owner: object) -> Refutation:
        """A puzzle's wrong move answered: the solver's best reply and who then wins.

        Proven, so unbudgeted (a 7 x 6 position takes the solver well under a second).
        """
        return await self._unbudgeted(owner, refutation_job, after_wrong)

    async def puzzles_in_game(self, digits: str, *, owner: object = None) -> list[Puzzle]:
        """The puzzles in a finished 7 x 6 classic game (its column digits): one job, unbudgeted."""
        return await self._unbudgeted(owner, puzzles_job, digits)

    async def _unbudgeted(self, owner: object, function: Callable[..., T], *args: object) -> T:
        """Run ``function(*args, slot)`` in a worker for ``owner``, with no time limit."""

        def run(executor: ProcessPoolExecutor, slot: int, limit: float | None) -> Future[Any]:
            return executor.submit(function, *args, slot)

        result: T = await self._ask(owner, run, None)
        return result

    async def _study(
        self, function: Callable[..., T], state: GameState, seconds: float, owner: object
    ) -> T:
        """Run ``function(state, seconds, slot, limit)`` in a worker for ``owner``."""

        def run(executor: ProcessPoolExecutor, slot: int, limit: float | None) -> Future[Any]:
            return executor.submit(function, state, seconds, slot, limit)

        result: T = await self._ask(owner, run, seconds)
        return result

    def warm_up(self, start: GameState | None = None) -> None:
        """Start the worker processes now, so the first move does not wait for them.

        With ``start``, one of them loads the solver for that board too (``warm_up_job``).
        """
        with _ctrl_c_blocked():
            self._ensure_executor().submit(warm_up_job, start)

    @property
    def pending(self) -> int:
        """Jobs waiting or running."""
        return len(self._running) + sum(len(jobs) for jobs in self._waiting.values())

    def shutdown(self, grace: float = SHUTDOWN_GRACE_SECONDS) -> None:
        """Stop every job and the workers (running searches see their flag and stop).

        It waits up to ``grace`` seconds for the executor's thread to end, and stops
        the workers that are still busy then: CPython 3.11 wakes every executor's
        thread at exit without a lock, racing that thread's own closing of its pipe
        (an ``OSError`` traceback after a tournament's Ctrl-C). A thread already
        ended leaves nothing to race.
        """
        for job in list(self._running):
            if job.slot is not None:
                self._flags[job.slot] = 1
        executor, self._executor = self._executor, None
        if executor is None:
            return
        # Taken before shutdown(), which drops them; the executor has no public handle.
        manager: threading.Thread | None = getattr(executor, "_executor_manager_thread", None)
        workers = dict(getattr(executor, "_processes", None) or {})
        executor.shutdown(wait=False, cancel_futures=True)
        if manager is None:
            return
        manager.join(grace)
        if manager.is_alive():  # a job that does not look at its flag
            for worker in workers.values():
                worker.terminate()
            manager.join(grace)

    # ----- the queue -----------------------------------------------------------------

    async def _ask(
        self,
        owner: object,
        run: Callable[[ProcessPoolExecutor, int, float | None], Future[Any]],
        budget: float | None,
    ) -> Any:
        loop = asyncio.get_running_loop()
        job = _Job(owner, run, budget, time.monotonic(), loop.create_future())
        with self._lock:
            self._waiting.setdefault(owner, deque()).append(job)
            self._dispatch()
        try:
            return await job.future
        except asyncio.CancelledError:
            self._cancel(job)
            raise

    def _dispatch(self) -> None:
        """Start waiting jobs, round-robin by owner, while a worker is free (lock held)."""
        while len(self._running) < self.workers and self._waiting:
            owner, jobs = next(iter(self._waiting.items()))
            job = jobs.popleft()
            del self._waiting[owner]
            if jobs:
                self._waiting[owner] = jobs  # to the back of the line
            if job.future.done():
                continue
            self._start(job)

    def _start(self, job: _Job) -> None:
        slot = self._free_slots.pop()
        self._flags[slot] = 0
        job.slot = slot
        self._running.add(job)
        loop = job.future.get_loop()
        try:
            with _ctrl_c_blocked():  # submitting may start the worker processes
                work = job.run(self._ensure_executor(), slot, self._slice(job))
        except (BrokenProcessPool, RuntimeError) as error:  # broken, or shut down
            self._executor = None
            self._finish(job, None, error)
            return
        work.add_done_callback(lambda done: _call_soon(loop, self._finish, job, done))

    def _slice(self, job: _Job) -> float | None:
        """The seconds this job may take: what is left of its budget, and its fair share."""
        if job.budget is None:
            return None
        left = job.budget - (time.monotonic() - job.asked_at)
        share = job.budget * self.workers / max(self.workers, self.pending)
        return max(MIN_SLICE, min(left, share))

    def _finish(
        self, job: _Job, work: Future[Any] | None, error: BaseException | None = None
    ) -> None:
        with self._lock:
            if job.done:
                return
            job.done = True
            self._running.discard(job)
            if job.slot is not None:
                self._free_slots.append(job.slot)
            if work is not None:
                error = work.exception() if not work.cancelled() else asyncio.CancelledError()
            if isinstance(error, BrokenProcessPool):
                self._executor = None  # a worker died: start afresh next time
            self._settle(job, work, error)
            self.completed += 1
            self._dispatch()

    @staticmethod
    def _settle(job: _Job, work: Future[Any] | None, error: BaseException | None) -> None:
        """Give the asker its answer (unless it stopped asking, or its loop is gone)."""
        if job.future.done():
            return
        with contextlib.suppress(RuntimeError):
            if error is not None:
                job.future.set_exception(error)
            elif work is not None:
                job.future.set_result(work.result())

    def _cancel(self, job: _Job) -> None:
        """The asker stopped waiting: drop the job, or tell its worker to stop."""
        with self._lock:
            self.cancelled += 1
            queue = self._waiting.get(job.owner)
            if queue is not None and job in queue:
                queue.remove(job)
                if not queue:
                    del self._waiting[job.owner]
            elif job.slot is not None and not job.done:
                self._flags[job.slot] = 1

    def _ensure_executor(self) -> ProcessPoolExecutor:
        if self._executor is None:
            self._executor = ProcessPoolExecutor(
                self.workers,
                mp_context=self._context,
                initializer=init_worker,
                initargs=(self._flags, os.getpid()),
            )
        return self._executor


def _call_soon(loop: asyncio.AbstractEventLoop, callback: Callable[..., None], *args: Any) -> None:
    """Run ``callback`` on ``loop`` from the executor's thread; here, if the loop is gone.

    A job whose loop closed (an app or a test that ended mid-search) must still free
    its worker, or the pool would wait for it forever.
    """
    try:
        loop.call_soon_threadsafe(callback, *args)
    except RuntimeError:
        callback(*args)
