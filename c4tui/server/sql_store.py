"""The ``LobbyStore`` once for every SQL engine: what each act runs, and bcrypt off the loop.

``SqlStore`` answers the lobby from the work in ``sql_games`` and
``sql_standing``; an engine's store (``sqlite_store``, ``postgres_store``) adds
only how it opens, closes and runs work: each statement committed as it runs
(``_run``), or all of a work's statements in one transaction (``_run_in_transaction``:
a journal, a game's end with its ratings).
"""

from __future__ import annotations

import asyncio
import secrets
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

from c4tui.engine import Move
from c4tui.lobby.journal import EndReason, GameEvent
from c4tui.lobby.kinds import ConnectFourSettings
from c4tui.protocols import keys
from c4tui.protocols.competition import ProfileInfo
from c4tui.protocols.public import ReportInfo, ReportReason, Role, reserved_name
from c4tui.protocols.puzzles import PuzzleVerdict
from c4tui.puzzles.progress import PuzzleProgress
from c4tui.puzzles.puzzle import Puzzle
from c4tui.server import sql_erasure, sql_games, sql_keys, sql_public, sql_puzzles, sql_standing
from c4tui.server.moderation_store import ModerationEvent, ModeratorAction, Sanctions
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

        Taken in any case (§5.6): ``Zoe`` cannot be registered beside ``zoe``, nor a
        deleted account's name, nor a reserved one (§7: ``deleted-<n>``, ``ACKSTATUS``).
        """
        if reserved_name(user) or await self._run(sql_games.name_taken(user)):
            return False
        hashed = await self._in_hashing(hash_password, password, self.rounds)
        return await self._run(sql_games.insert_account(user, hashed, bot))

    async def check(self, user: str, password: str) -> LoginResult:
        """Whether ``password`` is ``user``'s; BANNED (only) once it is, while a ban holds.

        A live visit's token (§9) is the password of the account its key logs in: looked
        up first, at the cost of one SHA-256, and only for a password that looks like one.
        """
        if password.startswith(keys.VISIT_TOKEN_PREFIX):
            work = sql_keys.visit_login(user, keys.token_hash(password), time.time())
            banned_by_key = await self._run(work)
            if banned_by_key is not None:
                return LoginResult.BANNED if banned_by_key else LoginResult.OK
        record = await self._run(sql_public.login_record(user, time.time()))
        if record is None:
            return LoginResult.NO_SUCH_USER
        hashed, banned = record
        if not await self._in_hashing(password_matches, password, hashed):
            return LoginResult.WRONG_PASSWORD
        return LoginResult.BANNED if banned else LoginResult.OK

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
        return await self._run(sql_standing.leaderboard(time.time()))

    async def provisional_leaders(self) -> list[tuple[str, float]]:
        """The best provisional ratings, highest first (``PROVISIONAL_LEADERS_QUERY``)."""
        query = sql_standing.PROVISIONAL_LEADERS_QUERY
        return await self._run(sql_standing.leaderboard(time.time(), query))

    async def ratings(self, users: Sequence[str]) -> dict[str, tuple[float, bool]]:
        """Each account's rating and whether it is a bot (names with no account left out)."""
        return await self._run(sql_games.ratings(list(users)))

    # ----- puzzles (§8) ---------------------------------------------------------------

    async def puzzle_progress(self, user: str, only: str | None = None) -> PuzzleProgress | None:
        """``user``'s puzzle record and the puzzles' ratings (or ``only``'s); None: no such user."""
        return await self._run(sql_puzzles.progress(user, only))

    async def puzzle_tried(
        self, user: str, puzzle: Puzzle, solved: bool, day: str
    ) -> PuzzleVerdict | None:
        """Rate and keep ``user``'s try of ``puzzle`` in one transaction; None: no such user."""
        return await self._run_in_transaction(sql_puzzles.tried(user, puzzle, solved, day))

    async def keep_found_puzzles(self, puzzles: Sequence[Puzzle]) -> int:
        """Keep puzzles found in a finished lobby game, in one transaction: how many new."""
        return await self._run_in_transaction(sql_puzzles.keep_found(puzzles))

    async def found_puzzles(self) -> list[Puzzle]:
        """Every puzzle found in lobby games."""
        return await self._run(sql_puzzles.found())

    async def found_puzzle(self, puzzle_id: str) -> Puzzle | None:
        """The puzzle found in lobby games with ``puzzle_id``; None: none."""
        return next(iter(await self._run(sql_puzzles.found(puzzle_id))), None)

    # ----- the lobby in public (§7): blocks, reports -----------------------------------

    async def block(self, blocker: str, blocked: str) -> int:
        """BLOCK's status: 0 blocked (or already), 1 no such user or oneself, 2 MAX_BLOCKS."""
        return await self._run_in_transaction(sql_public.block(blocker, blocked, time.time()))

    async def unblock(self, blocker: str, blocked: str) -> bool:
        """Whether ``blocker`` blocked ``blocked`` (and now no longer does)."""
        return await self._run_in_transaction(sql_public.unblock(blocker, blocked, time.time()))

    async def blocks_of(self, user: str) -> list[str]:
        """Whom ``user`` blocks, by name."""
        return await self._run(sql_public.blocks_of(user))

    async def all_blocks(self) -> list[tuple[str, str]]:
        """Every block, (blocker, blocked)."""
        return await self._run(sql_public.all_blocks())

    async def report(
        self, reporter: str, reported: str, reason: ReportReason, text: str, now: float
    ) -> int:
        """REPORT's status: 0 kept, 1 no such user (or oneself), 3 too many this hour."""
        work = sql_public.report(reporter, reported, reason, text, now)
        return await self._run_in_transaction(work)

    async def open_reports(self, limit: int) -> list[ReportInfo]:
        """The open reports, oldest first, at most ``limit``."""
        return await self._run(sql_public.open_reports(limit))

    async def unreadable_reports(self, limit: int) -> list[int]:
        """The numbers of the open reports among the first ``limit`` that cannot be read."""
        return await self._run(sql_public.unreadable_reports(limit))

    async def close_report(self, number: int, by: str) -> bool:
        """Close the open report ``number``, kept as ``by``'s action."""
        return await self._run_in_transaction(sql_public.close_report(number, by, time.time()))

    # ----- roles, sanctions, the moderators' log, erasure, the change feed --------

    async def role(self, user: str) -> str | None:
        """``user``'s role; None: no such account."""
        return await self._run(sql_public.role(user))

    async def set_role(self, user: str, role: str, by: str) -> bool:
        """Give ``user`` the ``role`` (ValueError if it is no ``Role``'s value)."""
        given = Role(role).value
        return await self._run_in_transaction(sql_public.set_role(user, given, by, time.time()))

    async def ban(self, user: str, until: float | None, reason: str, by: str) -> bool:
        """Ban ``user`` until ``until`` (None: until unbanned); False: no such account."""
        work = sql_public.ban(user, until, reason, by, time.time())
        return await self._run_in_transaction(work)

    async def unban(self, user: str, by: str) -> bool:
        """Lift ``user``'s ban; False: no ban holds."""
        return await self._run_in_transaction(sql_public.unban(user, by, time.time()))

    async def mute(self, user: str, until: float, by: str) -> bool:
        """Mute ``user`` until ``until``; False: no such account."""
        return await self._run_in_transaction(sql_public.mute(user, until, by, time.time()))

    async def sanctions(self, user: str) -> Sanctions | None:
        """What holds against ``user`` now; None: no such account."""
        return await self._run(sql_public.sanctions(user, time.time()))

    async def moderator_actions(self, limit: int) -> list[ModeratorAction]:
        """The last ``limit`` moderators' actions, newest first."""
        return await self._run(sql_public.moderator_actions(limit))

    async def delete_account(self, user: str, by: str) -> bool:
        """Erase ``user``'s account in one transaction; False: no such account."""
        return await self._run_in_transaction(sql_erasure.delete_account(user, by, time.time()))

    async def export(self, user: str) -> dict[str, object] | None:
        """Everything kept about ``user``'s account, never the hash; None: no such account."""
        return await self._run_in_transaction(sql_erasure.export(user))

    async def events_after(self, number: int) -> list[ModerationEvent]:
        """The change feed after ``number``, in order."""
        return await self._run(sql_public.events_after(number))

    async def last_event(self) -> int:
        """The number of the feed's last change (0: none yet)."""
        return await self._run(sql_public.last_event())

    # ----- an ssh key as an account (§9) ----------------------------------------------

    async def begin_visit(self, token_hash: str, visit: keys.Visit, expires: float) -> None:
        """Keep a visit the ssh door opened (committed before this returns)."""
        await self._run(sql_keys.begin_visit(token_hash, visit, expires))

    async def end_visit(self, token_hash: str) -> None:
        """The visit is over: its token logs in nothing more."""
        await self._run(sql_keys.end_visit(token_hash))

    async def end_expired_visits(self, now: float) -> int:
        """End the visits expired at ``now``: how many."""
        return await self._run(sql_keys.end_expired_visits(now))

    async def live_visit(self, token_hash: str) -> keys.Visit | None:
        """The live visit of that token's hash; None: none."""
        return await self._run(sql_keys.visit(token_hash, time.time()))

    async def key_account(self, fingerprint: str) -> str | None:
        """The account the key logs in; None: none."""
        return await self._run(sql_keys.key_account(fingerprint))

    async def key_register(self, user: str, token_hash: str) -> int:
        """KEYREGISTER's status (0, 1, 4 or 5): an account bound to the visit's key.

        Its password is random and told to no one (bcrypt of 32 random bytes): until
        the player sets one, only its keys log it in. Cheap refusals come before bcrypt.
        """
        key = await self.live_visit(token_hash)
        if key is None:
            return keys.REGISTER_NO_VISIT
        if await self.key_account(key.fingerprint) is not None:
            return keys.REGISTER_KEY_BOUND
        if reserved_name(user) or await self._run(sql_games.name_taken(user)):
            return keys.REGISTER_TAKEN
        unknown = secrets.token_urlsafe(32)
        hashed = await self._in_hashing(hash_password, unknown, self.rounds)
        work = sql_keys.register_with_key(user, hashed, key, time.time())
        try:
            return await self._run_in_transaction(work)
        except sql_keys.KeyTaken:
            return keys.REGISTER_KEY_BOUND

    async def bind_key(self, user: str, token_hash: str) -> int:
        """KEYBIND's status: 0 bound (or already), 1 another's, 2 no such visit, 3 MAX_KEYS."""
        key = await self.live_visit(token_hash)
        if key is None:
            return keys.BIND_NO_VISIT
        return await self.add_key(user, key)

    async def add_key(self, user: str, key: keys.Visit) -> int:
        """KEYADD's status: 0 added (or already), 1 another account's, 3 MAX_KEYS already."""
        return await self._run_in_transaction(sql_keys.bind_key(user, key, time.time()))

    async def keys_of(self, user: str) -> list[str]:
        """The fingerprints of ``user``'s keys, oldest first."""
        return await self._run(sql_keys.keys_of(user))

    async def remove_key(self, user: str, fingerprint: str) -> bool:
        """Whether ``user`` had that key (now removed)."""
        return await self._run(sql_keys.remove_key(user, fingerprint))
