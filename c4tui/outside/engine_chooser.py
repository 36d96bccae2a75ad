"""A program speaking the engine protocol (spec §6), run as a shell command in its own process.

The conversation: ``c4e`` → (``id`` lines) ``c4eok`` once at the start; for each new
game ``newgame`` and ``isready`` → ``readyok``; for each move ``position`` and
``go movetime`` → ``bestmove``. Each answer must come in time (the move's limit and
``TIME_MARGIN``; ``START_SECONDS`` for the start and a new game); lines that are not
the awaited answer (``info …``) are skipped. Any failure kills the process, and the
next ``choose`` starts the program afresh.
"""

from __future__ import annotations

import os
import shlex
import shutil
from collections.abc import Sequence
from pathlib import Path
from typing import TypeVar

from c4tui.engine import GameState, Move, Rules
from c4tui.net.errors import ProtocolError
from c4tui.outside.chooser import (
    Answered,
    ChooserError,
    FailureKind,
    OutsideFailure,
    game_so_far,
)
from c4tui.outside.process import OutsideProcess
from c4tui.outside.program import DEFAULT_LIMITS, Limits, ProgramChooser
from c4tui.outside.sandbox import (
    PROGRAM_FOLDER,
    Grant,
    Launch,
    grants_for_words,
    printable,
    sandbox_path,
)
from c4tui.protocols.engine import (
    BestMove,
    EngineAnswer,
    EngineCommand,
    Go,
    Hello,
    HelloDone,
    Identity,
    IsReady,
    NewGame,
    Position,
    Quit,
    ReadyOk,
    format_command,
    parse_answer,
)

Game = tuple[int, int, Rules]
A = TypeVar("A", bound=EngineAnswer)
#: Programs that run a script: a command's name is then its script's.
_INTERPRETERS = ("python", "pypy", "node", "ruby", "perl", "java", "env")
#: Endings of a script's file: such a word is a path even when no file is there.
_SCRIPT_SUFFIXES = frozenset({".py", ".js", ".rb", ".pl", ".sh", ".jar", ".exe", ".lua"})
#: What makes a command more than words to ``with_absolute_paths``.
_SHELL_SYNTAX = frozenset(";&|<>()$`\\*?[]{}~#!\n")


