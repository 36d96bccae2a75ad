"""A Connect Four game on standard input and output, in the format of spec/console-format.md."""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from typing import TextIO, TypeVar

from c4tui.ai import RandomPlayer
from c4tui.engine import (
    MAX_SIZE,
    MIN_SIZE,
    GameState,
    Move,
    MoveSyntaxError,
    Player,
    Rules,
    describe_move,
    parse_move,
    parse_size,
    render_board,
    status_line,
)
from c4tui.match import AIBackend, Backend
from c4tui.match.network import I32CFSPBackend, NetworkError, ServerAddress

GOODBYE = "End of input: goodbye."
T = TypeVar("T")


class EndOfInput(Exception):
    """Standard input ran out (Ctrl-D or the end of a script)."""


@dataclass(frozen=True)
class ConsoleSettings:
    """What ``c4tui console`` was asked to play; None sizes are asked interactively."""

    columns: int | None = None
    rows: int | None = None
    rules: Rules = Rules.POPOUT
    opponent: str = "human"
    seed: int | None = None
    server: ServerAddress | None = None  # play against this server's AI instead


def opponent_for(settings: ConsoleSettings) -> Backend | None:
    """Who plays YELLOW: a server, the random AI, or (None) a second person here."""
    if settings.server is not None:
        backend: Backend = I32CFSPBackend(settings.server)
        backend.label = "server"
        return backend
    if settings.opponent == "random":
        return AIBackend(RandomPlayer(settings.seed), "computer")
    return None


class ConsoleGame:
    """Plays one game, reading moves from ``stdin`` and writing to ``stdout``."""

    def __init__(self, settings: ConsoleSettings, stdin: TextIO, stdout: TextIO) -> None:
        self._settings = settings
        self._stdin = stdin
        self._stdout = stdout
        self._opponent = opponent_for(settings)
        self._loop: asyncio.AbstractEventLoop | None = None
        # Typed answers are echoed only when nobody typed them, so transcripts read naturally.
        self._echo = not _is_terminal(stdin)

    def say(self, text: str = "") -> None:
        """Write one line and flush, so a reader on a pipe sees it at once."""
        self._stdout.write(text + "\n")
        self._stdout.flush()

    def ask(self, prompt: str) -> str:
        """Show ``prompt`` and read one line. Raises EndOfInput at the end of input."""
        self._stdout.write(prompt)
        self._stdout.flush()
        line = self._stdin.readline()
        if not line:
            self.say()
            raise EndOfInput
        answer = line.rstrip("\r\n")
        if self._echo:
            self.say(printable(answer))
        return answer

    def run(self) -> int:
        """Play the whole game; the exit status (0 also when input ends early)."""
        try:
            self._play(self._new_state())
        except EndOfInput:
            self.say(GOODBYE)
        except NetworkError as error:
            self.say(f"Network problem: {error}")
            return 1
        finally:
            self._shut_down()
        return 0

    def _wait_for(self, work: Coroutine[object, object, T]) -> T:
        """Run an opponent's coroutine to its end (the console itself is not async)."""
        if self._loop is None:
            self._loop = asyncio.new_event_loop()
        return self._loop.run_until_complete(work)

    def _shut_down(self) -> None:
        if self._opponent is not None and self._loop is not None:
            self._wait_for(self._opponent.close())
        if self._loop is not None:
            self._loop.close()

    def _new_state(self) -> GameState:
        columns = self._settings.columns or self._ask_size("columns")
        rows = self._settings.rows or self._ask_size("rows")
        return GameState.new(columns, rows, self._settings.rules)

    def _ask_size(self, name: str) -> int:
        while True:
            answer = self.ask(f"Number of {name} ({MIN_SIZE}-{MAX_SIZE}): ").strip()
            size = parse_size(answer)
            if size is not None:
                return size
            self.say(f"Please enter a whole number from {MIN_SIZE} to {MAX_SIZE}.")

    def _play(self, state: GameState) -> None:
        opponent = self._opponent
        if opponent is not None:
            server = self._settings.server
            if server is not None:
                self.say(f"Connecting to {server} as {server.username}…")
            self._wait_for(opponent.start(state))
        while not state.is_over:
            self.say(render_board(state))
            self.say(status_line(state))
            before = state
            move = self._next_move(state)
            state = state.play(move)
            if opponent is not None:
                self._wait_for(opponent.move_played(before, move))
            self.say()
        self.say(render_board(state))
        self.say(status_line(state))

    def _next_move(self, state: GameState) -> Move:
        opponent = self._opponent
        if opponent is not None and state.turn is Player.YELLOW:
            move = self._wait_for(opponent.choose_move(state))
            self.say(f"{state.turn.name} ({opponent.label}): {describe_move(move)}")
            return move
        return self._ask_move(state)

    def _ask_move(self, state: GameState) -> Move:
        while True:
            text = self.ask("Move: ")
            try:
                move = parse_move(text)
            except MoveSyntaxError as error:
                self.say(f"Invalid move: {error}; {move_hint(state.rules)}")
                continue
            reason = state.refusal(move)
            if reason is None:
                return move
            self.say(f"Invalid move: {reason}")


def printable(text: str) -> str:
    """``text`` with control characters escaped, so echoing it cannot upset a terminal."""
    return text if text.isprintable() else repr(text)[1:-1]


def move_hint(rules: Rules) -> str:
    """How to type a move, for the rules in play."""
    if rules is Rules.POPOUT:
        return "type a column number like 3 (or d 3) to drop, p 3 to pop"
    return "type a column number like 3 (or d 3) to drop"


def _is_terminal(stream: TextIO) -> bool:
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


def run_console(settings: ConsoleSettings, stdin: TextIO | None = None) -> int:
    """Entry point of ``c4tui console``: play on the real terminal, never with a traceback."""
    stdin = stdin or sys.stdin
    _tolerate_bad_bytes(stdin)
    game = ConsoleGame(settings, stdin, sys.stdout)
    return _quietly(game.run)


def _tolerate_bad_bytes(stream: TextIO) -> None:
    """Undecodable input becomes replacement characters instead of an exception."""
    reconfigure = getattr(stream, "reconfigure", None)
    if reconfigure is not None:
        reconfigure(errors="replace")


def _quietly(run: Callable[[], int]) -> int:
    """Run, turning Ctrl-C and a closed output pipe into a clean exit."""
    try:
        return run()
    except KeyboardInterrupt:
        print("\nInterrupted: goodbye.", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # The reader went away (e.g. `| head`); nothing more can be said to it.
        sys.stdout = None  # type: ignore[assignment]
        return 0
