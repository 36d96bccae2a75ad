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
from c4tui.ai.solver.book import BOOK_HEADER, BOOK_VERSION, KEY_BITS, book_file_header

#: Positions solved by one worker at a time: near one another in key order, so that
#: its transposition table carries over from one to the next.
CHUNK = 256

Board = tuple[int, int]  # (current, mask), as the solver's core holds a position


def positions_at(columns: int, rows: int, depth: int) -> list[Board]:
    """Every position with ``depth`` discs and no four yet, one of each mirror pair.

    Breadth first, one level of distinct positions at a time: the move orders that
    reach a position are many more than the positions (6^8 against 37,062 on 6 × 6).
    """
    geo = Solver(columns, rows, use_book=False, table_size=1 << 8).geo
    level: dict[int, Board] = {0: (0, 0)}
    for _ in range(depth):
        following: dict[int, Board] = {}
        for current, mask in level.values():
            for child in _children(current, mask, columns, rows):
                following.setdefault(canonical_key(*child, geo), child)
        level = following
    return [level[key] for key in sorted(level)]


def _children(current: int, mask: int, columns: int, rows: int) -> Iterator[Board]:
    """The positions one drop on, as the next mover sees them, leaving out the wins."""
    for column in range(columns):
        move = (mask + (1 << (column * (rows + 1)))) & core.column_mask(column, rows)
        if move and not _has_four(current | move, rows):
            yield current ^ mask, mask | move


def _has_four(discs: int, rows: int) -> bool:
    """Whether ``discs`` hold four in a line in any direction."""
    for shift in (1, rows + 1, rows, rows + 2):
        pairs = discs & (discs >> shift)
        if pairs & (pairs >> (2 * shift)):
            return True
    return False


def canonical_key(current: int, mask: int, geo: np.ndarray) -> int:
    """The smaller of a position's two book keys (itself and its mirror image)."""
    moves = int(bin(mask).count("1"))
    red = current if moves % 2 == 0 else current ^ mask
    return min(
        int(core.book_code(red, mask, geo, False)), int(core.book_code(red, mask, geo, True))
    )


def book_value(score: int, moves: int, cells: int) -> int:
    """A solver score as the book's byte: the distance form ``core.book_score`` reads back.

    ``100 - d`` when the side to move wins in ``d`` more discs, ``d - 100`` when
    it loses, 0 for a draw (BitBully's convention, so one reader serves both books).
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
    if 2 * depth + columns + 1 > KEY_BITS:
        raise ValueError(f"a book of {depth} discs on {columns} columns needs keys over 32 bits")
    geo = Solver(columns, rows, use_book=False, table_size=1 << 8).geo
    wanted = [board for board in positions_at(columns, rows, depth) if not _wins_now(board, geo)]
    chunks = [wanted[start : start + CHUNK] for start in range(0, len(wanted), CHUNK)]
    values: list[int] = []
    if progress is not None:
        progress(0, len(wanted))
    workers = jobs or os.cpu_count() or 1
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
    keys = [canonical_key(*board, geo) for board in wanted]
    return book_file(columns, rows, depth, keys, values)


def _wins_now(board: Board, geo: np.ndarray) -> bool:
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
