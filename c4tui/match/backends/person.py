"""A person: at this keyboard, or at the far end of a server's connection."""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from c4tui.engine import GameState, Move
from c4tui.match.backends.base import Backend, SeatContext


class PersonBackend(Backend):
    """A person whose moves arrive through ``MatchDriver.submit`` (keys, clicks, typed lines).

    As an opponent kind it is the second person at the same keyboard.
    """

    key = "human"
    title = "Two players"
    noun = "person"
    summary = "Two people take turns at this keyboard."
    submits: ClassVar[bool] = True
    local_pair: ClassVar[bool] = True

    def __init__(self, label: str = "You") -> None:
        self.label = label

    @classmethod
    def create(cls, values: Mapping[str, str], context: SeatContext) -> Backend:
        """Another person here."""
        return cls("Opponent")

    @classmethod
    def describe(cls, values: Mapping[str, str]) -> str:
        """``two players``."""
        return "two players"

    async def choose_move(self, state: GameState) -> Move:
        """Never awaited: the driver waits for ``submit`` instead."""
        raise RuntimeError("a person's moves come through MatchDriver.submit")
