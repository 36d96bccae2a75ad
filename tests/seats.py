"""Seats for tests: opponents that are slow, that leave, that cheat, or that fail."""

from __future__ import annotations

import asyncio

from c4tui.engine import GameState, Move
from c4tui.match.backends import Backend
from c4tui.match.driver import OpponentLeft


class SlowSeat(Backend):
    """An opponent that takes a minute to answer, and records being cancelled."""

    label = "Slowcoach"

    def __init__(self) -> None:
        self.asked = asyncio.Event()
        self.cancelled = False

    async def choose_move(self, state: GameState) -> Move:
        self.asked.set()
        try:
            await asyncio.sleep(60)
        except asyncio.CancelledError:
            self.cancelled = True
            raise
        return state.legal_moves()[0]


class LeavingSeat(Backend):
    """An opponent who forfeits when it is asked to move."""

    label = "Quitter"

    async def choose_move(self, state: GameState) -> Move:
        raise OpponentLeft("Quitter forfeited")


class CheatingSeat(Backend):
    """An opponent that answers with a column that does not exist."""

    label = "Cheat"

    async def choose_move(self, state: GameState) -> Move:
        return Move.drop(99)


class BrokenSeat(Backend):
    """An opponent whose connection fails: the front ends must report it, not crash."""

    label = "Broken"

    async def choose_move(self, state: GameState) -> Move:
        raise ConnectionError("the opponent vanished")
