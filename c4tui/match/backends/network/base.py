"""What the menu, forms and the command line know of network opponents: address, protocols.

Light on purpose: the registry lists the network opponent with the menu, so
nothing here loads a codec or a connection. The games that speak each protocol
are in ``session`` and the modules it loads, with their codecs.
"""

from __future__ import annotations

import getpass
from collections.abc import Callable
from dataclasses import dataclass

from c4tui.engine import Rules
from c4tui.net.address import DEFAULT_HOST, DEFAULT_PORT


@dataclass(frozen=True)
class ServerAddress:
    """Where to connect and as whom."""

    host: str = DEFAULT_HOST
    port: int = DEFAULT_PORT
    username: str = "player"

    def __str__(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"{host}:{self.port}"


def login_name(acceptable: Callable[[str], bool]) -> str:
    """The user's login name if the protocol ``acceptable`` takes it, else ``player``."""
    try:
        name = getpass.getuser()
    except (KeyError, OSError):
        return "player"
    return name if acceptable(name) else "player"


@dataclass(frozen=True)
class ClientProtocol:
    """A protocol the app and the console play a server's AI in, as forms describe it.

    Words and limits only: the game that speaks it (``network.session``) loads
    with its codec once a game starts, not when the menu lists the protocols.
    """

    #: The protocol's key (``--protocol``), name and a line for the connect dialog.
    key: str
    name: str
    summary: str
    #: Whether the protocol sends the username.
    uses_username: bool = False
    #: The only board the protocol plays (None: any size the engine allows).
    only_size: tuple[int, int] | None = None
    #: The rules it can play.
    rules: tuple[Rules, ...] = (Rules.CLASSIC, Rules.POPOUT)

    def game_for(self, columns: int, rows: int, rules: Rules) -> tuple[int, int, Rules]:
        """The game played when this one is asked for: the nearest the protocol allows."""
        if self.only_size is not None:
            columns, rows = self.only_size
        return columns, rows, rules if rules in self.rules else self.rules[0]

    def limits(self) -> str:
        """The protocol's limits in words ("" when it plays every game)."""
        parts = []
        if self.only_size is not None:
            parts.append(f"{self.only_size[0]} × {self.only_size[1]} only")
        if len(self.rules) == 1:
            parts.append("Pop Out rules" if self.rules[0] is Rules.POPOUT else "classic rules")
        return f"{self.name} plays {' and '.join(parts)}." if parts else ""


I32CFSP = ClientProtocol(
    "i32cfsp",
    "I32CFSP",
    "ICS 32's protocol (I32CFSP_HELLO): any size, classic or Pop Out. c4tui serve's own.",
    uses_username=True,
)
CFSP = ClientProtocol(
    "cfsp",
    "CFSP",
    "ICS 32's later protocol (GAME rows columns): any size, Pop Out rules.",
    rules=(Rules.POPOUT,),  # cfsp.RULES (a test holds them equal)
)
C4N = ClientProtocol(
    "c4n",
    "C4N",
    "Connect I4n's protocol (C4N 1.0 START): classic rules on 7 × 6 only.",
    only_size=(7, 6),  # c4n.COLUMNS, c4n.ROWS (a test holds them equal)
    rules=(Rules.CLASSIC,),
)
