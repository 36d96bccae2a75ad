"""Typed lines for an asyncio program: standard input read by a helper thread, on demand.

A blocking ``readline`` on the event loop would freeze the opponent's work (a
network answer, the AI); in a thread it does not. The thread is a daemon, so a
person who leaves mid-prompt (Ctrl-C) is not kept waiting for Enter.
"""

from __future__ import annotations

import asyncio
import contextlib
import getpass
import queue
import sys
import threading
from collections.abc import Awaitable, Callable
from typing import Any, TextIO, TypeVar

from c4tui.console.editing import LineEditor, line_editor
from c4tui.net.errors import NetworkError

if sys.platform != "win32":  # the terminal's settings (getpass loads it there too)
    import termios


class EndOfInput(Exception):
    """Standard input ran out (Ctrl-D or the end of a script)."""


class LineReader:
    """Reads one line of ``stream`` each time it is asked, in a daemon thread.

    A question abandoned mid-read (its task cancelled: the game ended meanwhile) leaves
    its read going on; the next question takes that line, without asking for another.
    At a terminal, ``editor`` reads the lines (editing, a history) and shows the prompts;
    otherwise ``show`` writes each prompt before its line is read.
    """

    def __init__(
        self, stream: TextIO, show: Callable[[str], None], editor: LineEditor | None = None
    ) -> None:
        self._stream = stream
        self._show = show
        self._editor = editor
        self._asked: queue.SimpleQueue[bool] = queue.SimpleQueue()  # edited, or read plainly
        self._under_way: bool | None = None  # a read asked for and not taken: edited?
        self._ended = False
        self._lines: asyncio.Queue[str] | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None

    async def readline(self, prompt: str = "", secret: bool = False) -> str:
        """The next line with its end, after ``prompt``; "" at the end of input.

        ``secret``: a password, read plainly (never edited, never in the history).
        """
        if self._thread is None:
            self._loop = asyncio.get_running_loop()
            self._lines = asyncio.Queue()
            self._thread = threading.Thread(target=self._read, name="stdin", daemon=True)
            self._thread.start()
        assert self._lines is not None
        edited = self._editor is not None and not secret
        asking = False
        if self._under_way is None and not self._ended:
            self._under_way = edited
            asking = True
        if self._under_way and self._editor is not None:
            self._editor.want(prompt, kept=not secret)
        else:
            self._show(prompt)
        if asking:  # once its prompt is known
            self._asked.put(edited)
        if self._ended and self._lines.empty():
            return ""
        line = await self._lines.get()
        self._under_way = None
        self._ended = not line and not self._stream.isatty()
        return line

    def _read(self) -> None:
        assert self._loop is not None and self._lines is not None
        while True:
            edited = self._asked.get()
            if edited and self._editor is not None:
                line = self._editor.read()
            else:
                try:
                    line = self._stream.readline()
                except (OSError, ValueError):
                    line = ""
            try:
                self._loop.call_soon_threadsafe(self._lines.put_nowait, line)
            except RuntimeError:  # the loop is gone: nobody is listening any more
                return
            if not line and not self._stream.isatty():
                return  # a pipe's end is for good; a terminal's Ctrl-D, for that line only


