"""Coming back by ourselves after the lobby connection drops (spec/protocols.md §5.1).

A player whose connection drops keeps its game for the server's grace period
(60 s by default), and a server restarted on its database gives every player the
grace again. ``come_back`` is what the app and ``console --lobby`` do then: log in
again on a new connection, a bounded number of tries spaced out (quick at first, for
a blip; then a few seconds apart, for a restart), and learn whether the server put
us back in a game (REJOIN). With a game in progress it does not give up: a server
restarted late still gives the game its grace, so the tries go on, ``GAME_ON_EVERY``
seconds apart, for as long as the person lets them. What a front end shows meanwhile
is its own: it is told each try, and may cancel the whole thing (Esc, quit).
"""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from c4tui.client import words
from c4tui.client.key_words import GUEST_REFUSED
from c4tui.client.link import LOBBY_LINK, LinkDialect, LobbyLink
from c4tui.client.outcomes import LoginOutcome, UnknownStatus
from c4tui.client.words import Voice
from c4tui.net.errors import NetworkError, ProtocolError
from c4tui.net.tls import ClientTls
from c4tui.protocols import lobby as wire
from c4tui.protocols.past import KeptGame
from c4tui.protocols.presence import ByeReason

#: Seconds before each try: 0.5 s for a blip, then doubling to 8 s apart. All ten
#: take about a minute — the server's default grace — so a player who can come back
#: in time does, and one who cannot is told so rather than kept waiting for ever.
BACKOFF = (0.5, 1.0, 2.0, 4.0, 8.0, 8.0, 8.0, 8.0, 8.0, 8.0)
#: Seconds between the tries that follow, while a game is in progress (never over 10 s:
#: the game waits its grace once the server is back, and we should be in it by then).
GAME_ON_EVERY = 8.0

#: BYE reasons after which coming back would be wrong: another connection of ours
#: took over (coming back would take the game away from it), we were idle, or the
#: account can no longer log in (banned, deleted: §7).
_STAY_AWAY = {ByeReason.ELSEWHERE.value, ByeReason.IDLE.value}
_STAY_AWAY |= {ByeReason.BANNED.value, ByeReason.DELETED.value}


@dataclass(frozen=True)
class Comeback:
    """A new, logged-in connection, and the unfinished game it is back in (if any).

    ``rooms`` are the rooms there are now (for a viewer to find its room again).
    When ``rejoined`` names a room, REJOIN, INPROGRESS and the board are the next pushes.
    """

    link: LobbyLink
    rejoined: str | None
    rooms: list[str]


def worth_coming_back(link: LobbyLink) -> bool:
    """True when ``link`` was lost (dropped, or the server is restarting), not sent away."""
    return link.lost and link.bye_reason not in _STAY_AWAY


def why_lost(link: LobbyLink) -> str:
    """The first words of "… — reconnecting (2)…": what happened to ``link``."""
    if link.bye_reason is not None:
        return words.closed_because(link.bye_reason)
    return words.CONNECTION_LOST


@dataclass(frozen=True)
class Account:
    """Where and as whom to log in again.

    ``guest``: an ssh guest who only watches (§9): ``password`` is its visit's token, and
    it comes back by KEYGUEST, under whichever ``guest-<n>`` the server gives it then.
    """

    host: str
    port: int
    user: str
    password: str
    dialect: LinkDialect = LOBBY_LINK
    tls: ClientTls | None = None  # over TLS, as the first login was
    guest: bool = False


async def come_back(
    account: Account,
    *,
    on_try: Callable[[int], None] = lambda attempt: None,
    delays: Sequence[float] = BACKOFF,
    voice: Voice = Voice.APP,
    game_on: bool = False,
    every: float = GAME_ON_EVERY,
) -> Comeback | str:
    """Log in again as ``account``; a Comeback, or why not in words.

    ``on_try`` hears each try's number before its wait. After ``delays`` it gives up,
    unless ``game_on`` (we have a game in progress): then it tries on, ``every``
    seconds apart, until cancelled. A refused login (the account is gone, the password
    changed) ends the tries at once: trying again cannot help.
    """
    waits = itertools.chain(delays, itertools.repeat(every) if game_on else ())
    for attempt, delay in enumerate(waits, start=1):
        on_try(attempt)
        await asyncio.sleep(delay)
        answer = await _log_in(account)
        if isinstance(answer, LoginOutcome):
            return words.LOGIN.said(answer, voice)
        if answer is not None:
            return answer
    return words.gave_up(f"{account.host}:{account.port}", len(delays))


async def _logged_in(link: LobbyLink, account: Account) -> LoginOutcome | UnknownStatus | str:
    """LOGIN as ``account``, or a guest's KEYGUEST; a guest refused, in words."""
    if not account.guest:
        return await link.login(account.user, account.password)
    if await link.key_guest(account.password) is None:
        return GUEST_REFUSED
    return LoginOutcome.LOGGED_IN


async def _log_in(account: Account) -> Comeback | LoginOutcome | str | None:
    """One try: the comeback, the refusal, or None when the server did not answer."""
    try:
        fresh = await LobbyLink.open(
            account.host, account.port, dialect=account.dialect, tls=account.tls
        )
    except NetworkError:
        return None
    try:
        outcome = await _logged_in(fresh, account)
        if outcome is not LoginOutcome.LOGGED_IN:
            await fresh.close()
            return outcome if isinstance(outcome, LoginOutcome | str) else None
        # REJOIN comes right after the login's answer, so by the answer to the room
        # list it is in: ``rejoined`` is settled.
        rooms = await fresh.room_names(wire.Mode.VIEWER)
    except (NetworkError, ProtocolError, TimeoutError):
        await fresh.close()
        return None
    except asyncio.CancelledError:  # given up (Esc, quit) mid-login: hang the half-way link up
        await asyncio.shield(fresh.close())
        raise
    return Comeback(fresh, fresh.rejoined, rooms)


async def last_game(link: LobbyLink, between: tuple[str, str] | None = None) -> KeptGame | None:
    """Our newest finished game: how a game ended while we were away (None: none kept).

    ``between``: its red and yellow players; None too when the newest game is not theirs.
    """
    numbers = await link.history()
    newest = await link.kept_game(numbers[0]) if numbers else None
    if newest is None or between is None or (newest.red, newest.yellow) == between:
        return newest
    return None
