"""The console lobby's standing: ``profile [USER]``, ``leaderboard`` and ``password``.

Ratings and records are the server's (PROFILE, LEADERBOARD, spec/protocols.md
§5.3); after a rated game the two RATING lines are said as one sentence from our
side (``client.standing.RatingNews``). A password is changed by typing the old one
and the new one twice, without echo at a terminal, as logging in reads it.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from c4tui.client import standing as words
from c4tui.client.link import LobbyLink, ServerMessage
from c4tui.client.outcomes import PasswordChange
from c4tui.console.typed import user_refused
from c4tui.protocols.competition import RatingChange
from c4tui.protocols.names import valid_password

HELP = """  profile [USER]                 your rating and record (or USER's)
  leaderboard                    the 20 best established ratings, then provisional ones
  password                       change your password (asks the old one and the new)"""

Say = Callable[[str], None]
#: Reads a secret after its prompt (without echo at a terminal).
Secret = Callable[[str], Awaitable[str]]


async def profile(link: LobbyLink, rest: str, say: Say) -> None:
    """Our profile, or the one of the user named."""
    if rest and (refusal := user_refused(rest)) is not None:
        say(refusal)
        return
    info = await link.profile(rest or link.user)
    say(f"No such user: {rest}." if info is None else words.profile_line(info))


async def leaderboard(link: LobbyLink, say: Say) -> None:
    """The leaderboard, one line a player, best first."""
    leaders = await words.leaders(link)
    if not leaders:
        say("Nobody is on the leaderboard yet: it lists players with at least one rated game")
        say("(ratings whose deviation is 110 or more are provisional, below the others).")
    for leader in leaders:
        say(leader.line)


async def password(link: LobbyLink, secret: Secret, say: Say) -> None:
    """Change our password: the old one, then the new one twice; the outcome in words."""
    old = await secret("Current password: ")
    new = await secret("New password: ")
    if not valid_password(new):
        say(words.PASSWORD_CHANGE[PasswordChange.AGAINST_THE_RULES])
        return
    if await secret("New password again: ") != new:
        say(words.NEW_PASSWORDS_DIFFER)
        return
    if not valid_password(old):  # no account has it (and the wire could not carry it)
        say(words.PASSWORD_CHANGE[PasswordChange.WRONG_PASSWORD])
        return
    say(words.PASSWORD_CHANGE[await link.change_password(old, new)])


def rating_listener(me: str, say: Say) -> Callable[[ServerMessage], None]:
    """What to do with a message pushed at the lobby prompt: say our new ratings."""
    news = words.RatingNews(me)

    def heard(message: ServerMessage) -> None:
        if isinstance(message, RatingChange) and (sentence := news.heard(message)) is not None:
            say(sentence)

    return heard