class EngineChooser(ProgramChooser):
    """An engine program as a move-chooser.

    Args:
        command: the shell command that starts it (``python3 my_engine.py --fast``).
        name: what tables call it (default: the command's program, ``my_engine.py``).
        limits: its memory, start time, margin and log.

    The program runs in its sandbox (``sandbox.py``), where it sees of the host's files
    only the runtime and the files and folders its command names (relative to the
    current folder or absolute), read-only at ``/program/<name>``, its command
    rewritten to name them there; ``/program`` is its working folder. That holds for a
    plain command (words, quotes, options): a command with the shell's own syntax (a
    pipe, ``&&``, a variable, a pattern) runs as given and is granted no file.
    Unconfined, it runs in a fresh folder of its own with those paths made absolute.

    Raises ChooserError for an empty command.
    """

    def __init__(
        self, command: str, *, name: str | None = None, limits: Limits = DEFAULT_LIMITS
    ) -> None:
        if not command.strip():
            raise ChooserError("an engine needs a command to start it")
        super().__init__(name or _program_of(command), limits)
        self.command = command
        here = Path.cwd()
        #: The command as it runs unconfined, in a folder of its own: its paths made absolute.
        self._script = with_absolute_paths(command, here)
        #: The files and folders it names, and the command as it runs in its sandbox.
        self._grants, self._sandboxed_script = _in_sandbox(command, here)
        self._identity: dict[str, str] = {}
        #: The game the engine was last told of, and the position it last answered in it.
        self._game: Game | None = None
        self._seen: tuple[Move, ...] | None = None
        self._answered: Answered | None = None

    def describe(self) -> str:
        """``engine 'python3 my.py' (Deep Four by Ann)``: the command, and what it said it is."""
        said = self._identity.get("name", "")
        if "author" in self._identity:
            said = f"{said or 'an engine'} by {self._identity['author']}"
        return f"engine {self.command!r}" + (f" ({said})" if said else "")

    async def close(self) -> None:
        """Say ``quit``, give it a moment, then end its process group."""
        process, self._process = self._process, None
        if process is not None:
            await process.stop(format_command(Quit()))

    async def _ask(self, state: GameState, time_limit: float, moves: Sequence[Move] | None) -> Move:
        """``position`` and ``go movetime``, then the ``bestmove``."""
        played = game_so_far(state, moves, self._answered)
        process = await self._ready_for((state.columns, state.rows, state.rules), played)
        for line in process.waiting():  # said since the last answer, unasked
            self._check_unasked(line)
        await self._send(process, Position(played))
        await self._send(process, Go(max(1, round(time_limit * 1000))))
        move = (await self._await(process, BestMove, time_limit)).move
        self._seen = played
        if state.is_legal(move):  # the next question may come without its moves
            self._answered = (state.play(move), (*played, move))
        return move

    async def _ready_for(self, game: Game, played: tuple[Move, ...]) -> OutsideProcess:
        """The running engine, told of a new game unless this position goes on the last one.

        It goes on only when it has more moves than the position last answered and
        begins with them: the same position again (a bot's first game after the move it
        was tried with, an undo) is a new game, said with ``newgame`` and ``isready``.
        """
        process = self._process or await self._started()
        seen = self._seen
        goes_on = (
            game == self._game
            and seen is not None
            and len(played) > len(seen)
            and played[: len(seen)] == seen
        )
        if not goes_on:
            await self._send(process, NewGame(*game))
            await self._send(process, IsReady())
            await self._await(process, ReadyOk, self.limits.start_seconds)
            self._game, self._seen = game, None
        return process

    def _launch(self, sandboxed: bool) -> Launch:
        """The shell running the command: sandboxed with its files, or in a folder of its own."""
        if sandboxed:
            script = shell_script(self._sandboxed_script)
            return Launch(("/bin/sh", "-c", script), self._grants, PROGRAM_FOLDER)
        return Launch(("/bin/sh", "-c", shell_script(self._script)), cwd=None)

    async def _started(self) -> OutsideProcess:
        """Start the program and shake hands: ``c4e`` → ``c4eok``."""
        process = await self._start()
        self._process = process
        self._game, self._seen = None, None  # a new process has heard of no game
        await self._send(process, Hello())
        self._identity = {}
        await self._await(process, HelloDone, self.limits.start_seconds)
        return process

    async def _send(self, process: OutsideProcess, command: EngineCommand) -> None:
        await process.send(format_command(command))

    async def _await(self, process: OutsideProcess, kind: type[A], seconds: float) -> A:
        """The next answer of ``kind``, skipping remarks; in ``seconds`` plus the margin."""
        deadline, patience = self._patience(seconds)
        while True:
            line = await process.read_line(deadline, patience)
            try:
                answer = parse_answer(line)
            except ProtocolError as error:
                raise OutsideFailure(FailureKind.MALFORMED, str(error)) from None
            if isinstance(answer, kind):
                return answer
            self._check_unasked(line)
            if isinstance(answer, Identity):
                self._identity[answer.field] = answer.text

    def _check_unasked(self, line: str) -> None:
        """A ``bestmove`` nobody asked for is malformed (it would answer the next question)."""
        try:
            answer = parse_answer(line)
        except ProtocolError:
            return  # remarks between answers are ignored
        if isinstance(answer, BestMove):
            shown = printable(line, 80)
            raise OutsideFailure(FailureKind.MALFORMED, f"a move when not asked: {shown!r}")


