"""The ``LobbyStore`` once for every SQL engine: what each act runs, and bcrypt off the loop.

``SqlStore`` answers the lobby from the work in ``sql_games`` and
``sql_standing``; an engine's store (``sqlite_store``, ``postgres_store``) adds
only how it opens, closes and runs work: each statement committed as it runs
(``_run``), or all of a work's statements in one transaction (``_run_in_transaction``:
a journal, a game's end with its ratings).
"""

from __future__ import annotations

import asyncio
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

from c4tui.engine import Move
from c4tui.lobby.journal import EndReason, GameEvent
from c4tui.lobby.kinds import ConnectFourSettings
from c4tui.protocols.competition import ProfileInfo
from c4tui.server import sql_games, sql_standing
from c4tui.server.sql_work import Work
from c4tui.server.store import (
    LoginResult,
    NewRatings,
    StoredGame,
    hash_password,
    password_matches,
)

T = TypeVar("T")
#: Threads hashing passwords at once.
HASHING_THREADS = 4


class SqlStore(ABC):
    """The lobby's store on an SQL engine; a subclass says how work runs there.

    Args:
        rounds: bcrypt's log2 cost (tests use the minimum, 4).
    """

    def __init__(self, rounds: int) -> None:
        self.rounds = rounds
        self._hashing = ThreadPoolExecutor(HASHING_THREADS, thread_name_prefix="c4tui-bcrypt")
        self._under_way: dict[str, int] = {}  # room -> its game's number

    @property
    @abstractmethod
    def location(self) -> str:
        """Where the data is, for the log."""

    @abstractmethod
    async def open(self) -> None:
        """Open the store, creating or upgrading its tables if need be."""

    @abstractmethod
    async def close(self) -> None:
        """Close the store."""

    @abstractmethod
    async def _run(self, work: Work[T]) -> T:
        """Run ``work``, each of its statements committed as it runs."""

    @abstractmethod
    async def _run_in_transaction(self, work: Work[T]) -> T:
        """Run ``work`` in one transaction: committed whole, or rolled back whole if it raises."""

    async def _learn_games_under_way(self) -> None:
        """Learn each room's game in progress (once the tables are there)."""
        self._under_way = await self._run(sql_games.games_under_way())

    def _stop_hashing(self) -> None:
        self._hashing.shutdown(wait=False)

    # ----- accounts ----------------------------------------------------------------

    async def register(self, user: str, password: str, bot: bool = False) -> bool:
        """Create an account, committed before this returns; False if the name is taken.

        Taken in any case (§5.6): ``Zoe`` cannot be registered beside ``zoe``.
        """
        if await self._run(sql_games.name_taken(user)):
            return False
        hashed = await self._in_hashing(hash_password, password, self.rounds)
        return await self._run(sql_games.insert_account(user, hashed, bot))

    async def check(self, user: str, password: str) -> LoginResult:
        """Whether ``password`` is ``user``'s."""
        hashed = await self._run(sql_games.stored_hash(user))
        if hashed is None:
            return LoginResult.NO_SUCH_USER
        matches = await self._in_hashing(password_matches, password, hashed)
        return LoginResult.OK if matches else LoginResult.WRONG_PASSWORD

    async def change_password(self, user: str, new: str) -> None:
        """Make ``new`` ``user``'s password, committed before this returns."""
        hashed = await self._in_hashing(hash_password, new, self.rounds)
        await self._run(sql_games.change_password(user, hashed))

    async def _in_hashing(self, work: Callable[..., T], *args: object) -> T:
        """Run ``work`` (bcrypt, slow on purpose) in a hashing thread, off the event loop."""
        return await asyncio.get_running_loop().run_in_executor(self._hashing, work, *args)

    # ----- games -------------------------------------------------------------------

    async def game_started(
        self, room: str, red: str, yellow: str, settings: ConnectFourSettings, rated: bool = False
    ) -> int:
        """Keep a game that has just begun in ``room``; its number."""
        return await self._run(sql_games.insert_game(room, (red, yellow), settings, rated, None))

    async def move_played(self, game: int, ply: int, move: Move) -> None:
        """Keep the move of ``ply`` in ``game``."""
        await self._run(sql_games.insert_move(game, ply, move))

    async def game_ended(
        self, game: int, winner: str | None, reason: EndReason
    ) -> NewRatings | None:
        """Keep how ``game`` ended, and its players' records and ratings, in one transaction."""
        return await self._run_in_transaction(sql_games.end_game(game, winner, reason))

    async def keep(
        self, journal: Sequence[GameEvent[ConnectFourSettings, Move]]
    ) -> list[NewRatings]:
        """Keep what happened to the rooms' games, in order, in one transaction.

        What the ratings became, for each rated game that ended (for RATING).
        """
        under_way = dict(self._under_way)  # as it was, if the transaction fails
        changed = await self._run_in_transaction(sql_games.keep(journal, under_way))
        self._under_way = under_way
        return changed

    async def unfinished_games(self) -> list[StoredGame]:
        """Every game that began and has not ended, oldest first, with its moves.

        The games under way are learnt again from them: the rooms are about to be
        restored, and another node may have begun these games since this store opened.
        """
        games = await self._run(sql_games.unfinished_games())
        self._under_way = {game.room: game.number for game in games}
        return games

    async def history(self, user: str) -> list[int] | None:
        """``user``'s finished games, newest first, at most HISTORY_LIMIT; None: no such user."""
        return await self._run(sql_games.history(user))

    async def game(self, number: int) -> StoredGame | None:
        """Game ``number`` with its moves; None if there is none."""
        return await self._run(sql_games.game(number))

    # ----- standing (§5.3) and who is online (§5.5, PLAYERS) -------------------------

    async def profile(self, user: str) -> ProfileInfo | None:
        """``user``'s rating and record; None: no such user."""
        return await self._run(sql_standing.profile(user))

    async def leaderboard(self) -> list[tuple[str, float]]:
        """The best established ratings, highest first, from the index ``accounts_by_rating``."""
        return await self._run(sql_standing.leaderboard())

    async def provisional_leaders(self) -> list[tuple[str, float]]:
        """The best provisional ratings, highest first (``PROVISIONAL_LEADERS_QUERY``)."""
        return await self._run(sql_standing.leaderboard(sql_standing.PROVISIONAL_LEADERS_QUERY))

    async def ratings(self, users: Sequence[str]) -> dict[str, tuple[float, bool]]:
        """Each account's rating and whether it is a bot (names with no account left out)."""
        return await self._run(sql_games.ratings(list(users)))
