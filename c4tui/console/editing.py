"""Line editing and a history at a terminal: GNU readline behind ``input``.

The console reads each line in a helper thread (``lines.LineReader``) while the
server's news keeps coming. At a terminal that thread reads with ``input``, so the
arrows edit the line and bring back the lines typed before (this session's, kept in
memory only, ``HISTORY_LINES`` at most: nothing typed is written to disk). What the
console writes meanwhile goes above the line being typed, and the prompt with the
half-typed text comes back under it (``LineEditor.write``). Passwords never pass
through readline (they are read plainly with the echo off), so none enters the history.

A read whose question was abandoned (the game ended while its line was being typed)
goes on: the next question takes its line, its prompt shown instead (``LineEditor.want``).
readline cannot be told from Python to change the prompt of a line under way, so
that and the redrawing are asked of its C library (``rl_set_prompt``,
``rl_forced_update_display``); without them (another library) the prompt and the
line are written again by hand.
"""

from __future__ import annotations

import atexit
import contextlib
import shutil
import sys
import threading
from collections.abc import Callable
from typing import Any, TextIO

if sys.platform != "win32":
    import termios

#: Lines kept for the up arrow, the oldest forgotten first.
HISTORY_LINES = 500
#: Back to the first column and clear to the end of the screen: where the line being typed was.
_CLEAR_BELOW = "\r\x1b[J"


class LineEditor:
    """readline for the reader thread's ``read``, and the other thread's ``write`` around it."""

    def __init__(self, stdout: TextIO) -> None:
        import ctypes  # noqa: PLC0415 (only a console at a terminal edits lines)
        import readline  # noqa: PLC0415

        self._readline = readline
        self._stdout = stdout
        self._library = _library_of(ctypes, readline)
        self._lock = threading.Lock()
        self._wanted = ""  # the prompt the line under way should show
        self._shown = ""  # the prompt readline shows
        self._reading = False  # readline holds the line: writing must go above it
        readline.parse_and_bind("tab: tab-insert")  # no file names completed into a command
        readline.parse_and_bind("set enable-bracketed-paste off")  # nothing left on at exit
        readline.set_pre_input_hook(self._begun)
        _restore_at_exit()

    def read(self) -> str:
        """In the reader thread: the next line typed, with its end; "" at Ctrl-D."""
        with self._lock:
            self._shown = self._wanted
        try:
            line = input(self._shown) + "\n"
        except (EOFError, OSError, ValueError):
            line = ""
        finally:
            with self._lock:
                self._reading = False
            self._readline.set_auto_history(True)
        self._forget_the_oldest()
        return line

    def want(self, prompt: str, kept: bool = True) -> None:
        """The line under way (or about to be) answers ``prompt`` now; ``kept``: in the history."""
        if not kept:  # a password after all: readline shows it, but forgets it
            self._readline.set_auto_history(False)
        with self._lock:
            self._wanted = prompt
            if self._reading and prompt != self._shown:
                self._stdout.write(self._clear_the_line())
                self._redraw()

    def write(self, text: str) -> None:
        """``text`` (whole lines) shown above the line being typed, which comes back under it."""
        with self._lock:
            if not self._reading:
                self._stdout.write(text)
                self._stdout.flush()
                return
            self._stdout.write(self._clear_the_line() + text)
            self._redraw()

    def _begun(self) -> None:
        """readline's hook, its prompt shown: from now on, writing goes above the line."""
        with self._lock:
            self._reading = True
            if self._wanted != self._shown:  # asked again before the read began
                self._stdout.write(self._clear_the_line())
                self._redraw()

    def _clear_the_line(self) -> str:
        """What takes the cursor up to the prompt's first row and clears the rows below."""
        width = max(1, shutil.get_terminal_size().columns)
        rows_up = (len(self._shown) + len(self._readline.get_line_buffer())) // width
        return (f"\x1b[{rows_up}A" if rows_up else "") + _CLEAR_BELOW

    def _redraw(self) -> None:
        """The wanted prompt and the half-typed line again, on the cleared line (lock held)."""
        self._shown = self._wanted
        self._stdout.flush()
        if self._library is None:
            self._stdout.write(self._shown + self._readline.get_line_buffer())
            self._stdout.flush()
            return
        set_prompt, redisplay = self._library
        set_prompt(self._shown.encode(self._stdout.encoding or "utf-8", "replace"))
        redisplay()

    def _forget_the_oldest(self) -> None:
        readline = self._readline
        while readline.get_current_history_length() > HISTORY_LINES:
            readline.remove_history_item(0)


def line_editor(stdin: TextIO, stdout: TextIO) -> LineEditor | None:
    """An editor when a person types at a terminal (``input`` reads the real standard input)."""
    streams = (stdin is sys.stdin, stdout is sys.stdout, _is_terminal(stdin), _is_terminal(stdout))
    return LineEditor(stdout) if all(streams) and sys.platform != "win32" else None


def _is_terminal(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (OSError, ValueError):
        return False


#: GNU readline's ``rl_set_prompt`` and ``rl_forced_update_display``.
Redrawing = tuple[Callable[[bytes], int], Callable[[], int]]


def _library_of(ctypes: Any, readline: Any) -> Redrawing | None:
    """GNU readline's functions that change a shown prompt and redraw the line (None: absent)."""
    if "libedit" in (readline.__doc__ or ""):
        return None
    try:
        library = ctypes.CDLL(readline.__file__)
        set_prompt, redisplay = library.rl_set_prompt, library.rl_forced_update_display
    except (OSError, AttributeError):
        return None
    set_prompt.argtypes, set_prompt.restype = [ctypes.c_char_p], ctypes.c_int
    redisplay.argtypes, redisplay.restype = [], ctypes.c_int
    return set_prompt, redisplay


def _restore_at_exit() -> None:
    """The terminal's settings now, set again at exit.

    A line abandoned mid-read leaves readline's (no echo, a key at a time) in place
    when c4tui ends (Ctrl-C, a lost server).
    """
    with contextlib.suppress(OSError, ValueError, termios.error):
        saved = termios.tcgetattr(sys.stdin.fileno())
        atexit.register(_restore, saved)


def _restore(saved: list[Any]) -> None:
    with contextlib.suppress(OSError, ValueError, termios.error):
        termios.tcsetattr(sys.stdin.fileno(), termios.TCSADRAIN, saved)
