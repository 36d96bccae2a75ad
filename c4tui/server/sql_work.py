"""The lobby store's SQL as work both engines run: a generator of statements, sent their rows.

Each act of the store (``sql_games``, ``sql_standing``) is written once, as a
generator that yields its statements (``?`` placeholders) and is sent each one's
rows, so the same SQL and the same reading of its rows serve SQLite, driven in
its database thread (``drive``), and PostgreSQL, driven on its one asynchronous
connection (``drive_async``). Neither driver knows what the work does; the work
knows nothing of threads, connections or the event loop.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Generator
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

T = TypeVar("T")
#: One statement and its parameters, with ``?`` placeholders.
Statement = tuple[str, tuple[object, ...]]
#: What a statement returned (nothing, for one that returns no rows).
Rows = list[tuple[Any, ...]]
#: An act of the store: it yields statements, is sent their rows, and returns its result.
Work = Generator[Statement, Rows, T]


@dataclass(frozen=True)
class Done(Generic[T]):
    """The work has finished, with its result."""

    value: T


def advance(work: Work[T], rows: Rows | None) -> Statement | Done[T]:
    """The work's next statement, sent the rows of the last one (None: it has not begun)."""
    try:
        return next(work) if rows is None else work.send(rows)
    except StopIteration as finished:
        return Done(finished.value)


def drive(work: Work[T], execute: Callable[[Statement], Rows]) -> T:
    """Run ``work`` with a blocking ``execute``; its result."""
    step = advance(work, None)
    while not isinstance(step, Done):
        step = advance(work, execute(step))
    return step.value


async def drive_async(work: Work[T], execute: Callable[[Statement], Awaitable[Rows]]) -> T:
    """Run ``work`` with an asynchronous ``execute``; its result."""
    step = advance(work, None)
    while not isinstance(step, Done):
        step = advance(work, await execute(step))
    return step.value
