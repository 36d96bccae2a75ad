"""``c4tui engine``'s side of the engine protocol (spec §6): c4tui's levels as a program.

Reads commands from a byte stream (standard input), answers on a text stream
(standard output), one line each, flushed at once. The codec is
``c4tui.protocols.engine``, the same one ``EngineChooser`` speaks from the other side.

What it does with what it is told:
- ``c4e`` → ``id name c4tui <Level>``, ``id author …``, ``c4eok``, at once: the
  level's search (NumPy, the solver) loads only when first needed.
- ``newgame`` starts loading and warming the level for that board in the search
  thread; ``isready`` answers ``readyok`` once that (and any move still being
  searched) is done, so the first ``go`` after it is as quick as the others (or
  after ``READY_SECONDS`` at most: the solver's first compilation can take longer,
  and a ``go`` meanwhile gets the quick move).
- ``position`` sets the game so far (checked move by move); ``go`` with none plays
  from the start of the last ``newgame`` (7 × 6 classic if there was none).
- ``go movetime MS`` answers within MS: the level searches its own budget, cut to
  fit the time less a reserve; if the search is still running when the reserve
  runs low, it is cancelled and a quick tactical move (a win, a block) is sent
  instead. ``go`` alone uses the level's own budget.
- Anything it cannot take (an unknown or malformed line, an illegal ``position``,
  ``go`` in a finished game) is answered with an ``info string`` remark saying
  why, which callers ignore; the engine goes on. ``quit`` or the end of input
  exits with status 0.
"""

from __future__ import annotations

import os
import sys
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import Future, wait
from concurrent.futures import TimeoutError as FutureTimeout
from typing import BinaryIO, TextIO

from c4tui.ai.levels import AILevel, MovePicker, TacticalPlayer, ai_level
from c4tui.engine import C4Error, GameState, Move, Rules
from c4tui.net.errors import ProtocolError
from c4tui.protocols.engine import (
    MAX_ENGINE_LINE,
    BestMove,
    EngineAnswer,
    Go,
    Hello,
    HelloDone,
    Identity,
    IsReady,
    NewGame,
    Position,
    Quit,
    ReadyOk,
    Remark,
    format_answer,
    parse_command,
)

AUTHOR = "the c4tui authors"
#: The most of a move's time kept back for answering (writing, the caller's reading).
MAX_RESERVE_SECONDS = 0.1
#: ... and at most this share of it, so a short movetime still leaves time to search.
RESERVE_SHARE = 0.25
#: The warm-up search's budget: enough to load the level and compile the solver.
WARM_UP_SECONDS = 0.05
#: How long ``isready`` waits for a warm-up (the solver's first compilation can take
#: longer on a slow machine): well within the 15 s a caller gives a new game.
READY_SECONDS = 10.0
Game = tuple[int, int, Rules]
CLASSIC_7X6: Game = (7, 6, Rules.CLASSIC)


def command_lines(stream: BinaryIO) -> Iterator[str]:
    """The lines of ``stream``, decoded leniently; a line past the limit is cut to it.

    Reading at most the limit at a time keeps an endless line from filling memory;
    the rest of such a line is skipped.
    """
    skipping = False
    while raw := stream.readline(MAX_ENGINE_LINE + 2):
        ended = raw.endswith(b"\n")
        if not skipping:
            yield raw.decode("utf-8", "replace")
        skipping = not ended


def speak(level: str, seed: int | None = None) -> int:
    """Be an engine at ``level`` on standard input and output; the exit status.

    0 after ``quit`` or the end of input, and when the caller stops reading (a
    closed output is the caller's goodbye); 130 after Ctrl-C, without a traceback.
    """
    speaker = Speaker(ai_level(level), sys.stdout, seed)
    try:
        return speaker.serve(command_lines(sys.stdin.buffer))
    except BrokenPipeError:
        # Python's advice: point standard output elsewhere, or its flush at exit fails too.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except KeyboardInterrupt:
        return 130


