"""One game's talk with a server's AI, in one protocol: what every protocol's client shares.

Each protocol's client is a ``ServerGame``: it knows its protocol's messages and
checks them with the protocol's pure session; the ``ServerSession`` around it
does the connecting, the time limits and the hanging up, the same for all.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from typing import ClassVar

from c4tui.engine import GameState, Move
from c4tui.match.backends.network.base import ClientProtocol
from c4tui.net.errors import ProtocolError
from c4tui.net.framing import MessageStream
from c4tui.net.wire import quote
from c4tui.protocols.registry import ProtocolSpec


class ServerGame(ABC):
    """One game against a server's AI in one protocol: the greeting, then move by move.

    The person here is RED unless the server's AI moved first (``open`` says so).
    Methods raise ProtocolError, quoting what arrived, at the first thing that
    does not fit our own board.
    """

    #: The protocol as forms describe it (its key, name and limits).
    protocol: ClassVar[ClientProtocol]
    #: How the protocol's messages are framed.
    spec: ClassVar[ProtocolSpec]

    def __init__(self, stream: MessageStream, username: str, state: GameState) -> None:
        self.stream = stream
        self.username = username
        self.start_state = state

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

    async def ask_first(self, request: str, asked: str, check: Callable[[str], object]) -> str:
        """Send our first message (``asked`` names it) and ``check`` the answer (returned).

        An answer in another protocol raises ProtocolError saying which one it sounds like.
        """
        await self.stream.send(request)
        answer = await self.stream.read()
        try:
            check(answer)
        except ProtocolError:
            name = self.protocol.name
            if sounds_like(answer) == name:
                raise  # our protocol: the check's own words say best what is wrong
            raise ProtocolError(
                f"the server did not answer {asked} the way {name} says "
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