class PlainText:
    """A line-by-line front end's two halves: ``say`` a line, ``ask`` for one.

    Args:
        stdin: where typed lines come from (read in a helper thread).
        stdout: where lines go, flushed at once so a reader on a pipe sees them.
        echo: repeat each answer after its prompt (when nobody typed it, so that a
            transcript of a script reads naturally).
    """

    def __init__(self, stdin: TextIO, stdout: TextIO, echo: bool = False) -> None:
        #: Typed by a person (a terminal), not piped: the end of input may be a Ctrl-D.
        self.at_terminal = stdin.isatty()
        self._stdout = stdout
        self._echo = echo
        #: At a terminal, readline: lines are edited, and what is said goes above them.
        self._editor = line_editor(stdin, stdout)
        self._lines = LineReader(stdin, self._write, self._editor)

    def say(self, text: str = "") -> None:
        """Write one line and flush (at a terminal, above the line being typed)."""
        if self._editor is not None:
            self._editor.write(text + "\n")
        else:
            self._write(text + "\n")

    def interject(self, text: str, prompt: str) -> None:
        """``text`` while ``prompt`` waits: on a line of its own, then ``prompt`` again.

        At a terminal, the half-typed line comes back too, where it was.
        """
        if self._editor is not None:
            self._editor.write(text + "\n")
        else:
            self._write(f"\n{text}\n{prompt}")

    def _write(self, text: str) -> None:
        self._stdout.write(text)
        self._stdout.flush()

    async def ask(self, prompt: str) -> str:
        """Show ``prompt`` and read one line. Raises EndOfInput at the end of input."""
        answer = await self._line_after(prompt)
        if self._echo:
            self.say(printable(answer))
        return answer

    async def ask_secret(self, prompt: str) -> str:
        """``ask`` for a password: not echoed at a terminal, nor repeated in a transcript.

        Read as every other line is (a reader may be waiting for a line already, once a
        game's typing has ended), with the terminal's echo off meanwhile; ``getpass``
        would race that reader for the line. Raises EndOfInput at the end of input.
        """
        saved = _terminal_settings() if sys.stdin.isatty() else None
        if saved is not None:
            quiet = list(saved)
            quiet[3] &= ~termios.ECHO  # the local modes
            termios.tcsetattr(sys.stdin.fileno(), termios.TCSADRAIN, quiet)
        try:
            return await self._line_after(prompt, secret=True)
        finally:
            if saved is not None:
                _restore_terminal(saved)
                self.say()  # the Enter typed was not echoed either

    async def _line_after(self, prompt: str, secret: bool = False) -> str:
        """Show ``prompt`` and read one line, without its end. Raises EndOfInput."""
        line = await self._lines.readline(prompt, secret)
        if not line:
            self.say()
            raise EndOfInput
        return line.rstrip("\r\n")

    async def ask_unless_gone(self, prompt: str, gone: Awaitable[str]) -> str:
        """``ask``, unless ``gone`` (a server's hang-up, in words) comes first: NetworkError then.

        So a person at a prompt learns at once that the server went, not at the next command.
        """
        leaving = asyncio.ensure_future(gone)
        try:
            return await unless_left(self.ask(prompt), leaving)
        except EndOfInput:
            if leaving.done() and not leaving.cancelled():
                self.say()  # the prompt's line ends
                raise NetworkError(leaving.result()) from None
            raise
        finally:
            leaving.cancel()


def printable(text: str) -> str:
    """``text`` with control characters escaped, so echoing it cannot upset a terminal."""
    return text if text.isprintable() else repr(text)[1:-1]


async def read_secret(prompt: str) -> str:
    """A password typed at the terminal, without echo, read in a daemon thread.

    Not in the event loop's executor: Ctrl-C there would wait for Enter (the
    executor's threads are joined at exit). If the wait is cancelled (Ctrl-C), the
    terminal's echo, which ``getpass`` turned off, is turned back on here.
    Raises EndOfInput at the end of input.
    """
    loop = asyncio.get_running_loop()
    answer: asyncio.Future[str] = loop.create_future()
    saved = _terminal_settings()

    def settle(outcome: str | BaseException) -> None:
        if answer.done():
            return
        if isinstance(outcome, BaseException):
            answer.set_exception(outcome)
        else:
            answer.set_result(outcome)

    def read() -> None:
        try:
            outcome: str | BaseException = getpass.getpass(prompt)
        except (EOFError, OSError):
            outcome = EndOfInput()
        with contextlib.suppress(RuntimeError):  # the loop is gone: nobody is listening
            loop.call_soon_threadsafe(settle, outcome)

    threading.Thread(target=read, name="password", daemon=True).start()
    try:
        return await answer
    except asyncio.CancelledError:
        _restore_terminal(saved)
        raise


def _terminal_settings() -> list[Any] | None:
    """The terminal's settings now (None if standard input is no terminal)."""
    if sys.platform == "win32":
        return None
    try:
        return list(termios.tcgetattr(sys.stdin.fileno()))
    except (OSError, ValueError, AttributeError):
        return None


def _restore_terminal(saved: list[Any] | None) -> None:
    if saved is None or sys.platform == "win32":
        return
    with contextlib.suppress(OSError, ValueError):
        termios.tcsetattr(sys.stdin.fileno(), termios.TCSADRAIN, saved)


T = TypeVar("T")


async def unless_left(work: Awaitable[T], leaving: asyncio.Task[Any]) -> T:
    """What ``work`` gives, unless ``leaving`` ends first: then EndOfInput (or its error).

    ``leaving`` is what ends a wait early: the person typing quit (or Ctrl-D), or the
    server hanging up. ``work`` is cancelled if it is left unfinished, Ctrl-C included.
    """
    task = asyncio.ensure_future(work)
    try:
        await asyncio.wait({task, leaving}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        if not task.done():
            task.cancel()
    if not task.done() or task.cancelled():
        if leaving.done() and not leaving.cancelled():
            leaving.result()  # raises what ended it, if anything did
        raise EndOfInput
    return task.result()
