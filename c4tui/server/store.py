"""What the lobby keeps on disk, behind one small interface: accounts, games and their moves.

The lobby talks to a ``LobbyStore`` only, so its two engines, SQLite
(``c4tui.server.sqlite_store``) and PostgreSQL (``c4tui.server.postgres_store``),
stand side by side without touching the rooms or the server. Every method that
writes has committed before it returns: the server announces an account, a move
or a game's end only once it is on disk.

Passwords are kept as bcrypt hashes only. bcrypt reads just 72 bytes, so it
hashes the base64 of the password's SHA-256: every character counts.
"""

from __future__ import annotations

import base64
import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import Protocol

import bcrypt

from c4tui.engine import Move, Rules
from c4tui.lobby.journal import EndReason, GameEvent
from c4tui.lobby.kinds import ConnectFourSettings
from c4tui.protocols.competition import ProfileInfo, RatingChange
from c4tui.protocols.keys import Visit
from c4tui.protocols.public import ReportInfo, ReportReason
from c4tui.protocols.puzzles import PuzzleVerdict
from c4tui.protocols.terms import Clock, Terms
from c4tui.puzzles.progress import PuzzleProgress
from c4tui.puzzles.puzzle import Puzzle
from c4tui.server.moderation_store import ModerationEvent, ModeratorAction, Sanctions
from c4tui.storage import data_folder

#: How many finished games HISTORY lists, newest first.
HISTORY_LIMIT = 50


def default_database() -> Path:
    """Where the lobby's data lives unless ``--db`` says otherwise: the user's data directory."""
    return data_folder() / "accounts.sqlite3"


class StoreError(Exception):
    """The store's database cannot be used: unreachable, or its schema newer than this c4tui's."""


class StoreLost(StoreError, ConnectionError):
    """The connection to the store's database is broken (or could not be made).

    Whatever was not committed is lost; so is any session lock held on it (a node's
    leadership), so the server must stop writing.
    """


class LoginResult(Enum):
    """LOGIN's outcome, in ACKSTATUS order."""

    OK = 0
    NO_SUCH_USER = 1
    WRONG_PASSWORD = 2
    BANNED = 4  # §7: the password matched, but a ban holds


@dataclass(frozen=True)
class StoredGame:
    """One game as kept: its room, who played it, on which board, how it went and ended.

    ``ended``, ``winner`` and ``reason`` are None while the game is in progress
    (``winner`` stays None for a draw). Times are UTC, ISO 8601 (``2026-11-26T23:05:03Z``).
    A timed game has its ``clock``, and ``clock_left``: the milliseconds RED and YELLOW
    had after its last move (None: untimed, or no move yet).
    """

    number: int
    room: str
    red: str
    yellow: str
    settings: ConnectFourSettings
    moves: tuple[Move, ...]
    rated: bool
    started: str
    ended: str | None = None
    winner: str | None = None
    reason: EndReason | None = None
    clock: Clock | None = None
    clock_left: tuple[int, int] | None = None

    @property
    def terms(self) -> Terms:
        """Rated or casual, and the clock: what the game was played for and on."""
        return Terms(self.rated, self.clock)

    @property
    def rules(self) -> Rules:
        """Classic or Pop Out."""
        return self.settings[2]


@dataclass(frozen=True)
class NewRatings:
    """A rated game's end: what both players' ratings became (RATING: red's, then yellow's)."""

    red: RatingChange
    yellow: RatingChange


