"""A Kaggle ConnectX agent as a move-chooser, run by ``kaggle_runner`` in its own sandboxed process.

Kaggle's agents play classic Connect Four only (four in a row, any board size);
each is ``agent(observation, configuration)`` returning a 0-based column, with
``observation.board`` a flat list row by row from the top (0 empty, 1 the first
player, 2 the second) and ``observation.mark`` the mover's number. A submission is
a ``.py`` file, a folder with ``main.py``, or a ``.tar.gz`` holding ``main.py`` (as
Kaggle takes them); it is seen at ``/kaggle_simulations/agent``, its working folder,
as on Kaggle. The agent is loaded once per process; an exception, a sleep past its
time and its overage, something that is not a column, or a full column raise
``OutsideFailure`` and end the process.
"""

from __future__ import annotations

import atexit
import json
import shutil
import sys
import tarfile
import tempfile
import time
from collections.abc import Sequence
from functools import cache
from itertools import islice
from pathlib import Path
from typing import Any

from c4tui.engine import GameState, Move, Player, Rules
from c4tui.outside import kaggle_runner
from c4tui.outside.bounds import KAGGLE_OVERAGE_SECONDS
from c4tui.outside.chooser import ChooserError, FailureKind, OutsideFailure
from c4tui.outside.process import OutsideProcess
from c4tui.outside.program import DEFAULT_LIMITS, Limits, ProgramChooser
from c4tui.outside.sandbox import C4TUI_FOLDER, Grant, Launch

_MARKS = {None: 0, Player.RED: 1, Player.YELLOW: 2}
#: Where Kaggle puts a submission, and so where an agent finds its files.
AGENT_FOLDER = "/kaggle_simulations/agent"
#: The file a folder or an archive submission runs, as on Kaggle.
MAIN_FILE = "main.py"
#: ConnectX's configuration on Kaggle (``actTimeout`` becomes the move's time here).
KAGGLE_CONFIGURATION = {
    "episodeSteps": 1000,
    "actTimeout": 2,
    "agentTimeout": 60,
    "runTimeout": 1200,
    "inarow": 4,
}
#: An archive's unpacked size at most (it is unpacked on c4tui's machine).
MAX_UNPACKED_BYTES = 512 * 1024 * 1024
#: Files a submission may hold at most (an archive's members, a folder's entries).
MAX_SUBMISSION_FILES = 1000
_RUNNER = f"{C4TUI_FOLDER}/c4tui/outside/{Path(kaggle_runner.__file__).name}"


class KaggleChooser(ProgramChooser):
    """A ConnectX agent as a move-chooser.

    Args:
        path: the submission: a ``.py`` file (its last function is the agent), a folder
            with ``main.py``, or a ``.tar.gz`` with ``main.py`` at its top.
        name: what tables call it (default: the file's or folder's name).
        limits: its memory, loading time, margin and log (its prints go there too).
        seed: seeds its ``random`` and NumPy's generator (None: left to chance).
        python: the interpreter that runs it (default: ``limits.python``, else c4tui's).
        overage: seconds it may go past its moves' times in a game (default: ``limits``').

    Raises ChooserError when ``path`` is none of those.
    """

    def __init__(
        self,
        path: Path,
        *,
        name: str | None = None,
        limits: Limits = DEFAULT_LIMITS,
        seed: int | None = None,
        python: str | None = None,
        overage: float | None = None,
    ) -> None:
        folder, main = _submission(path)
        super().__init__(name or _name_of(path), limits)
        self.path = path.resolve()
        self._folder, self._main = folder, main
        self._seed = seed
        self._python = python or limits.python or sys.executable
        self._overage = self._game_overage = limits.overage if overage is None else overage
        self._last_step = -1

    def describe(self) -> str:
        """``Kaggle agent negamax.py``."""
        return f"Kaggle agent {self.path.name}"

    def refusal(self, columns: int, rows: int, rules: Rules) -> str | None:
        """Kaggle's ConnectX has no Pop Out: its agents play classic rules only."""
        if rules is not Rules.CLASSIC:
            return "a Kaggle agent plays classic rules only (ConnectX has no Pop Out)"
        return None

    async def _ask(self, state: GameState, time_limit: float, moves: Sequence[Move] | None) -> Move:
        """The agent's column for the board (all it is shown) as a drop, in its time and overage."""
        if state.disc_count <= self._last_step:  # a new game: the overage is whole again
            self._overage = self._game_overage
        self._last_step = state.disc_count
        process = self._process or await self._started()
        request = kaggle_request(state, time_limit, self._overage)
        asked = time.monotonic()
        await process.send(json.dumps(request))
        answer = await self._answer(process, time_limit + self._overage)
        self._overage = max(0.0, self._overage - max(0.0, time.monotonic() - asked - time_limit))
        return Move.drop(_column_in(answer))

    def _launch(self, sandboxed: bool) -> Launch:
        """The runner on the agent: at Kaggle's folder in the sandbox, else where it lies."""
        seed = [] if self._seed is None else ["--seed", str(self._seed)]
        if not sandboxed:  # by its file, so the runner needs no c4tui on the agent's path
            argv = (self._python, kaggle_runner.__file__, str(self._folder / self._main), *seed)
            return Launch(argv, cwd=str(self._folder))
        if self._main == MAIN_FILE and self.path.suffix != ".py":  # a folder: all it holds
            files = sorted(islice(self._folder.iterdir(), MAX_SUBMISSION_FILES + 1))
            if len(files) > MAX_SUBMISSION_FILES:
                raise OutsideFailure(
                    FailureKind.CRASH, f"its folder holds more than {MAX_SUBMISSION_FILES} files"
                )
        else:  # one file: only it, not the folder of classmates' files it lies in
            files = [self._folder / self._main]
        grants = tuple(
            Grant(file, f"{AGENT_FOLDER}/{file.name}", link=file.is_symlink()) for file in files
        )
        argv = (self._python, _RUNNER, f"{AGENT_FOLDER}/{self._main}", *seed)
        return Launch(argv, grants, AGENT_FOLDER)  # its files read-only in a folder it may write

    async def _started(self) -> OutsideProcess:
        """Start the runner on the agent and wait until it is loaded."""
        process = await self._start()
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


