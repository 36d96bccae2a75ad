"""What the ssh door takes on, and what it tells a visitor's app (no asyncssh here).

The command line reads the defaults at every start, and the visitor's app reads the
environment its door gave it (``c4tui --ssh-visitor``), so neither loads asyncssh.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

#: Visitors at once, by default: each one is a whole app process (about 60 MB).
DEFAULT_MAX_VISITORS = 50
#: The host key's file in c4tui's data folder, made at the first start.
HOST_KEY_FILE = "ssh_host_ed25519_key"

#: The client's environment variables a visitor's app may see (ssh's SendEnv, SetEnv):
#: how it draws colours, nothing that could change how Python or the app runs.
CLIENT_ENV_ALLOWED = ("COLORTERM", "NO_COLOR")
#: What a visitor's terminal may show, at most: a terminal type is a short plain word.
MAX_ENV_VALUE = 64
#: The terminal type when the client's pseudo-terminal request names none.
DEFAULT_TERM = "xterm-256color"


class SshSetupError(Exception):
    """The ssh door cannot open: its host key, its port (the message says which, and why)."""


@dataclass(frozen=True)
class SshSettings:
    """How ``c4tui serve`` serves the app over ssh.

    ``host_key``: the host key's file (None: the one in c4tui's data folder, made at the
    first start). ``guests``: keys without an account may play locally (not online).
    ``idle_seconds``: a visitor with no key pressed and no game in progress is cut off.
    """

    port: int
    host_key: Path | None = None
    max_visitors: int = DEFAULT_MAX_VISITORS
    guests: bool = False
    idle_seconds: float = 600.0
    session_seconds: float = 30.0  # a proven key's time to open its session (ssh -N: cut)


@dataclass(frozen=True)
class VisitCard:
    """What a visitor's app is told of its visit: its token, its key, the name ssh gave."""

    token: str
    fingerprint: str
    name: str
