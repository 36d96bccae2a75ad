"""An ssh guest in the lobby (§9, ``--ssh-guests``): it watches, and its play keys say so.

A guest (``OnlineSession.guest``) has no account: the server answers it only what
watching needs and BADAUTH to anything else. So the lobby's keys that would ask for
more (play, create, quick play, chat, challenge, block, report, a new password) say
``GUESTS_ONLY_WATCH`` instead of asking; w still watches, and the lists, profiles and
the leaderboard still show. Esc, then Online, opens the key's welcome again, where the
visitor may make an account.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Concatenate, ParamSpec, Protocol, TypeVar

from c4tui.ui.online_session import OnlineSession

#: What a guest's play key says.
GUESTS_ONLY_WATCH = "Guests only watch here: make an account to play (Esc, then Online)."
#: The lobby's help line for a guest: what it may do.
GUEST_HELP = (
    "You watch as a guest: w watches the chosen room's game (Esc leaves it), r refreshes, "
    "l: the leaderboard, p: the chosen room's players' games. Tab: the players online, i: "
    "their profile. To play, make an account: Esc, then Online."
)


class GuestAware(Protocol):
    """A lobby screen: its session, and its status line."""

    _session: OnlineSession

    def _say(self, text: str, error: bool = False) -> None: ...


P = ParamSpec("P")
L = TypeVar("L", bound=GuestAware)


def players_only(handler: Callable[Concatenate[L, P], None]) -> Callable[Concatenate[L, P], None]:
    """``handler`` for a lobby key a guest may not use: a guest is told so, and nothing is sent."""

    @functools.wraps(handler)
    def gated(screen: L, /, *args: P.args, **kwargs: P.kwargs) -> None:
        if screen._session.guest:
            screen._say(GUESTS_ONLY_WATCH, error=True)
            return
        handler(screen, *args, **kwargs)

    return gated
