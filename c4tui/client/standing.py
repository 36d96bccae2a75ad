"""A player's standing in words, for the console and the app alike: ratings, profiles, passwords.

The server's RATING lines come in pairs after a rated game (red's, then yellow's,
spec/protocols.md §5.3); ``RatingNews`` pairs them and says them from one
player's side. A profile and a change of password are said the same way by
every front end.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

from c4tui.client.link import LobbyLink
from c4tui.client.outcomes import PasswordChange
from c4tui.protocols.competition import ProfileInfo, RatingChange
from c4tui.protocols.names import PASSWORD_RULE

#: What a change of password came to.
PASSWORD_CHANGE = {
    PasswordChange.CHANGED: "Password changed: log in with the new one from now on.",
    PasswordChange.WRONG_PASSWORD: "That is not your current password: nothing changed.",
    PasswordChange.TOO_LATE: "The server no longer accepts the change (over 60 s since the "
    "old password was checked): try again.",
    PasswordChange.AGAINST_THE_RULES: f"A password is {PASSWORD_RULE}: nothing changed.",
}
#: When the new password and its repetition differ (the server is not asked).
NEW_PASSWORDS_DIFFER = "The new password and its repetition differ: nothing changed."
#: A profile's rating while its deviation is high.
PROVISIONAL = "provisional"


def signed(change: int) -> str:
    """``+12``, ``-12``, ``+0``."""
    return f"{change:+d}"


def rating_words(profile: ProfileInfo) -> str:
    """``1512`` or ``1512 (provisional)``."""
    return f"{profile.rating} ({PROVISIONAL})" if profile.provisional else str(profile.rating)


def record_words(profile: ProfileInfo) -> str:
    """``3 games: 2 won, 0 drawn, 1 lost``."""
    games = "1 game" if profile.games == 1 else f"{profile.games} games"
    return f"{games}: {profile.wins} won, {profile.draws} drawn, {profile.losses} lost"


def profile_line(profile: ProfileInfo) -> str:
    """``ann (bot): rating 1512 (provisional); 3 games: 2 won, 0 drawn, 1 lost``."""
    name = f"{profile.user} (bot)" if profile.bot else profile.user
    return f"{name}: rating {rating_words(profile)}; {record_words(profile)}"


@dataclass(frozen=True)
class Leader:
    """One line of the leaderboard: rank, player, rating, bot or not, provisional or not.

    The provisional ratings (LEADERBOARD:ALL's) come below the established ones.
    """

    rank: int
    user: str
    rating: int
    bot: bool
    provisional: bool = False

    @property
    def rating_words(self) -> str:
        """``1734``, or ``1500 (provisional)``."""
        return f"{self.rating} ({PROVISIONAL})" if self.provisional else str(self.rating)

    @property
    def line(self) -> str:
        """`` 1. ann (bot)    1734``; `` 9. zoe    1500 (provisional)``."""
        name = f"{self.user} (bot)" if self.bot else self.user
        return f"{self.rank:>2}. {name:<26} {self.rating_words}"


async def leaders(link: LobbyLink) -> list[Leader]:
    """The leaderboard, each player marked if a bot (their PROFILEs asked at once).

    LEADERBOARD names and ratings only (§5.3); a bot is marked in every list, so each
    leader's profile says which are. A profile gone meanwhile counts as no bot.
    """
    board = await link.leaderboard()
    profiles = await asyncio.gather(*(link.profile(entry.user) for entry in board))
    return [
        Leader(
            rank, entry.user, entry.rating, profile is not None and profile.bot, entry.provisional
        )
        for rank, (entry, profile) in enumerate(zip(board, profiles, strict=True), 1)
    ]


class RatingNews:
    """Pairs a rated game's two RATING lines and says them from ``me``'s side."""

    def __init__(self, me: str) -> None:
        self.me = me
        self._first: RatingChange | None = None

    def heard(self, change: RatingChange) -> str | None:
        """The sentence once both ratings have come (None while one is awaited).

        ``Your rating: 1512 (+12); bob's: 1488 (-12)``.
        """
        if self._first is None:
            self._first = change
            return None
        pair, self._first = (self._first, change), None
        mine = [one for one in pair if one.user == self.me]
        theirs = [one for one in pair if one.user != self.me]
        if len(mine) != 1 or len(theirs) != 1:  # not ours (cannot happen): both by name
            return "; ".join(f"{one.user}'s rating: {_moved(one)}" for one in pair)
        return f"Your rating: {_moved(mine[0])}; {theirs[0].user}'s: {_moved(theirs[0])}"


def _moved(change: RatingChange) -> str:
    """``1512 (+12)``."""
    return f"{change.rating} ({signed(change.change)})"
