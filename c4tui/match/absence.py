"""A person's move awaited while the other seat is watched: a lost server is noticed at once.

While the person here thinks, the driver runs the other seat's ``watch_while_waiting``
(a server's AI: its socket's end; a room's player: the lobby link gone) beside the
wait for the submitted move, so that the end of the other side ends the wait.
"""

from __future__ import annotations

import asyncio
import contextlib

from c4tui.engine import Move
from c4tui.match.backends.base import Backend


async def submission_or_absence(submitted: asyncio.Future[Move], other: Backend) -> Move:
    """The move submitted, unless ``other`` goes away first (then its error is raised)."""
    if type(other).watch_while_waiting is Backend.watch_while_waiting:
        return await submitted  # it watches nothing (the AI): no task to start per turn
    watch = asyncio.ensure_future(other.watch_while_waiting())
    try:
        either: set[asyncio.Future[Move] | asyncio.Future[None]] = {submitted, watch}
        await asyncio.wait(either, return_when=asyncio.FIRST_COMPLETED)
        if watch.done():
            watch.result()  # raises why the other side is gone; None: nothing to watch
        return await submitted
    finally:
        await _stop(watch)


async def _stop(task: asyncio.Future[None]) -> None:
    """Cancel ``task`` and wait until it has stopped (it may be reading a connection)."""
    if task.done():
        return
    task.cancel()
    with contextlib.suppress(Exception):  # it was told to stop: how it ended does not matter
        try:
            await task
        except asyncio.CancelledError:
            current = asyncio.current_task()
            if current is not None and current.cancelling():
                raise  # we are being cancelled ourselves
