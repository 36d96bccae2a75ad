"""What the server answers about standing (§5.3): profiles, the leaderboard, passwords, RATING.

``answers.answer`` hands a logged-in member's PROFILE, LEADERBOARD, PASSWORD and
NEWPASSWORD here. A password is checked as LOGIN checks it (``checked_in_turn``):
a wrong one counts in the login throttle and slows every later answer for that
user, so PASSWORD is no side door for guessing.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING, TypeVar

from c4tui.lobby import Member
from c4tui.protocols import competition
from c4tui.protocols.competition import Leaderboard, NewPassword, Password, Profile
from c4tui.protocols.rooms import ack
from c4tui.server.store import LoginResult, NewRatings

if TYPE_CHECKING:
    from c4tui.server.lobby import LobbyConnection, LobbyService

#: The requests answered here.
STANDING_REQUESTS = (Profile, Leaderboard, Password, NewPassword)
StandingRequest = Profile | Leaderboard | Password | NewPassword
#: Seconds a right PASSWORD allows its NEWPASSWORD (§5.3).
NEW_PASSWORD_WITHIN = 60.0
S = TypeVar("S")
M = TypeVar("M")


async def answer_standing(
    service: LobbyService[S, M],
    connection: LobbyConnection,
    member: Member,
    request: StandingRequest,
) -> None:
    """Answer one request about standing, from the store."""
    store = service.store
    if isinstance(request, Profile):
        info = await store.profile(request.user)
        if info is None:
            connection.offer(ack("PROFILE", 1))
            return
        record = (info.games, info.wins, info.draws, info.losses)
        role = None if info.role == competition.PLAYER else info.role  # a player's: §5.3's
        profile = competition.profile(
            info.user, info.rating, info.deviation, record, info.bot, role=role
        )
        connection.offer(profile)
    elif isinstance(request, Leaderboard):
        provisional = await store.provisional_leaders() if request.everyone else []
        connection.offer(competition.leaderboard(await store.leaderboard(), provisional))
    elif isinstance(request, Password):
        right = await checked_in_turn(service, connection, member.name, request.old)
        connection.password_checked = time.monotonic() if right is LoginResult.OK else None
        connection.offer(ack("PASSWORD", 0 if right is LoginResult.OK else 1))
    else:
        await _change_password(service, connection, member, request)


async def _change_password(
    service: LobbyService[S, M], connection: LobbyConnection, member: Member, request: NewPassword
) -> None:
    """NEWPASSWORD: only within NEW_PASSWORD_WITHIN of a right PASSWORD, and only once."""
    checked, connection.password_checked = connection.password_checked, None
    if checked is None or time.monotonic() - checked > NEW_PASSWORD_WITHIN:
        connection.offer(ack("NEWPASSWORD", 1))
        return
    await service.store.change_password(member.name, request.new)
    connection.offer(ack("NEWPASSWORD", 0))


async def checked_in_turn(
    service: LobbyService[S, M], connection: LobbyConnection, user: str, password: str
) -> LoginResult:
    """Whether ``password`` is ``user``'s, answered in the login throttle's turn.

    A failure counts for the connection and the user and is answered later and later
    (``LoginThrottle``); while the user is slowed, a right answer waits its turn too.
    A success clears the user's count.
    """
    began = time.monotonic()
    result = await service.store.check(user, password)
    earliest = time.monotonic()
    if result is not LoginResult.OK:
        connection.failures += 1
        earliest = began + service.throttle.failed(user, connection.failures, began)
    now = time.monotonic()
    await asyncio.sleep(max(0.0, service.throttle.turn(user, earliest, now) - now))
    if result is LoginResult.OK:
        service.throttle.succeeded(user)
    return result


def rating_news(rated_games: Sequence[NewRatings]) -> list[tuple[str, str]]:
    """The RATING lines each player of a rated game is sent: (user, line), red's line first."""
    news = []
    for game in rated_games:
        lines = [
            competition.rating(change.user, change.rating, change.change)
            for change in (game.red, game.yellow)
        ]
        news += [(player.user, line) for player in (game.red, game.yellow) for line in lines]
    return news
