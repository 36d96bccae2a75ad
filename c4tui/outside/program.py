"""What an engine program and a Kaggle agent share: limits, a process, killed on any failure."""

from __future__ import annotations

import asyncio
import time
from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from c4tui.engine import GameState, Move, Rules
from c4tui.outside.chooser import (
    START_SECONDS,
    TIME_MARGIN,
    ChooserError,
    OutsideFailure,
    checked_move,
    ready_to_choose,
)
from c4tui.outside.process import OutsideProcess

#: The address space a program may use (NumPy and a search's tables fit easily).
DEFAULT_MEMORY_MB = 2048


@dataclass(frozen=True)
class Limits:
    """What an outside program may use, and where its standard error goes.

    Attributes:
        memory_mb: its address space (``RLIMIT_AS``); None: no limit.
        start_seconds: how long its start (and an engine's new game) may take.
        margin: seconds its answers may come after a move's time limit.
        stderr_log: a file its standard error (and an agent's prints) is appended to;
            None: only its last lines are kept, to say why it crashed.
    """

    memory_mb: int | None = DEFAULT_MEMORY_MB
    start_seconds: float = START_SECONDS
    margin: float = TIME_MARGIN
    stderr_log: Path | None = None


#: The limits a program gets unless told otherwise.
DEFAULT_LIMITS = Limits()


class ProgramChooser(ABC):
    """A chooser whose moves come from a process of its own, started when first needed.

    A failure, or a ``choose`` cancelled, ends the process before ``OutsideFailure``
    (or the cancellation) reaches the caller, so the next ``choose`` starts the
    program afresh and no late answer is taken for the next question's.
    """

    def __init__(self, name: str, limits: Limits) -> None:
        self._name = name
        self.limits = limits
        self._process: OutsideProcess | None = None

    @property
    def name(self) -> str:
        """What tables call it."""
        return self._name

    @property
    def pid(self) -> int | None:
        """Its process's id (and process group's) while one runs: for logs and tests."""
        return None if self._process is None else self._process.pid

    @abstractmethod
    def describe(self) -> str:
        """What it is, in a few words."""

    def refusal(self, columns: int, rows: int, rules: Rules) -> str | None:
        """None: it plays every size and both rules (unless a kind says otherwise)."""
        return None

    async def choose(
        self, state: GameState, time_limit: float, moves: Sequence[Move] | None = None
    ) -> Move:
        """The program's move (see ``Chooser.choose``), checked to be legal."""
        ready_to_choose(state, time_limit)
        refusal = self.refusal(state.columns, state.rows, state.rules)
        if refusal is not None:
            raise ChooserError(refusal)
        try:
            return checked_move(state, await self._ask(state, time_limit, moves))
        except (OutsideFailure, asyncio.CancelledError):
            # Failed, or no longer asked (its answer would come to the next question).
            await self._kill()
            raise

    async def start(self) -> None:
        """Start the program now, unless it runs, and wait until it says it is ready.

        Ready is an engine's ``c4eok``, an agent's file loaded: a tournament's pre-flight
        tells a program that cannot start from one that fails a move. Raises
        OutsideFailure, its process ended.
        """
        if self._process is not None:
            return
        try:
            await self._started()
        except (OutsideFailure, asyncio.CancelledError):
            await self._kill()
            raise

    async def close(self) -> None:
        """End its process group, if one runs."""
        await self._kill()

    async def _kill(self) -> None:
        """End the process group at once; the next ``choose`` starts the program afresh."""
        process, self._process = self._process, None
        if process is not None:
            await process.kill()

    def _patience(self, seconds: float) -> tuple[float, str]:
        """The deadline of an answer due in ``seconds`` (and the margin), and it in words."""
        deadline = time.monotonic() + seconds + self.limits.margin
        return deadline, f"within {seconds:g} s and the {self.limits.margin:g} s margin"

    @abstractmethod
    async def _started(self) -> OutsideProcess:
        """Start the program (kept as ``_process`` at once) and wait until it is ready."""

    @abstractmethod
    async def _ask(self, state: GameState, time_limit: float, moves: Sequence[Move] | None) -> Move:
        """The program's answer for ``state`` (legal or not); raises OutsideFailure."""
