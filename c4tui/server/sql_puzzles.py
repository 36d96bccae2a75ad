"""Each account's puzzle record in the lobby's store (§8, issue 41), as work both engines run.

The account's puzzle rating (Glicko-2: rating, deviation, volatility), its streak and
best streak are columns of its row, so a deletion takes them with it; each first try
of a puzzle is a row of ``puzzle_tries`` (the history PUZZLE:NEXT reads to offer an
untried one); each puzzle that has been tried, and each one found in a finished lobby
game, is a row of ``puzzles`` with its own rating, shared by every account, as
lichess's are. A try is rated by ``puzzles.progress.PuzzleProgress`` itself, loaded
with what the store holds: one rule for the trainer at home and on a server, and a
try's every write in one transaction. A retry (the puzzle tried before) is answered
but writes nothing, so sending the same PUZZLESOLVED again and again costs no disk.
"""

from __future__ import annotations

from collections.abc import Sequence

from c4tui.lobby.ratings import START_DEVIATION, START_RATING, START_VOLATILITY, Rating
from c4tui.protocols.puzzles import PuzzleVerdict
from c4tui.puzzles.progress import PuzzleProgress, Try
from c4tui.puzzles.puzzle import Puzzle
from c4tui.puzzles.rating import starting_rating
from c4tui.server.sql_work import Work

#: The most puzzles found in lobby games that the store keeps (the first found stay).
MAX_FOUND_PUZZLES = 10_000
_PLAYER_QUERY = (
    "SELECT puzzle_rating, puzzle_deviation, puzzle_volatility, puzzle_streak,"
    " puzzle_best_streak FROM accounts WHERE name = ?"
)
_PUZZLE_COLUMNS = "id, moves, solution, goal, themes, rating, deviation, volatility, found"


def puzzle_migration(real: str) -> tuple[str, ...]:
    """§8's columns and tables, in one engine's types (``real``: a double)."""
    return (
        f"ALTER TABLE accounts ADD COLUMN puzzle_rating {real} NOT NULL DEFAULT {START_RATING}",
        f"ALTER TABLE accounts ADD COLUMN puzzle_deviation {real}"
        f" NOT NULL DEFAULT {START_DEVIATION}",
        f"ALTER TABLE accounts ADD COLUMN puzzle_volatility {real}"
        f" NOT NULL DEFAULT {START_VOLATILITY}",
        "ALTER TABLE accounts ADD COLUMN puzzle_streak INTEGER NOT NULL DEFAULT 0",
        "ALTER TABLE accounts ADD COLUMN puzzle_best_streak INTEGER NOT NULL DEFAULT 0",
        "CREATE TABLE puzzles (id TEXT PRIMARY KEY, moves TEXT NOT NULL,"
        " solution TEXT NOT NULL, goal TEXT NOT NULL, themes TEXT NOT NULL,"
        f" rating {real} NOT NULL, deviation {real} NOT NULL, volatility {real} NOT NULL,"
        " found INTEGER NOT NULL)",  # 1: found in a lobby game; 0: shipped, kept for its rating
        "CREATE TABLE puzzle_tries (account TEXT NOT NULL, puzzle TEXT NOT NULL,"
        " day TEXT NOT NULL, solved INTEGER NOT NULL, rating_after INTEGER NOT NULL,"
        " PRIMARY KEY (account, puzzle))",
    )


def progress(user: str, only: str | None = None) -> Work[PuzzleProgress | None]:
    """``user``'s puzzle record: rating, streaks, first tries, the tried puzzles' ratings.

    ``only``: the tries and rating of that one puzzle, not all (what a try needs).
    None: no such account.
    """
    rows = yield (_PLAYER_QUERY, (user,))
    if not rows:
        return None
    rating, deviation, volatility, streak, best = rows[0]
    one, of_one = ("", ()) if only is None else (" AND puzzle = ?", (only,))
    tries = yield (
        f"SELECT puzzle, day, solved, rating_after FROM puzzle_tries WHERE account = ?{one}",
        (user, *of_one),
    )
    history = [
        Try(str(p), str(day), bool(solved), True, int(after)) for p, day, solved, after in tries
    ]
    where = "" if only is None else " WHERE id = ?"
    rated = yield (f"SELECT id, rating, deviation, volatility FROM puzzles{where}", of_one)
    ratings = {str(row[0]): Rating(*map(float, row[1:])) for row in rated}
    return PuzzleProgress(Rating(rating, deviation, volatility), streak, best, history, ratings)


