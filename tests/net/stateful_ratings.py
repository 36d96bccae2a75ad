"""Ratings in the lobby's model (spec/protocols.md §5.3): every account's rating and record.

The model keeps its own table of each account's Glicko-2 rating (rating, deviation,
volatility, worked out with ``c4tui.lobby.ratings``, the arithmetic tested against
Glickman's example) and its record, and from it predicts the RATING lines after a
rated game, PROFILE's answer and the LEADERBOARD. The server's choices it follows:
every game that ends counts in both records (casual or rated, however it ended);
only a rated game both players moved in changes ratings; RATING's change is the
difference of the whole numbers shown (1500 → 1512 is +12).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from c4tui.lobby.ratings import Rating, Result, rated

#: A game is rated once both players have moved; an abort before that is not.
RATED_FROM_PLY = 2
#: LEADERBOARD lists this many, among ratings with a deviation below ESTABLISHED.
LEADERBOARD_SIZE = 20
ESTABLISHED = 110


@dataclass
class Standing:
    """One account as the model sees it: its rating and its record."""

    rating: Rating = field(default_factory=Rating)
    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    rated_games: int = 0

    def counted(self, score: float) -> None:
        """One more game: won (1), drawn (0.5) or lost (0)."""
        self.games += 1
        self.wins += score == 1
        self.draws += score == 0.5
        self.losses += score == 0


class Standings:
    """Every account's standing, for as long as the server keeps its accounts."""

    def __init__(self) -> None:
        self.table: dict[str, Standing] = {}

    def of(self, user: str) -> Standing:
        """``user``'s standing (a new account's until it has played)."""
        return self.table.setdefault(user, Standing())

    def game_ended(
        self, red: str, yellow: str, winner: str | None, is_rated: bool, plies: int
    ) -> list[str]:
        """Count a game that ended; the RATING lines each player hears (red's, then yellow's).

        None for a casual game or one that ended before both players moved.
        """
        red_score = 0.5 if winner is None else float(winner == red)
        players = (self.of(red), self.of(yellow))
        players[0].counted(red_score)
        players[1].counted(1 - red_score)
        if not is_rated or plies < RATED_FROM_PLY:
            return []
        before = (players[0].rating, players[1].rating)
        after = (
            rated(before[0], [Result(before[1], red_score)]),
            rated(before[1], [Result(before[0], 1 - red_score)]),
        )
        lines = []
        for user, standing, old, new in zip((red, yellow), players, before, after, strict=True):
            standing.rating = new
            standing.rated_games += 1
            change = round(new.rating) - round(old.rating)
            lines.append(f"RATING:{user}:{round(new.rating)}:{change:+d}")
        return lines

    def profile(self, user: str) -> str:
        """PROFILE's answer for ``user`` (an account; no bot plays here)."""
        standing = self.of(user)
        rating = standing.rating
        numbers = (standing.games, standing.wins, standing.draws, standing.losses)
        record = ":".join(str(number) for number in numbers)
        return (
            f"PROFILE:ACKSTATUS:0:{user}:{round(rating.rating)}:{round(rating.deviation)}:"
            f"{record}:0:player"  # §7: the role last
        )

    def leaderboard(self) -> str:
        """LEADERBOARD's answer: the established ratings, highest first."""
        established = [
            (standing.rating.rating, user)
            for user, standing in self.table.items()
            if standing.rating.deviation < ESTABLISHED and standing.rated_games > 0
        ]
        best = sorted(established, reverse=True)[:LEADERBOARD_SIZE]
        return "LEADERBOARD:ACKSTATUS:0:" + ",".join(f"{u}={round(r)}" for r, u in best)
