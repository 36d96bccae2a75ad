"""What an engine program and a Kaggle agent share: limits, a process, killed on any failure."""

from __future__ import annotations

import asyncio
import logging
import time
from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from functools import cache
from pathlib import Path

from c4tui.engine import GameState, Move, Rules
from c4tui.outside.bounds import (
    DEFAULT_MEMORY_MB,
    DEFAULT_PROCESSES,
    KAGGLE_OVERAGE_SECONDS,
    START_SECONDS,
    Bounds,
)
from c4tui.outside.chooser import (
    TIME_MARGIN,
    ChooserError,
    FailureKind,
    OutsideFailure,
    checked_move,
    ready_to_choose,
)
from c4tui.outside.process import OutsideProcess
from c4tui.outside.sandbox import Launch, sandbox_problem

log = logging.getLogger("c4tui.outside")


class Sandboxing(Enum):
    """Whether a program must, may or need not run in the sandbox (``sandbox.py``)."""

    #: Other people's programs (a tournament, a bot, the server's AI): no sandbox, no start.
    REQUIRED = "required"
    #: Your own program (the app, the console): unconfined, with a warning, where none can be had.
    PREFERRED = "preferred"
    #: ``--unconfined``: the person running c4tui took the risk.
    OFF = "off"


@dataclass(frozen=True)
class Limits:
    """What an outside program may use, and where its standard error goes.

    Attributes:
        memory_mb: megabytes for all its processes together; None: no limit.
        processes: processes and threads it may have at once.
        sandboxing: whether it runs in the sandbox.
        start_seconds: how long its start (and an engine's new game) may take.
        margin: seconds its answers may come after a move's time limit.
        stderr_log: a file its standard error (and an agent's prints) is appended to;
            None: only its last lines are kept, to say why it crashed.
        exchange_log: a file the protocol's lines are appended to (``> sent``,
            ``< received``), for its author to debug; None: not kept.
        label: what each start of it is for (``game 3``), a header in ``stderr_log``.
        python: the interpreter that runs a Kaggle agent, as its sandbox sees it
            (None: c4tui's own).
        overage: seconds a Kaggle agent may go past its moves' times in a game
            (Kaggle's ``remainingOverageTime``; 0 where a person waits on a clock).
    """

    memory_mb: int | None = DEFAULT_MEMORY_MB
    processes: int = DEFAULT_PROCESSES
    sandboxing: Sandboxing = Sandboxing.PREFERRED
    start_seconds: float = START_SECONDS
    margin: float = TIME_MARGIN
    stderr_log: Path | None = None
    exchange_log: Path | None = None
    label: str = ""
    python: str | None = None
    overage: float = KAGGLE_OVERAGE_SECONDS

    @property
    def bounds(self) -> Bounds:
        """What its cgroups (or rlimits) bound."""
        return Bounds(self.memory_mb, self.processes)

    def sandboxed(self) -> bool:
        """True when the program runs sandboxed; OutsideFailure where it must and cannot."""
        if self.sandboxing is Sandboxing.OFF:
            return False
        problem = sandbox_problem()
        if problem is None:
            return True
        if self.sandboxing is Sandboxing.REQUIRED:
            raise OutsideFailure(FailureKind.CRASH, f"no sandbox: {problem}")
        _warn_unconfined(problem)
        return False


@cache
def _warn_unconfined(problem: str) -> None:
    """Logged once: your own program runs without the sandbox (the app and console say so)."""
    log.info("a program runs unconfined (it can read and change your files): %s", problem)


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
            move = await self._ask(state, time_limit, moves)
            self._check_bounds()
            return checked_move(state, move)
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

    def _check_bounds(self) -> None:
        """A program over its memory loses, even when it plays on (only a child was killed)."""
        bound = None if self._process is None else self._process.memory_exceeded()
        if bound is not None:
            raise OutsideFailure(FailureKind.CRASH, bound)

    async def close(self) -> None:
        """End its process group, if one runs."""
        await self._kill()

    async def _kill(self) -> None:
        """End the process group at once; the next ``choose`` starts the program afresh."""
        process, self._process = self._process, None
        if process is not None:
            await process.kill()

    @abstractmethod
    def _launch(self, sandboxed: bool) -> Launch:
        """How to start the program: in its sandbox (paths as it sees them there) or not."""

    async def _start(self) -> OutsideProcess:
        """Start the program within this chooser's limits (in its sandbox unless unconfined)."""
        limits = self.limits
        sandboxed = limits.sandboxed()
        return await OutsideProcess.start(
            self._launch(sandboxed),
            bounds=limits.bounds,
            sandboxed=sandboxed,
            stderr_log=limits.stderr_log,
            exchange_log=limits.exchange_log,
            label=limits.label,
        )

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
