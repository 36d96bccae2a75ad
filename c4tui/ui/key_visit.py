"""An ssh visitor's app (``c4tui serve --ssh-port``): what its door told it, in plain values.

No Textual here: ``c4tui --ssh-visitor`` reads it before the app loads. The door
gives the app a token for its visit in the lobby's store; the token logs in the
account the visitor's key is bound to, or makes one (``client.keys``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from c4tui.net.address import parse_host_port
from c4tui.numbers import number_in_range
from c4tui.server.ssh.settings import (
    GUESTS_ENV,
    IDLE_ENV,
    KEY_ENV,
    LOBBY_ENV,
    NAME_ENV,
    TOKEN_ENV,
)

#: The longest idle time a door may give (a day): anything else is a mistake.
MAX_IDLE_SECONDS = 86_400


@dataclass(frozen=True)
class KeyVisit:
    """One ssh visit: its token, this server's lobby, its key, the name ssh gave, what is allowed.

    ``guests``: the visitor may play here (not online) without an account.
    ``idle_seconds``: the app ends after so long with no key and no game in progress.
    """

    token: str
    lobby: tuple[str, int]
    fingerprint: str = ""
    name: str = ""
    guests: bool = False
    idle_seconds: float | None = None

    @classmethod
    def from_env(cls, env: Mapping[str, str]) -> KeyVisit:
        """The visit the door described in the app's environment (ValueError: it did not)."""
        idle = number_in_range(env.get(IDLE_ENV, ""), 1, MAX_IDLE_SECONDS)
        return cls(
            token=env.get(TOKEN_ENV, ""),
            lobby=parse_host_port(env.get(LOBBY_ENV, "")),
            fingerprint=env.get(KEY_ENV, ""),
            name=env.get(NAME_ENV, ""),
            guests=env.get(GUESTS_ENV) == "1",
            idle_seconds=None if idle is None else float(idle),
        )
