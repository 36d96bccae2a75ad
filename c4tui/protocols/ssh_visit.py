"""What the ssh door (``c4tui serve --ssh-port``) tells each visitor's app, and how it reads it.

The door starts ``c4tui --ssh-visitor`` with the visit in its environment: a token
for the visit the door keeps in the lobby's store (the token logs in the account the
visitor's key is bound to, or makes one: §9), the lobby's address, the key's
fingerprint. Pure: the app reads its environment's mapping before Textual loads.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from c4tui.net.address import parse_host_port
from c4tui.numbers import number_in_range

#: What the door tells a visitor's app, in its environment.
TOKEN_ENV = "C4TUI_SSH_TOKEN"  # the visit's token: logs in the account the key is bound to
LOBBY_ENV = "C4TUI_SSH_LOBBY"  # host:port of this server's lobby, for its visitors only
KEY_ENV = "C4TUI_SSH_KEY"  # the visitor's key's fingerprint (SHA256:…), to show it
NAME_ENV = "C4TUI_SSH_NAME"  # the name ssh was given (ssh alice@…), offered for a new account
GUESTS_ENV = "C4TUI_SSH_GUESTS"  # "1": a key without an account may play here without one
IDLE_ENV = "C4TUI_SSH_IDLE"  # seconds with no key and no game before the app ends
ERRORS_ENV = "C4TUI_SSH_ERRORS"  # the server's folder for an app's crash report (not the visitor's)


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
    errors: str = ""  # where a crash's traceback goes: the visitor sees only that it happened

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
            errors=env.get(ERRORS_ENV, ""),
        )