class LobbyStore(Protocol):
    """Accounts and games on disk; each write is committed before its method returns."""

    @property
    def location(self) -> str:
        """Where the data is, for the log (a file, a database's address)."""

    async def open(self) -> None:
        """Open the store, creating or upgrading its tables if need be."""

    async def close(self) -> None:
        """Close the store."""

    async def register(self, user: str, password: str, bot: bool = False) -> bool:
        """Create an account (``bot``: one marked as a bot, §5.5); False if the name is taken.

        Taken in any case, by an account or a deleted one's; a reserved name
        (``protocols.public.reserved_name``) is always taken.
        """

    async def check(self, user: str, password: str) -> LoginResult:
        """Whether ``password`` is ``user``'s; BANNED once it is, while a ban holds.

        A live visit's token (§9) is the password of the account its key logs in.
        """

    async def game_started(
        self, room: str, red: str, yellow: str, settings: ConnectFourSettings, rated: bool = False
    ) -> int:
        """Keep a game that has just begun in ``room``; its number (GAME:<id>)."""

    async def move_played(self, game: int, ply: int, move: Move) -> None:
        """Keep the move of ``ply`` (1 for the first move) in ``game``."""

    async def game_ended(
        self, game: int, winner: str | None, reason: EndReason
    ) -> NewRatings | None:
        """Keep how ``game`` ended (``winner`` None: a draw), with its players' standing.

        Each player's record counts the game; a rated game both players moved in
        changes both ratings too, in the same transaction. None: no rating changed.
        """

    async def keep(
        self, journal: Sequence[GameEvent[ConnectFourSettings, Move]]
    ) -> list[NewRatings]:
        """Keep the rooms' journal at once (the store knows the games under way by room).

        Each game's end is kept as ``game_ended`` keeps it, in the journal's one
        transaction; what the ratings became, for each rated game that ended.
        """

    async def unfinished_games(self) -> list[StoredGame]:
        """Every game that began and has not ended, with its moves (to restore them).

        The store takes them as the games under way that ``keep`` goes on with: a
        node taking a lobby over learns the games another node began.
        """

    async def history(self, user: str) -> list[int] | None:
        """``user``'s finished games, newest first, at most HISTORY_LIMIT; None: no such user."""

    async def game(self, number: int) -> StoredGame | None:
        """Game ``number`` with its moves; None if there is none."""

    # ----- standing (§5.3) ----------------------------------------------------------

    async def profile(self, user: str) -> ProfileInfo | None:
        """``user``'s rating and record as PROFILE tells them; None: no such user."""

    async def leaderboard(self) -> list[tuple[str, float]]:
        """The LEADERBOARD_SIZE best established ratings, highest first: (user, rating)."""

    async def provisional_leaders(self) -> list[tuple[str, float]]:
        """The LEADERBOARD_SIZE best provisional ratings of a rated game or more, highest first."""

    async def change_password(self, user: str, new: str) -> None:
        """Make ``new`` ``user``'s password (committed before this returns)."""

    # ----- who is online (§5.5, PLAYERS) -----

    async def ratings(self, users: Sequence[str]) -> dict[str, tuple[float, bool]]:
        """Each account's rating and whether it is a bot (names with no account left out)."""

    # ----- puzzles (§8) -----

    async def puzzle_progress(self, user: str, only: str | None = None) -> PuzzleProgress | None:
        """``user``'s puzzle rating, streaks, first tries, the puzzles' ratings; None: no user.

        ``only``: that puzzle's try and rating alone.
        """

    async def puzzle_tried(
        self, user: str, puzzle: Puzzle, solved: bool, day: str
    ) -> PuzzleVerdict | None:
        """Rate and keep ``user``'s try (a first try only), in one transaction; None: no user."""

    async def keep_found_puzzles(self, puzzles: Sequence[Puzzle]) -> int:
        """Keep puzzles found in a finished lobby game (known ids left alone): how many new."""

    async def found_puzzles(self) -> list[Puzzle]:
        """Every puzzle found in lobby games, each with its rating now."""

    async def found_puzzle(self, puzzle_id: str) -> Puzzle | None:
        """The puzzle found in lobby games with ``puzzle_id``; None: none."""

    # ----- an ssh key as an account (§9): the ssh door calls the first four -----

    async def begin_visit(self, token_hash: str, visit: Visit, expires: float) -> None:
        """Keep a visit the ssh door opened: its token's SHA-256 (hex), its key, its expiry.

        ``visit.address``: where the visitor is (what REGISTER's limit per address counts).
        """

    async def end_visit(self, token_hash: str) -> None:
        """The visit is over (its ssh connection closed): its token logs in nothing more."""

    async def end_expired_visits(self, now: float) -> int:
        """End every visit expired at ``now`` (epoch seconds): how many."""

    async def key_account(self, fingerprint: str) -> str | None:
        """The account the key logs in; None: none."""

    async def live_visit(self, token_hash: str) -> Visit | None:
        """The live visit of that token's hash; None: unknown, ended or expired."""

    async def key_register(self, user: str, token_hash: str) -> int:
        """KEYREGISTER's status: 0 made and bound, 1 the name taken, 4 no visit, 5 key bound."""

    async def bind_key(self, user: str, token_hash: str) -> int:
        """KEYBIND's status: 0 bound (or already), 1 another's, 2 no such visit, 3 MAX_KEYS."""

    async def add_key(self, user: str, key: Visit) -> int:
        """KEYADD's status: 0 added (or already), 1 another account's, 3 MAX_KEYS already."""

    async def keys_of(self, user: str) -> list[str]:
        """The fingerprints of ``user``'s keys, oldest first."""

    async def remove_key(self, user: str, fingerprint: str) -> bool:
        """Whether ``user`` had that key (now removed: its visits log in nothing)."""

    # ----- the lobby in public (§7) -----

    async def block(self, blocker: str, blocked: str) -> int:
        """BLOCK's status: 0 blocked (or already), 1 no such user or oneself, 2 MAX_BLOCKS."""

    async def unblock(self, blocker: str, blocked: str) -> bool:
        """Whether ``blocker`` blocked ``blocked`` (and now no longer does)."""

    async def blocks_of(self, user: str) -> list[str]:
        """Whom ``user`` blocks, by name."""

    async def all_blocks(self) -> list[tuple[str, str]]:
        """Every block, (blocker, blocked): the running server keeps them in memory."""

    async def report(
        self, reporter: str, reported: str, reason: ReportReason, text: str, now: float
    ) -> int:
        """REPORT's status: 0 kept, 1 no such user (or oneself), 3 too many this hour.

        Kept with the last game between the two; 3: REPORTS_PER_HOUR by ``reporter``
        in the hour before ``now`` already.
        """

    async def open_reports(self, limit: int) -> list[ReportInfo]:
        """The open reports, oldest first, at most ``limit``."""

    async def unreadable_reports(self, limit: int) -> list[int]:
        """The numbers of the open reports among the first ``limit`` that this c4tui cannot read."""

    async def close_report(self, number: int, by: str) -> bool:
        """Close the open report ``number``, kept as ``by``'s action; False: no such open one."""

    async def role(self, user: str) -> str | None:
        """``user``'s role (a ``Role``'s value); None: no such account."""

    async def set_role(self, user: str, role: str, by: str) -> bool:
        """Give ``user`` the ``role`` (a ``Role``'s value); False: no such account."""

    async def ban(self, user: str, until: float | None, reason: str, by: str) -> bool:
        """Ban ``user`` until ``until`` (epoch seconds; None: until unbanned); False: no account."""

    async def unban(self, user: str, by: str) -> bool:
        """Lift ``user``'s ban; False: no ban holds."""

    async def mute(self, user: str, until: float, by: str) -> bool:
        """Mute ``user`` until ``until`` (epoch seconds); False: no such account."""

    async def sanctions(self, user: str) -> Sanctions | None:
        """What holds against ``user`` now (ended ones left out); None: no such account."""

    async def moderator_actions(self, limit: int) -> list[ModeratorAction]:
        """The last ``limit`` moderators' actions, newest first."""

    async def delete_account(self, user: str, by: str) -> bool:
        """Erase ``user``'s account (``deleted-<n>`` in others' records, the name reserved)."""

    async def export(self, user: str) -> dict[str, object] | None:
        """Everything kept about ``user``'s account, as JSON's values, never the hash."""

    async def events_after(self, number: int) -> list[ModerationEvent]:
        """The change feed after ``number``, in order: roles, bans, unbans, mutes, deletions."""

    async def last_event(self) -> int:
        """The number of the feed's last change (0: none yet)."""


def password_digest(password: str) -> bytes:
    """What bcrypt hashes: 44 bytes that depend on every character of the password."""
    return base64.b64encode(hashlib.sha256(password.encode("ascii")).digest())


def hash_password(password: str, rounds: int) -> bytes:
    """The bcrypt hash to keep for ``password`` (slow on purpose: run it off the event loop)."""
    return bcrypt.hashpw(password_digest(password), bcrypt.gensalt(rounds))


def password_matches(password: str, hashed: bytes) -> bool:
    """Whether ``password`` is the one ``hashed`` was made from (slow on purpose too)."""
    return bcrypt.checkpw(password_digest(password), hashed)