def shell_script(command: str) -> str:
    """What the shell runs: a plain command as ``exec`` of it, so the program is the process.

    The shell then starts nothing of its own: the program itself is the process c4tui
    started, killed with it if c4tui dies (``PR_SET_PDEATHSIG`` is kept through
    ``exec``). A command with the shell's own syntax (a pipe, ``&&``) or that sets a
    variable first (``DEPTH=8 ./deep``) runs as given.
    """
    words = command.split()
    if not words or "=" in words[0] or any(c in _SHELL_SYNTAX for c in command):
        return command
    return f"exec {command}"


def with_absolute_paths(command: str, base: Path) -> str:
    """``command`` with the words that are paths under ``base`` made absolute.

    A word is taken for a path when it names a file or folder there (``bots/deep``,
    ``my_engine.py``, a bare folder ``deep``; not the module after ``-m``, nor the
    command's own name), or when it ends as a script does (``nope.py``): a missing
    script is then said missing where it was typed, not in the program's own folder.
    Only in a plain command (words, quotes, options): anything else the shell would
    read is left as it is.
    """
    return _rewritten(command, base, inside=False)[1]


def _in_sandbox(command: str, base: Path) -> tuple[tuple[Grant, ...], str]:
    """What a command is granted in its sandbox, and the command naming them where it sees them."""
    return _rewritten(command, base, inside=True)


def _rewritten(command: str, base: Path, *, inside: bool) -> tuple[tuple[Grant, ...], str]:
    """The grants of a plain command's paths, and it with each path where the program sees it."""
    words = _plain_words(command)
    if words is None:
        return (), command
    grants = grants_for_words(words, base)
    rewritten = [
        (grants[word].inside if inside else str(grants[word].host))
        if word in grants
        else os.path.abspath(base / word)
        if _looks_like_a_script(word) and not word.startswith("/")
        else word
        for word in words
    ]
    return tuple(grants.values()), command if rewritten == words else shlex.join(rewritten)


def _plain_words(command: str) -> list[str] | None:
    """The words of a plain command; None for one with the shell's own syntax."""
    if any(character in _SHELL_SYNTAX for character in command):
        return None
    try:
        return shlex.split(command)
    except ValueError:
        return None


def _looks_like_a_script(word: str) -> bool:
    """``nope.py``, ``bots/deep.js``: a file name, there or not (its error then names it here)."""
    return Path(word).suffix in _SCRIPT_SUFFIXES and not word.startswith("-")


def cannot_start(command: str, base: Path | None = None) -> str | None:
    """Why an engine's plain command cannot start (None: it may), told before any game.

    Its program must be on PATH, or there when named by a path, and a script it names
    (``nope.py``) must be there: otherwise the shell says so only once the game needs
    the program's first move. A command with the shell's own syntax (or a variable set
    before it) is the shell's to run, unchecked.
    """
    words = _plain_words(command)
    if not words or "=" in words[0]:
        return None
    here = base or Path.cwd()
    program = words[0]
    if os.sep in program and not (here / Path(program).expanduser()).exists():
        return f"there is no program {program!r} (no such file)"
    searched = os.pathsep.join([os.environ.get("PATH", ""), *sandbox_path()])  # both its PATHs
    if os.sep not in program and shutil.which(program, path=searched) is None:
        return f"there is no program {program!r} on PATH: check its spelling"
    for word in words[1:]:
        if _looks_like_a_script(word) and not (here / Path(word).expanduser()).exists():
            return f"the command names {word!r}, and there is no such file"
    return None


def _program_of(command: str) -> str:
    """The program a command runs, for a name: ``python3 bots/deep.py -q`` → ``deep.py``."""
    try:
        words = [word for word in shlex.split(command) if not word.startswith("-")]
    except ValueError:  # unbalanced quotes: the shell will say so when it runs
        words = command.split()
    while len(words) > 1 and Path(words[0]).name.startswith(_INTERPRETERS):
        words = words[1:]
    return Path(words[0]).name[:32] if words else "engine"
