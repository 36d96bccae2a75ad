"""What every network opponent shares: the address, one game's talk, problems in words.

Each protocol's client is a ``ServerGame``: it knows its protocol's messages and
checks them with the protocol's pure session; the NetworkBackend around it does
the connecting, the time limits and the hanging up, the same for all.
"""

from __future__ import annotations

import getpass
import socket
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from c4tui.engine import GameState, Move, Rules
from c4tui.net.address import DEFAULT_HOST, DEFAULT_PORT
from c4tui.net.errors import ConnectionClosed, NetworkError, WriteTimeout

if TYPE_CHECKING:
    from c4tui.net.framing import MessageStream
    from c4tui.protocols.registry import ProtocolSpec


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


def describe_network_error(error: BaseException, address: ServerAddress) -> str:  # noqa: PLR0911
    """One sentence saying what went wrong with the server at ``address``."""
    from c4tui.protocols.common import ProtocolError  # noqa: PLC0415 (loaded once playing)

    if isinstance(error, NetworkError):
        return str(error)
    if isinstance(error, ProtocolError):
        return f"The server broke the protocol: {error}"
    if isinstance(error, WriteTimeout):
        return f"The server at {address} stopped reading."
    if isinstance(error, ConnectionClosed | ConnectionResetError | BrokenPipeError):
        return f"The server at {address} hung up."
    if isinstance(error, socket.gaierror):
        return f"Unknown host {address.host!r}."
    if isinstance(error, ConnectionRefusedError):
        return f"Connection refused by {address}: is a server running there?"
    if isinstance(error, TimeoutError):
        return f"No answer from {address} in time."
    if isinstance(error, OSError):
        return f"Network error with {address}: {error.strerror or error}"
    return f"Unexpected problem with {address}: {error}"


class ServerGame(ABC):
    """One game against a server's AI in one protocol: the greeting, then move by move.

    The person here is RED unless the server's AI moved first (``open`` says so).
    Methods raise ProtocolError, quoting what arrived, at the first thing that
    does not fit our own board. The class describes the protocol to forms and the
    command line without loading it: its codec is imported once a game starts.
    """

    #: The protocol's key (``--protocol``), name and a line for the connect dialog.
    key: ClassVar[str]
    name: ClassVar[str]
    summary: ClassVar[str]
    #: Whether the protocol sends the username.
    uses_username: ClassVar[bool] = False
    #: The only board the protocol plays (None: any size the engine allows).
    only_size: ClassVar[tuple[int, int] | None] = None
    #: The rules it can play.
    rules: ClassVar[tuple[Rules, ...]] = (Rules.CLASSIC, Rules.POPOUT)

    def __init__(self, stream: MessageStream, username: str, state: GameState) -> None:
        self.stream = stream
        self.username = username
        self.start_state = state

    @classmethod
    @abstractmethod
    def spec(cls) -> ProtocolSpec:
        """How the protocol's messages are framed (its codec is imported here, when needed)."""

    @abstractmethod
    async def open(self) -> list[Move]:
        """Greet and ask for the game; the AI's moves made before ours (usually none)."""

    @abstractmethod
    async def exchange(self, move: Move) -> list[Move]:
        """Send our move; the AI's reply (none when our move ended the game)."""

    @property
    @abstractmethod
    def over(self) -> bool:
        """True once our own board shows the game over."""

    async def leave(self) -> None:  # noqa: B027 (most protocols have no goodbye)
        """Say goodbye before hanging up mid-game, if the protocol has a word for it."""

    @classmethod
    def game_for(cls, columns: int, rows: int, rules: Rules) -> tuple[int, int, Rules]:
        """The game played when this one is asked for: the nearest the protocol allows."""
        if cls.only_size is not None:
            columns, rows = cls.only_size
        return columns, rows, rules if rules in cls.rules else cls.rules[0]

    @classmethod
    def limits(cls) -> str:
        """The protocol's limits in words ("" when it plays every game)."""
        parts = []
        if cls.only_size is not None:
            parts.append(f"{cls.only_size[0]} × {cls.only_size[1]} only")
        if len(cls.rules) == 1:
            parts.append("Pop Out rules" if cls.rules[0] is Rules.POPOUT else "classic rules")
        return f"{cls.name} plays {' and '.join(parts)}." if parts else ""

    async def ask_first(self, request: str, asked: str, check: Callable[[str], object]) -> str:
        """Send our first message (``asked`` names it) and ``check`` the answer (returned).

        An answer in another protocol raises ProtocolError saying which one it sounds like.
        """
        from c4tui.protocols.common import ProtocolError, quote  # noqa: PLC0415

        await self.stream.send(request)
        answer = await self.stream.read()
        try:
            check(answer)
        except ProtocolError:
            if sounds_like(answer) == self.name:
                raise  # our protocol: the check's own words say best what is wrong
            raise ProtocolError(
                f"the server did not answer {asked} the way {self.name} says "
                f"(it said {quote(answer)}): {guess_protocol(answer)}"
            ) from None
        return answer


def sounds_like(answer: str) -> str | None:
    """The protocol a server's first answer to us belongs to, if it tells."""
    answer = answer.strip()
    if answer.startswith("C4N "):
        return "C4N"
    if answer.startswith("WELCOME"):
        return "I32CFSP"
    if answer == "START":
        return "CFSP"
    return None


def guess_protocol(answer: str) -> str:
    """A hint at the protocol a server speaks, from its first answer to us."""
    guess = sounds_like(answer)
    if guess is None:
        return "it may be full, or speak another protocol (I32CFSP, CFSP or C4N)."
    return f"is it a {guess} server? Choose {guess} in Protocol."