def tried(user: str, puzzle: Puzzle, solved: bool, day: str) -> Work[PuzzleVerdict | None]:
    """Rate ``user``'s try of ``puzzle`` as ``PuzzleProgress.record`` does, and keep it.

    Run in one transaction. Only a first try is rated and kept; None: no such account.
    """
    record = yield from progress(user, puzzle.id)
    if record is None:
        return None
    first = not record.tried(puzzle.id)
    shown_before = round(record.rating.rating)
    record.record(puzzle, solved, day)
    if first:
        yield from _keep_try(user, puzzle, record, day)
    shown = round(record.rating.rating)  # the change between the whole numbers, as RATING's
    return PuzzleVerdict(solved, first, shown, shown - shown_before, record.streak)


def _keep_try(user: str, puzzle: Puzzle, record: PuzzleProgress, day: str) -> Work[None]:
    """Keep a first try: the account's new rating and streaks, the try, the puzzle's rating."""
    player, entry = record.rating, record.history[-1]
    yield (
        "UPDATE accounts SET puzzle_rating = ?, puzzle_deviation = ?, puzzle_volatility = ?,"
        " puzzle_streak = ?, puzzle_best_streak = ? WHERE name = ?",
        (
            player.rating,
            player.deviation,
            player.volatility,
            record.streak,
            record.best_streak,
            user,
        ),
    )
    yield (
        "INSERT INTO puzzle_tries (account, puzzle, day, solved, rating_after)"
        " VALUES (?, ?, ?, ?, ?)",
        (user, puzzle.id, day, int(entry.solved), entry.rating_after),
    )
    after = record.puzzle_rating(puzzle)
    yield (
        f"INSERT INTO puzzles ({_PUZZLE_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 0)"
        " ON CONFLICT (id) DO UPDATE SET rating = excluded.rating,"
        " deviation = excluded.deviation, volatility = excluded.volatility",
        (*_puzzle_fields(puzzle), after.rating, after.deviation, after.volatility),
    )


def keep_found(puzzles: Sequence[Puzzle]) -> Work[int]:
    """Keep puzzles found in a finished lobby game (a known id stays as it is): how many new.

    Past ``MAX_FOUND_PUZZLES`` none is added: the store's size is bounded, whoever plays.
    """
    rows = yield ("SELECT count(*) FROM puzzles WHERE found = 1", ())
    room = MAX_FOUND_PUZZLES - int(rows[0][0])
    added = 0
    for puzzle in list(puzzles)[: max(0, room)]:
        start = starting_rating(puzzle)
        new = yield (
            f"INSERT INTO puzzles ({_PUZZLE_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 1)"
            " ON CONFLICT (id) DO NOTHING RETURNING id",
            (*_puzzle_fields(puzzle), start.rating, start.deviation, start.volatility),
        )
        added += len(new)
    return added


def found(puzzle_id: str | None = None) -> Work[list[Puzzle]]:
    """Every puzzle found in lobby games (or the one ``puzzle_id``), each with its rating now.

    In their ids' order.
    """
    one, of_one = ("", ()) if puzzle_id is None else (" AND id = ?", (puzzle_id,))
    rows = yield (
        "SELECT id, moves, solution, goal, themes, rating FROM puzzles"
        f" WHERE found = 1{one} ORDER BY id",
        of_one,
    )
    return [
        Puzzle(
            str(i), str(m), tuple(s.split(",")), str(g), tuple(t.split(",")) if t else (), round(r)
        )
        for i, m, s, g, t, r in rows
    ]


def _puzzle_fields(puzzle: Puzzle) -> tuple[str, str, str, str, str]:
    """A puzzle's columns as text: its id, position, solution, goal and themes."""
    return puzzle.id, puzzle.moves, ",".join(puzzle.solution), puzzle.goal, ",".join(puzzle.themes)
