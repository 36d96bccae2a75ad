"""Opening books for boards other than 7 × 6: every position with ``depth`` discs, solved.

A board whose empty position takes the solver seconds (6 × 7 takes a minute) is
still proven at once from any position with a book: a search from an early
position stops at the book's depth, and a position past it is small enough to
search. ``c4tui solve --make-book`` writes one with this module; ``book.py``
reads it. Only the positions a search can ask for are kept: those whose mover
cannot win with its next disc (the search settles those before it looks), one of
each mirror pair.
"""

from __future__ import annotations

import lzma
import os
import signal
import threading
from collections.abc import Callable, Iterator, Sequence
from multiprocessing import get_context
from multiprocessing.pool import Pool

import numpy as np

from c4tui.ai.solver import Position, Solver, core
from c4tui.ai.solver.book import (
    BOOK_HEADER,
    BOOK_VERSION,
    book_file_header,
    max_book_depth,
)
from c4tui.ai.solver.jit import IntArray
from c4tui.engine.bitboard import geometry, has_four

#: Positions solved by one worker at a time: near one another in key order (its table
#: carries over from one to the next, and from chunk to chunk), few enough for the progress
#: line to move every few seconds on the hardest boards.
CHUNK = 64

Board = tuple[int, int]  # (current, mask), as the solver's core holds a position


def positions_at(columns: int, rows: int, depth: int) -> dict[int, Board]:
    """Every position with ``depth`` discs and no four yet, one of each mirror pair, by key.

    Breadth first, one level of distinct positions at a time: the move orders that
    reach a position are many more than the positions (6^8 against 37,062 on 6 × 6).
    The keys are in order, so that neighbours in a chunk share much of their search.
    """
    geo = Solver(columns, rows, use_book=False, table_size=1 << 8).geo
    shifts = geometry(columns, rows).shifts
    level: dict[int, Board] = {0: (0, 0)}
    for _ in range(depth):
        following: dict[int, Board] = {}
        for current, mask in level.values():
            for child in _children(current, mask, columns, rows, shifts):
                following.setdefault(canonical_key(*child, geo), child)
        level = following
    return {key: level[key] for key in sorted(level)}


def _children(
    current: int, mask: int, columns: int, rows: int, shifts: tuple[int, ...]
) -> Iterator[Board]:
    """The positions one drop on, as the next mover sees them, leaving out the wins."""
    for column in range(columns):
        move = (mask + (1 << (column * (rows + 1)))) & core.column_mask(column, rows)
        if move and not has_four(current | move, shifts):
            yield current ^ mask, mask | move


def canonical_key(current: int, mask: int, geo: IntArray) -> int:
    """The smaller of a position's two book keys (itself and its mirror image)."""
    red = core.red_discs(current, mask, mask.bit_count())
    return min(int(core.book_code(red, mask, geo, mirrored)) for mirrored in (False, True))


def book_value(score: int, moves: int, cells: int) -> int:
    """A solver score as the book's byte: the distance form ``core.book_score`` reads back.

    ``100 - d`` for a win of the side to move, ``d - 100`` for a loss, 0 for a draw,
    as in BitBully's book, so that one reader serves both. ``d`` is counted to the
    winner's last disc, which is one short of BitBully's own count when the second
    player wins: the reader gives the same score either way, on any board.
    """
    if score == 0:
        return 0
    winner_disc = (cells + 1) // 2 + 1 - abs(score)
    distance = 2 * winner_disc - 1 - moves
    return 100 - distance if score > 0 else distance - 100


def make_book(
    columns: int,
    rows: int,
    depth: int,
    jobs: int = 0,
    progress: Callable[[int, int], None] | None = None,
) -> bytes:
    """The compressed book of ``columns × rows`` at ``depth``, ready to be written.

    Solves in ``jobs`` processes (0: one a core); ``progress(done, total)`` is called
    once the positions are found (``done`` 0), then after each chunk. Raises ValueError
    when the board's keys would not fit 32 bits. On KeyboardInterrupt the worker
    processes are ended at once, mid-search.
    """
    if not 0 <= depth <= max_book_depth(columns):
        raise ValueError(f"a book of {depth} discs on {columns} columns needs keys over 32 bits")
    geo = Solver(columns, rows, use_book=False, table_size=1 << 8).geo
    found = positions_at(columns, rows, depth)
    keys = [key for key, board in found.items() if not _wins_now(board, geo)]
    if not keys:
        raise ValueError(f"no position of {depth} discs is left to keep: every mover wins at once")
    wanted = [found[key] for key in keys]
    chunks = [wanted[start : start + CHUNK] for start in range(0, len(wanted), CHUNK)]
    values: list[int] = []
    if progress is not None:
        progress(0, len(wanted))
    workers = min(jobs or len(os.sched_getaffinity(0)) or 1, len(chunks))
    pool = _worker_pool(workers, columns, rows)
    try:
        for solved in pool.imap(_solve_chunk, [(chunk, depth) for chunk in chunks]):
            values.extend(solved)
            if progress is not None:
                progress(len(values), len(wanted))
        pool.close()
    finally:
        pool.terminate()  # at once on Ctrl-C; after close, once the workers are done
        pool.join()
    return book_file(columns, rows, depth, keys, values)


def _wins_now(board: Board, geo: IntArray) -> bool:
    """Whether the mover of ``board`` makes four with its next disc (the search asks no book)."""
    return bool(core.can_win_next(board[0], board[1], geo))


def book_file(
    columns: int, rows: int, depth: int, keys: Sequence[int], values: Sequence[int]
) -> bytes:
    """The file's bytes: the header, then the records sorted by key, xz-compressed."""
    order = np.argsort(np.array(keys, dtype=np.int64), kind="stable")
    records = np.empty((len(keys), 5), dtype=np.uint8)
    records[:, :4] = np.array(keys, dtype=">i4")[order].view(np.uint8).reshape(-1, 4)
    records[:, 4] = np.array(values, dtype=np.int8)[order].view(np.uint8)
    header = book_file_header(columns, rows, depth)
    assert header.startswith(BOOK_HEADER) and header[len(BOOK_HEADER)] == BOOK_VERSION
    return lzma.compress(header + records.tobytes(), preset=9)


_worker_solver: Solver | None = None


def _worker_pool(workers: int, columns: int, rows: int) -> Pool:
    """Worker processes that ignore Ctrl-C from their first instruction: the parent answers it.

    Ctrl-C reaches the whole process group. An ignored signal stays ignored across
    the workers' exec, and Python then installs no handler of its own, so a worker
    still importing never prints a KeyboardInterrupt of its own. Spawned, not
    forked: a fork would copy the locks of the parent's threads (the solver's watcher).
    """
    spawn = get_context("spawn")
    if threading.current_thread() is not threading.main_thread():
        return spawn.Pool(workers, _start_worker, (columns, rows))  # signals are the main's
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        return spawn.Pool(workers, _start_worker, (columns, rows))
    finally:
        signal.signal(signal.SIGINT, previous)


def _start_worker(columns: int, rows: int) -> None:
    """One solver a worker process, its table kept from chunk to chunk."""
    global _worker_solver  # noqa: PLW0603
    _worker_solver = Solver(columns, rows, use_book=False)


def _solve_chunk(job: tuple[list[Board], int]) -> list[int]:
    """The book's bytes of a chunk of positions with ``depth`` discs."""
    chunk, depth = job
    solver = _worker_solver
    assert solver is not None
    cells = solver.cells
    return [
        book_value(solver.solve(Position(current, mask, depth)), depth, cells)
        for current, mask in chunk
    ]