class Speaker:
    """One engine's conversation: the game it was told of, its level, its search thread.

    Args:
        level: the level that chooses the moves.
        out: where answers go (flushed after each line).
        seed: makes the level's random choices repeatable.
    """

    def __init__(self, level: AILevel, out: TextIO, seed: int | None = None) -> None:
        self.level = level
        self._out = out
        self._seed = seed
        #: Made in the search thread when first needed (Perfect's brings the solver).
        self._picker: MovePicker | None = None
        self._fallback = TacticalPlayer(seed)
        self._game: Game = CLASSIC_7X6
        self._state = GameState.new(*CLASSIC_7X6)
        #: One search at a time: a cancelled one finishes before the next begins.
        self._one_at_a_time = threading.Lock()
        self._searches: list[Future[Move]] = []

    def serve(self, lines: Iterator[str]) -> int:
        """Answer every line until ``quit`` or the end of input; the exit status (0).

        A search still running then (a cancelled one, a warm-up) is left to die with
        the process: its threads are daemons.
        """
        for line in lines:
            if not self.answer(line):
                break
        return 0

    def answer(self, line: str) -> bool:
        """Act on one line and say what it asks for; False after ``quit``."""
        if not line.strip():
            return True
        try:
            command = parse_command(line)
        except ProtocolError as error:
            self._remark(f"ignored: {error}")
            return True
        match command:
            case Hello():
                self._say(Identity("name", f"c4tui {self.level.name}"))
                self._say(Identity("author", AUTHOR))
                self._say(HelloDone())
            case NewGame(columns, rows, rules):
                self._new_game((columns, rows, rules))
            case Position(moves):
                self._set_position(moves)
            case Go(movetime_ms):
                self._go(movetime_ms)
            case IsReady():
                wait(self._searches, timeout=READY_SECONDS)
                self._say(ReadyOk())
            case Quit():
                return False
        return True

    def _new_game(self, game: Game) -> None:
        """Take the new board, and warm the level up on it while the caller goes on."""
        try:
            start = GameState.new(*game)
        except C4Error as error:
            self._remark(f"ignored: {error}")
            return
        self._game, self._state = game, start
        self._in_search_thread(lambda: self._pick(start, None, WARM_UP_SECONDS))

    def _set_position(self, moves: tuple[Move, ...]) -> None:
        """The game so far; an illegal one is said, and the start taken instead."""
        start = GameState.new(*self._game)
        try:
            self._state = start.play_all(moves)
        except C4Error as error:
            self._state = start
            self._remark(f"illegal position ({error}): playing from the start")

    def _go(self, movetime_ms: int | None) -> None:
        """Choose a move in the position and say it (or why there is none)."""
        state = self._state
        if state.is_over:
            self._remark("no move: the game is over")
            return
        if movetime_ms is None:
            self._say(BestMove(self._searched(state, None, None)))
            return
        seconds = movetime_ms / 1000
        reserve = min(MAX_RESERVE_SECONDS, seconds * RESERVE_SHARE)
        self._say(BestMove(self._searched(state, seconds - reserve, seconds - reserve / 2)))

    def _searched(self, state: GameState, budget: float | None, patience: float | None) -> Move:
        """The level's move in ``budget`` seconds, or a quick one if none comes in ``patience``."""
        cancel = threading.Event()
        limit = None if budget is None else max(0.0, budget)
        search = self._in_search_thread(lambda: self._pick(state, cancel, limit))
        try:
            return search.result(timeout=None if patience is None else max(0.0, patience))
        except FutureTimeout:
            cancel.set()
            search.cancel()  # not begun yet: it never will
            self._remark("out of time: a quick move instead")
        except Exception as error:  # a level's bug must not end the engine
            self._remark(f"the search failed ({error!r}): a quick move instead")
        return self._fallback.choose_move(state)

    def _pick(self, state: GameState, cancel: threading.Event | None, limit: float | None) -> Move:
        """The level's move (in the search thread): its picker made on the first call."""
        if self._picker is None:
            self._picker = self.level.make(self._seed)
        return self._picker.choose_move(state, cancel, limit)

    def _in_search_thread(self, work: Callable[[], Move]) -> Future[Move]:
        """Run ``work`` in a thread of its own, after the searches before it; its future."""
        future: Future[Move] = Future()

        def run() -> None:
            with self._one_at_a_time:
                if not future.set_running_or_notify_cancel():
                    return
                try:
                    future.set_result(work())
                except BaseException as error:  # handed to whoever waits for it
                    future.set_exception(error)

        self._searches = [search for search in self._searches if not search.done()]
        self._searches.append(future)
        threading.Thread(target=run, name="search", daemon=True).start()
        return future

    def _remark(self, text: str) -> None:
        self._say(Remark(f"info string {text}"))

    def _say(self, answer: EngineAnswer) -> None:
        self._out.write(format_answer(answer) + "\n")
        self._out.flush()
