"""Each account's standing in the lobby's store: its record, its Glicko-2 rating, the leaderboard.

Work (``sql_work``) in the SQL both engines speak. A game's end changes both
players' records, and for a rated game both ratings, inside the transaction that
keeps the end (``sql_store.SqlStore``): a crash keeps all of it or none.
"""

from __future__ import annotations

from c4tui.lobby.ratings import Rating, Result, rated
from c4tui.protocols.competition import (
    LEADERBOARD_SIZE,
    PROVISIONAL_DEVIATION,
    ProfileInfo,
    RatingChange,
)
from c4tui.server.sql_work import Statement, Work
from c4tui.server.store import NewRatings

#: A game is rated once both players have moved (§5.3: an abort before that is not).
RATED_FROM_PLY = 2
#: The leaderboards leave out the accounts a ban holds against at the time given (§7).
_NOT_BANNED = " AND (banned = 0 OR banned_until <= ?)"
#: The leaderboard's query. Its WHERE repeats the partial index ``accounts_by_rating``'s
#: (literals, not parameters: only then can SQLite use the index), so it reads the index
#: in its order, highest first, passes over the banned (its one parameter: the time now)
#: and stops after LEADERBOARD_SIZE rows.
LEADERBOARD_QUERY = (
    "SELECT name, rating FROM accounts"
    f" WHERE deviation < {PROVISIONAL_DEVIATION} AND rated_games > 0"
    f"{_NOT_BANNED} ORDER BY rating DESC LIMIT {LEADERBOARD_SIZE}"
)
#: LEADERBOARD:ALL's provisional players: at least one rated game, highest first, read
#: in the order of the partial index ``accounts_provisional_by_rating``, as above.
PROVISIONAL_LEADERS_QUERY = (
    "SELECT name, rating FROM accounts"
    f" WHERE deviation >= {PROVISIONAL_DEVIATION} AND rated_games > 0"
    f"{_NOT_BANNED} ORDER BY rating DESC LIMIT {LEADERBOARD_SIZE}"
)
#: The migration that adds that index (the same on both engines).
PROVISIONAL_INDEX_MIGRATION = (
    "CREATE INDEX accounts_provisional_by_rating ON accounts (rating DESC)"
    f" WHERE deviation >= {PROVISIONAL_DEVIATION} AND rated_games > 0",
)
_PROFILE_QUERY = (
    "SELECT name, rating, deviation, games, wins, draws, losses, bot, role FROM accounts"
    " WHERE name = ?"
)


def game_finished(game: int, winner: str | None) -> Work[NewRatings | None]:
    """Count the ended ``game`` in its players' records and, if rated, their ratings.

    Runs inside the transaction that keeps the end. None: no rating changed (a casual
    game, or one that ended before both players moved).
    """
    rows = yield (
        "SELECT red, yellow, rated, (SELECT count(*) FROM moves WHERE game = games.id)"
        " FROM games WHERE id = ?",
        (game,),
    )
    if not rows:
        return None
    red, yellow, is_rated, plies = rows[0]
    red_score = 0.5 if winner is None else float(winner == red)
    yield _count(red, red_score)
    yield _count(yellow, 1 - red_score)
    if not is_rated or plies < RATED_FROM_PLY or red == yellow:
        return None
    before_red, before_yellow = (yield from _rating(red)), (yield from _rating(yellow))
    after_red = rated(before_red, [Result(before_yellow, red_score)])
    after_yellow = rated(before_yellow, [Result(before_red, 1 - red_score)])
    return NewRatings(
        (yield from _rate(red, before_red, after_red)),
        (yield from _rate(yellow, before_yellow, after_yellow)),
    )


def _count(user: str, score: float) -> Statement:
    """One more game in ``user``'s record: a win (1), a draw (0.5) or a loss (0)."""
    return (
        "UPDATE accounts SET games = games + 1, wins = wins + ?, draws = draws + ?,"
        " losses = losses + ? WHERE name = ?",
        (int(score == 1), int(score == 0.5), int(score == 0), user),
    )


def _rating(user: str) -> Work[Rating]:
    """``user``'s rating now (a new account's, for a name with no account)."""
    rows = yield ("SELECT rating, deviation, volatility FROM accounts WHERE name = ?", (user,))
    return Rating(*rows[0]) if rows else Rating()


def _rate(user: str, before: Rating, after: Rating) -> Work[RatingChange]:
    """Keep ``user``'s new rating; the change as RATING says it.

    The change is between the whole numbers people see (1500 → 1512 is +12), so the
    two always add up on screen.
    """
    yield (
        "UPDATE accounts SET rating = ?, deviation = ?, volatility = ?,"
        " rated_games = rated_games + 1 WHERE name = ?",
        (after.rating, after.deviation, after.volatility, user),
    )
    return RatingChange(user, round(after.rating), round(after.rating) - round(before.rating))


def profile(user: str) -> Work[ProfileInfo | None]:
    """``user``'s standing (rating and deviation rounded, as PROFILE says them); None: no user."""
    rows = yield (_PROFILE_QUERY, (user,))
    if not rows:
        return None
    name, rating, deviation, games, wins, draws, losses, bot, role = rows[0]
    return ProfileInfo(
        name, round(rating), round(deviation), games, wins, draws, losses, bool(bot), role
    )


def leaderboard(now: float, query: str = LEADERBOARD_QUERY) -> Work[list[tuple[str, float]]]:
    """The best established ratings at ``now``, highest first (or the provisional ones).

    A banned account is left out while its ban holds.
    """
    rows = yield (query, (now,))
    return [(str(name), float(rating)) for name, rating in rows]
