"""Puzzles from the lobby's finished games (§8, issue 41): found in the search pool, kept.

The lobby's keeper is wrapped: once the rooms' journal is on disk, each rated 7 × 6
classic game it saw end goes, as its column digits, to a queue of at most
``HARVEST_QUEUE`` games. One task takes them one at a time to the search pool
(``SearchPool.puzzles_in_game``: the solver loads in its worker processes only, never
beside the event loop) and keeps what it finds in the store, where PUZZLE:NEXT finds
it beside the shipped set. A game that arrives while the queue is full is not searched
(the log says so), so no player can keep the server busy by playing many games: at most
one game's search runs at a time, sharing the pool fairly with the AI's moves.

A game is followed from its beginning in the journal; one restored after a restart
(its beginning in an earlier run) is not searched when it ends.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Sequence

from c4tui.engine import Move, MoveKind, Rules
from c4tui.lobby.journal import GameBegan, GameEvent, GameFinished, MoveMade, MoveTakenBack
from c4tui.lobby.kinds import ConnectFourSettings
from c4tui.match.pool import SearchPool
from c4tui.server.store import LobbyStore, NewRatings
from c4tui.server.unkept import Keeper

log = logging.getLogger("c4tui.server")

#: Finished games waiting to be searched, at most; one more may be under way.
HARVEST_QUEUE = 8
#: The board and rules the solver proves puzzles on.
PUZZLE_BOARD: ConnectFourSettings = (7, 6, Rules.CLASSIC)
Event = GameEvent[ConnectFourSettings, Move]


class FinishedGames:
    """Follows the rated 7 × 6 classic games through the journal; their digits once they end."""

    def __init__(self) -> None:
        self._games: dict[str, list[str]] = {}  # room -> its game's column digits so far

    def read(self, journal: Sequence[Event]) -> list[str]:
        """The column digits of each followed game that ``journal`` ends, in order."""
        ended = []
        for event in journal:
            if isinstance(event, GameBegan):
                if event.terms.rated and event.settings == PUZZLE_BOARD:
                    self._games[event.room] = []
            elif isinstance(event, GameFinished):
                if (digits := self._games.pop(event.room, None)) is not None:
                    ended.append("".join(digits))
            elif (digits := self._games.get(event.room)) is not None:
                self._follow(digits, event)
        return ended

    @staticmethod
    def _follow(digits: list[str], event: MoveMade[Move] | MoveTakenBack) -> None:
        """One move more, or the last taken back (ply counts from 1)."""
        del digits[event.ply - 1 :]
        if isinstance(event, MoveMade) and event.move.kind is MoveKind.DROP:
            digits.append(str(event.move.column + 1))


class PuzzleHarvest:
    """A keeper that keeps the journal, then has each rated 7 × 6 game's puzzles found and kept.

    Args:
        keeper: what keeps the journal (the store, metered).
        store: where found puzzles are kept.
        pool: the search pool whose workers find them.
        queue_limit: games that may wait for their search.
    """

    def __init__(
        self,
        keeper: Keeper[ConnectFourSettings, Move],
        store: LobbyStore,
        pool: SearchPool,
        queue_limit: int = HARVEST_QUEUE,
    ) -> None:
        self._keeper = keeper
        self._store = store
        self._pool = pool
        self._games = FinishedGames()
        self._queue: asyncio.Queue[str] = asyncio.Queue(queue_limit)
        self._task: asyncio.Task[None] | None = None
        self._stopped = False  # the server stops: nothing more is searched
        self.searched = 0  # games searched, for the log and tests
        self.passed_over = 0  # games not searched: the queue was full

    async def keep(self, journal: Sequence[Event]) -> Sequence[NewRatings]:
        """Keep ``journal`` (``Keeper.keep``), then queue the rated 7 × 6 games it ended."""
        rated = await self._keeper.keep(journal)
        for digits in self._games.read(journal):
            self.offer(digits)
        return rated

    def offer(self, digits: str) -> bool:
        """Queue a finished game's digits for its search; False: the queue is full, or stopped."""
        if self._stopped:
            return False
        try:
            self._queue.put_nowait(digits)
        except asyncio.QueueFull:
            self.passed_over += 1
            log.info("a finished game was not searched for puzzles: %d wait", self._queue.qsize())
            return False
        if self._task is None:
            self._task = asyncio.create_task(self._harvest())
        return True

    async def searched_all(self) -> None:
        """Wait until every queued game has been searched and its puzzles kept."""
        await self._queue.join()

    async def stop(self) -> None:
        """Stop searching (the games still queued, or ending from now on, are not searched)."""
        self._stopped = True
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    async def _harvest(self) -> None:
        """Search the queued games one at a time, keeping what each holds."""
        while True:
            digits = await self._queue.get()
            try:
                await self._search(digits)
            finally:
                self._queue.task_done()

    async def _search(self, digits: str) -> None:
        """Find one game's puzzles in the pool and keep the new ones; a failure is only logged."""
        try:
            found = await self._pool.puzzles_in_game(digits, owner=self)
            added = await self._store.keep_found_puzzles(found)
        except Exception as error:  # a broken pool or store: the games go on
            log.warning("a finished game could not be searched for puzzles: %s", error)
            return
        self.searched += 1
        log.info("a finished game held %d puzzles, %d new", len(found), added)
