"""One interface for every kind of player: the match asks a Backend for its move.

Backends are awaited from an async worker of the UI, so a slow one (an AI
thinking, a server answering) never freezes the screen, and cancelling the
worker cancels the wait.
"""

from __future__ import annotations

import asyncio
import threading
import time

from c4tui.engine import GameState, Move
from c4tui.match.settings import MovePicker


class Backend:
    """A player of one colour. Subclasses override ``choose_move``; the rest is optional."""

    label = "Player"
    #: True when the moves come from a person at this UI (the board accepts input then).
    interactive = False
    #: False when moves cannot be taken back (a server does not undo).
    supports_undo = True

    async def start(self, state: GameState) -> None:
        """Get ready for a new game from ``state`` (a network backend connects here)."""

    async def choose_move(self, state: GameState) -> Move:
        """The move this player makes in ``state`` (it is this player's turn)."""
        raise NotImplementedError

    async def move_played(self, before: GameState, move: Move) -> None:
        """Told of every move played (a network backend forwards the opponent's)."""

    async def close(self) -> None:
        """Release whatever the backend holds (connections, threads)."""


class HumanBackend(Backend):
    """A person at this UI.

    Their moves arrive as key presses and clicks, so the UI plays them straight
    through the controller instead of awaiting ``choose_move``.
    """

    interactive = True

    def __init__(self, label: str = "You") -> None:
        self.label = label

    async def choose_move(self, state: GameState) -> Move:
        """Never awaited: a person's moves come from the UI's input events."""
        raise RuntimeError("a person's moves come from the UI, not from choose_move")


class AIBackend(Backend):
    """A computer player; its search runs in a thread so the event loop stays free."""

    def __init__(self, picker: MovePicker, label: str, min_delay: float = 0.0) -> None:
        self.label = label
        self._picker = picker
        self._min_delay = min_delay

    async def choose_move(self, state: GameState) -> Move:
        """Ask the picker in a thread; wait at least ``min_delay`` so a person sees it.

        Cancelling this coroutine (a new game, undo, leaving) also stops the
        search thread at its next look at the clock.
        """
        started = time.monotonic()
        cancel = threading.Event()
        try:
            move = await asyncio.to_thread(self._picker.choose_move, state, cancel)
        except asyncio.CancelledError:
            cancel.set()
            raise
        remaining = self._min_delay - (time.monotonic() - started)
        if remaining > 0:
            await asyncio.sleep(remaining)
        return move
