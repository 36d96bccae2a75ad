"""Each account's standing in the SQLite store: its record, its Glicko-2 rating, the leaderboard.

Plain functions on the store's connection, run in its database thread. A game's
end changes both players' records, and for a rated game both ratings, inside the
transaction that keeps the end (``SqliteStore``): a crash keeps all of it or none.
"""

from __future__ import annotations

import sqlite3

from c4tui.lobby.ratings import Rating, Result, rated
from c4tui.protocols.competition import (
    LEADERBOARD_SIZE,
    PROVISIONAL_DEVIATION,
    ProfileInfo,
    RatingChange,
)
from c4tui.server.store import NewRatings

#: A game is rated once both players have moved (§5.3: an abort before that is not).
RATED_FROM_PLY = 2
#: The leaderboard's query. Its WHERE repeats the partial index ``accounts_by_rating``'s
#: (literals, not parameters: only then can SQLite use the index), so it reads the index
#: alone, highest first, and stops after LEADERBOARD_SIZE rows.
LEADERBOARD_QUERY = (
    "SELECT name, rating FROM accounts"
    f" WHERE deviation < {PROVISIONAL_DEVIATION} AND rated_games > 0"
    f" ORDER BY rating DESC LIMIT {LEADERBOARD_SIZE}"
)
_PROFILE_QUERY = (
    "SELECT name, rating, deviation, games, wins, draws, losses, bot FROM accounts WHERE name = ?"
)


def game_finished(
    connection: sqlite3.Connection, game: int, winner: str | None
) -> NewRatings | None:
    """Count the ended ``game`` in its players' records and, if rated, their ratings.

    Runs inside the transaction that keeps the end. None: no rating changed (a casual
    game, or one that ended before both players moved).
    """
    row = connection.execute(
        "SELECT red, yellow, rated, (SELECT count(*) FROM moves WHERE game = games.id)"
        " FROM games WHERE id = ?",
        (game,),
    ).fetchone()
    if row is None:
        return None
    red, yellow, is_rated, plies = row
    red_score = 0.5 if winner is None else float(winner == red)
    _count(connection, red, red_score)
    _count(connection, yellow, 1 - red_score)
    if not is_rated or plies < RATED_FROM_PLY or red == yellow:
        return None
    before_red, before_yellow = _rating(connection, red), _rating(connection, yellow)
    after_red = rated(before_red, [Result(before_yellow, red_score)])
    after_yellow = rated(before_yellow, [Result(before_red, 1 - red_score)])
    return NewRatings(
        _rate(connection, red, before_red, after_red),
        _rate(connection, yellow, before_yellow, after_yellow),
    )


def _count(connection: sqlite3.Connection, user: str, score: float) -> None:
    """One more game in ``user``'s record: a win (1), a draw (0.5) or a loss (0)."""
    connection.execute(
        "UPDATE accounts SET games = games + 1, wins = wins + ?, draws = draws + ?,"
        " losses = losses + ? WHERE name = ?",
        (int(score == 1), int(score == 0.5), int(score == 0), user),
    )


def _rating(connection: sqlite3.Connection, user: str) -> Rating:
    """``user``'s rating now (a new account's, for a name with no account)."""
    row = connection.execute(
        "SELECT rating, deviation, volatility FROM accounts WHERE name = ?", (user,)
    ).fetchone()
    return Rating() if row is None else Rating(*row)


def _rate(connection: sqlite3.Connection, user: str, before: Rating, after: Rating) -> RatingChange:
    """Keep ``user``'s new rating; the change as RATING says it.

    The change is between the whole numbers people see (1500 → 1512 is +12), so the
    two always add up on screen.
    """
    connection.execute(
        "UPDATE accounts SET rating = ?, deviation = ?, volatility = ?,"
        " rated_games = rated_games + 1 WHERE name = ?",
        (after.rating, after.deviation, after.volatility, user),
    )
    return RatingChange(user, round(after.rating), round(after.rating) - round(before.rating))


def profile(connection: sqlite3.Connection, user: str) -> ProfileInfo | None:
    """``user``'s standing (rating and deviation rounded, as PROFILE says them); None: no user."""
    row = connection.execute(_PROFILE_QUERY, (user,)).fetchone()
    if row is None:
        return None
    name, rating, deviation, games, wins, draws, losses, bot = row
    return ProfileInfo(name, round(rating), round(deviation), games, wins, draws, losses, bool(bot))


def leaderboard(connection: sqlite3.Connection) -> list[tuple[str, float]]:
    """The best established ratings, highest first (``LEADERBOARD_QUERY``)."""
    return [(str(name), float(rating)) for name, rating in connection.execute(LEADERBOARD_QUERY)]