def _name_of(path: Path) -> str:
    """``ann`` for ``ann.py``, ``ann/`` and ``ann.tar.gz``; a Kaggle ``submission`` its folder's."""
    name = path.resolve().name.removesuffix(".tar.gz").removesuffix(".py")
    if name in ("submission", "main") and path.resolve().parent.name:
        return path.resolve().parent.name
    return name


def _submission(path: Path) -> tuple[Path, str]:
    """The folder holding the agent and the agent's file in it; ChooserError if it is none."""
    if path.is_dir():
        if not (path / MAIN_FILE).is_file():
            raise ChooserError(f"the folder {str(path)!r} has no {MAIN_FILE} (Kaggle runs that)")
        return path.resolve(), MAIN_FILE
    if not path.is_file():
        raise ChooserError(f"there is no file {str(path)!r}")
    if path.name.endswith(".tar.gz"):
        return _unpacked(path), MAIN_FILE
    if path.suffix != ".py":
        raise ChooserError(
            f"{str(path)!r} is not a Kaggle submission (a .py file, a folder with "
            f"{MAIN_FILE} or a .tar.gz)"
        )
    return path.resolve().parent, path.name


def _unpacked(archive: Path) -> Path:
    """``archive`` unpacked safely, once for as long as it is unchanged (removed at exit).

    Every game's chooser is made anew: the archive is unpacked for the first only.
    """
    found = archive.resolve().stat()
    return _unpacked_once(archive.resolve(), found.st_mtime_ns, found.st_size)


@cache
def _unpacked_once(archive: Path, mtime_ns: int, size: int) -> Path:
    """``archive`` (as it is at ``mtime_ns``, ``size``) unpacked into a folder of its own."""
    folder = Path(tempfile.mkdtemp(prefix="c4tui-agent-"))
    atexit.register(shutil.rmtree, folder, True)
    try:
        with tarfile.open(archive, "r:gz") as tar:
            members = _members(tar, archive.name)
            tar.extractall(folder, members, filter="data")  # nothing outside it, no devices
    except (tarfile.TarError, OSError, EOFError) as error:
        shutil.rmtree(folder, ignore_errors=True)
        raise ChooserError(f"{archive.name} cannot be unpacked: {error}") from None
    if not (folder / MAIN_FILE).is_file():
        shutil.rmtree(folder, ignore_errors=True)
        raise ChooserError(f"{archive.name} has no {MAIN_FILE} at its top (Kaggle runs that)")
    return folder


def _members(tar: tarfile.TarFile, name: str) -> list[tarfile.TarInfo]:
    """The archive's members, read one by one: ChooserError past the bounds (a tar bomb)."""
    members, size = [], 0
    for member in tar:
        members.append(member)
        size += member.size
        if len(members) > MAX_SUBMISSION_FILES:
            raise ChooserError(f"{name} holds more than {MAX_SUBMISSION_FILES} files")
        if size > MAX_UNPACKED_BYTES:
            raise ChooserError(f"{name} unpacks to more than 512 MB")
    return members


def kaggle_request(
    state: GameState, time_limit: float, overage: float = KAGGLE_OVERAGE_SECONDS
) -> dict[str, Any]:
    """The observation and configuration Kaggle would give an agent in ``state``.

    Kaggle's own configuration, with the board's size and the move's time as
    ``actTimeout`` (and its older name ``timeout``); ``overage`` is what is left of
    the agent's time past its moves' in this game.
    """
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
            "remainingOverageTime": round(overage, 3),
        },
        "configuration": {
            **KAGGLE_CONFIGURATION,
            "columns": state.columns,
            "rows": state.rows,
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
