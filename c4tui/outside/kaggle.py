"""A Kaggle ConnectX agent file as a move-chooser, run by ``kaggle_runner`` in its own process.

Kaggle's agents play classic Connect Four only (four in a row, any board size);
each is ``agent(observation, configuration)`` returning a 0-based column, with
``observation.board`` a flat list row by row from the top (0 empty, 1 the first
player, 2 the second) and ``observation.mark`` the mover's number. The file is
loaded once per process; an exception, a sleep past the limit, something that
is not a column, or a full column raise ``OutsideFailure`` and end the process.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from c4tui.engine import GameState, Move, Player, Rules
from c4tui.outside import kaggle_runner
from c4tui.outside.chooser import ChooserError, FailureKind, OutsideFailure
from c4tui.outside.process import OutsideProcess
from c4tui.outside.program import DEFAULT_LIMITS, Limits, ProgramChooser

_MARKS = {None: 0, Player.RED: 1, Player.YELLOW: 2}


class KaggleChooser(ProgramChooser):
    """A ConnectX agent file as a move-chooser.

    Args:
        path: the agent's ``.py`` file (its last function is the agent).
        name: what tables call it (default: the file's name without ``.py``).
        limits: its memory, loading time, margin and log (its prints go there too).

    Raises ChooserError when ``path`` is not there or not a Python file.
    """

    def __init__(
        self, path: Path, *, name: str | None = None, limits: Limits = DEFAULT_LIMITS
    ) -> None:
        if not path.is_file():
            raise ChooserError(f"there is no file {str(path)!r}")
        if path.suffix != ".py":
            raise ChooserError(f"{str(path)!r} is not a Python file (a Kaggle agent is one)")
        super().__init__(name or path.stem, limits)
        self.path = path.resolve()

    def describe(self) -> str:
        """``Kaggle agent negamax.py``."""
        return f"Kaggle agent {self.path.name}"

    def refusal(self, columns: int, rows: int, rules: Rules) -> str | None:
        """Kaggle's ConnectX has no Pop Out: its agents play classic rules only."""
        if rules is not Rules.CLASSIC:
            return "a Kaggle agent plays classic rules only (ConnectX has no Pop Out)"
        return None

    async def _ask(self, state: GameState, time_limit: float, moves: Sequence[Move] | None) -> Move:
        """The agent's column for the board (all it is shown) as a drop."""
        process = self._process or await self._started()
        await process.send(json.dumps(kaggle_request(state, time_limit)))
        answer = await self._answer(process, time_limit)
        return Move.drop(_column_in(answer))

    async def _started(self) -> OutsideProcess:
        """Start the runner on the file and wait until the agent is loaded."""
        # By its file, so the runner needs no c4tui on the agent's path (it has none).
        process = await OutsideProcess.start(
            [sys.executable, kaggle_runner.__file__, str(self.path)],
            stderr_log=self.limits.stderr_log,
            memory_mb=self.limits.memory_mb,
        )
        self._process = process
        await self._answer(process, self.limits.start_seconds)
        return process

    async def _answer(self, process: OutsideProcess, seconds: float) -> dict[str, Any]:
        """The runner's next reply, in ``seconds`` plus the margin; an agent's error raised."""
        line = await process.read_line(*self._patience(seconds))
        try:
            answer = json.loads(line)
        except ValueError:
            answer = None
        if not isinstance(answer, dict):
            raise OutsideFailure(FailureKind.MALFORMED, f"the runner said {line[:80]!r}")
        if "error" in answer:
            raise OutsideFailure(FailureKind.CRASH, str(answer["error"]))
        if "returned" in answer:
            raise OutsideFailure(
                FailureKind.MALFORMED, f"returned {answer['returned']}, not a column"
            )
        return answer


def kaggle_request(state: GameState, time_limit: float) -> dict[str, Any]:
    """The observation and configuration Kaggle would give an agent in ``state``."""
    board = [
        _MARKS[state.cell(column, row)]
        for row in reversed(range(state.rows))
        for column in range(state.columns)
    ]
    timeout = int(time_limit) if time_limit == int(time_limit) else time_limit
    return {
        "observation": {
            "board": board,
            "mark": _MARKS[state.turn],
            "step": state.disc_count,
            "remainingOverageTime": 0,
        },
        "configuration": {
            "columns": state.columns,
            "rows": state.rows,
            "inarow": 4,
            "timeout": timeout,
            "actTimeout": timeout,
        },
    }


def _column_in(answer: dict[str, Any]) -> int:
    """The 0-based column of the runner's reply (its ``column``, checked to be a whole number)."""
    column = answer.get("column")
    if not isinstance(column, int) or isinstance(column, bool):
        raise OutsideFailure(FailureKind.MALFORMED, f"the runner said {answer!r}")
    return column
