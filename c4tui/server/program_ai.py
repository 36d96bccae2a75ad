"""An outside program as the server's AI (``c4tui serve --ai engine:CMD|kaggle:FILE.py``).

Each client's game gets a process of its own, started with the game and ended with it
(a client that hangs up mid-thought ends it too); at most ``limit`` run at once, and a
client beyond that is refused at once in its protocol's words, never kept waiting.
The program is tried once when the server starts, so a typo fails loudly then.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from c4tui.engine import C4Error, GameState
from c4tui.match.backends.program import parse_program
from c4tui.outside.chooser import OutsideFailure
from c4tui.outside.program import Limits, Sandboxing
from c4tui.outside.spec import chooser_for

log = logging.getLogger("c4tui.server")

#: A program as the server's AI: in the sandbox or not at all; no Kaggle overage (a person waits).
SERVER_AI_LIMITS = Limits(sandboxing=Sandboxing.REQUIRED, overage=0.0)

#: Why a client is refused when every program process is in use (the log says it).
BUSY = "the server's AI is busy, try again later"


def is_program(ai: str) -> bool:
    """True when ``--ai`` names an outside program (``engine:…``, ``kaggle:…``), not a level."""
    return ai.partition(":")[0] in ("engine", "kaggle")


class ProgramCheckFailed(C4Error):
    """The program named as the server's AI did not start or answer (why in words)."""


@dataclass
class ProgramSlots:
    """How many of the program's processes may run at once, and how many do."""

    limit: int
    taken: int = 0

    def take(self) -> bool:
        """One more process may start (True, counted) or every slot is taken (False)."""
        if self.taken >= self.limit:
            return False
        self.taken += 1
        return True

    def give_back(self) -> None:
        """A process ended: its slot is free again."""
        self.taken -= 1


async def check_program(ai: str, seconds: float, limits: Limits = SERVER_AI_LIMITS) -> str:
    """Start the program, ask it for a first move on an empty board, end it: what it is.

    Raises ProgramCheckFailed saying why it will not do.
    """
    try:
        chooser = chooser_for(parse_program(ai), limits=limits)
    except ValueError as error:  # ChooserError too
        raise ProgramCheckFailed(f"the AI {ai!r} will not do: {error}") from None
    try:
        await chooser.choose(GameState.new(), seconds)
        return chooser.describe()
    except OutsideFailure as failure:
        raise ProgramCheckFailed(f"the AI {ai!r} failed its first move: {failure}") from None
    finally:
        await chooser.close()


async def announce_program(
    ai: str, seconds: float, slots: ProgramSlots, limits: Limits = SERVER_AI_LIMITS
) -> None:
    """Check the program (ProgramCheckFailed if it fails) and log which it is."""
    described = await check_program(ai, seconds, limits)
    log.info(
        "the AI is %s: %g s a move, at most %d of its processes at once",
        described,
        seconds,
        slots.limit,
    )
