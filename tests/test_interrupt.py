"""Ctrl-C anywhere in the console ends with one clean line and exit status 130.

Ctrl-C in a terminal signals the whole process group (the AI's worker processes
too), so the signal goes to the group here as well.
"""

from __future__ import annotations

import contextlib
import os
import pty
import select
import signal
import socket
import subprocess
import sys
import termios
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.net.tictactoe_client import threaded_tictactoe_server


@pytest.fixture
def silent_server() -> Iterator[int]:
    """A server that accepts connections and never says a word."""
    listener = socket.create_server(("127.0.0.1", 0))
    held: list[socket.socket] = []

    def accept() -> None:
        while True:
            try:
                connection, _ = listener.accept()
            except OSError:
                return
            held.append(connection)

    threading.Thread(target=accept, daemon=True).start()
    yield listener.getsockname()[1]
    listener.close()
    for connection in held:
        connection.close()


def interrupt_when(
    args: list[str], seen: str, delay: float = 0.0, command: str = "console", typed: str = ""
) -> subprocess.CompletedProcess[str]:
    """Run ``c4tui COMMAND ARGS``, type ``typed``; Ctrl-C ``delay`` s after ``seen`` shows."""
    process = subprocess.Popen(
        [sys.executable, "-m", "c4tui", command, *args],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,  # its own process group, as a shell gives it
    )
    assert process.stdout is not None and process.stdin is not None
    if typed:
        process.stdin.write(typed)
        process.stdin.flush()
    output = ""
    while seen not in output:
        char = process.stdout.read(1)
        assert char, f"ended before {seen!r}: {output!r}"
        output += char
    time.sleep(delay)
    os.killpg(process.pid, signal.SIGINT)
    pressed = time.monotonic()
    try:
        rest, errors = process.communicate(timeout=30)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
    # Well inside the 10 s connect timeout: a lost Ctrl-C would wait for it.
    waited = time.monotonic() - pressed
    assert waited < 5, (waited, process.returncode, output + rest, errors)
    return subprocess.CompletedProcess(process.args, process.returncode, output + rest, errors)


def assert_clean_interrupt(result: subprocess.CompletedProcess[str]) -> None:
    assert result.returncode == 130, result
    assert result.stderr.strip() == "Interrupted: goodbye.", result.stderr


def test_ctrl_c_at_the_move_prompt() -> None:
    assert_clean_interrupt(interrupt_when(["--columns", "7", "--rows", "6"], "Move: "))


def test_ctrl_c_at_the_size_prompt() -> None:
    assert_clean_interrupt(interrupt_when([], "Number of columns"))


def test_ctrl_c_in_the_tictactoe_client_waiting_for_an_answer(silent_server: int) -> None:
    result = interrupt_when(["--connect", f"127.0.0.1:{silent_server}"], "> ", command="tictactoe")
    assert_clean_interrupt(result)


def test_ctrl_c_in_a_tictactoe_room_waiting_for_a_player(tmp_path: Path) -> None:
    with threaded_tictactoe_server(tmp_path) as server:
        typed = "register ann\npw\nlogin ann\npw\ncreate r\n"
        args = ["--connect", f"127.0.0.1:{server.tictactoe_port}"]
        result = interrupt_when(args, "Waiting for other player", command="tictactoe", typed=typed)
    assert_clean_interrupt(result)


def test_ctrl_c_while_the_server_says_nothing(silent_server: int) -> None:
    args = [
        "--connect",
        f"127.0.0.1:{silent_server}",
        "--user",
        "x",
        "--columns",
        "7",
        "--rows",
        "6",
    ]
    assert_clean_interrupt(interrupt_when(args, "Connecting to"))


@pytest.mark.parametrize("delay", [0.0, 0.3], ids=["its worker starting", "searching"])
def test_ctrl_c_while_the_hard_ai_thinks(delay: float) -> None:
    args = ["--columns", "20", "--rows", "20", "--opponent", "hard", "--color", "yellow"]
    assert_clean_interrupt(interrupt_when(args, "RED's turn", delay))


def test_ctrl_c_at_a_password_prompt_in_a_terminal(silent_server: int) -> None:
    """getpass reads in a thread: Ctrl-C must not wait for Enter, and echo comes back."""
    pid, terminal = pty.fork()
    if pid == 0:  # the child: the pty is its controlling terminal, as in a real one
        os.execv(
            sys.executable,
            [sys.executable, "-m", "c4tui", "tictactoe", "--connect", f"127.0.0.1:{silent_server}"],
        )
    try:
        output = _read_until(terminal, b"> ")
        os.write(terminal, b"login ann\n")
        output += _read_until(terminal, b"Enter password: ")
        echo_off = not termios.tcgetattr(terminal)[3] & termios.ECHO
        os.killpg(pid, signal.SIGINT)
        pressed = time.monotonic()
        output += _read_until(terminal, b"Interrupted: goodbye.")
        _, status = os.waitpid(pid, 0)
        assert time.monotonic() - pressed < 5
        assert os.waitstatus_to_exitcode(status) == 130, output
        assert echo_off  # getpass had turned echo off ...
    finally:
        with contextlib.suppress(ProcessLookupError, ChildProcessError):
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
    with contextlib.suppress(OSError):
        assert termios.tcgetattr(terminal)[3] & termios.ECHO  # ... and it is back on
    os.close(terminal)


def _read_until(terminal: int, wanted: bytes, seconds: float = 10) -> bytes:
    """What the terminal shows, up to and including ``wanted``."""
    seen = b""
    deadline = time.monotonic() + seconds
    while wanted not in seen:
        assert time.monotonic() < deadline, seen
        ready, _, _ = select.select([terminal], [], [], 0.1)
        if ready:
            try:
                chunk = os.read(terminal, 1024)
            except OSError:
                break
            if not chunk:
                break
            seen += chunk
    assert wanted in seen, seen
    return seen


def test_ctrl_c_at_the_puzzle_trainers_prompt() -> None:
    assert_clean_interrupt(interrupt_when(["--puzzles"], "Move: "))


def test_ctrl_c_while_the_solver_checks_a_puzzles_wrong_move() -> None:
    from c4tui.engine import parse_move
    from c4tui.puzzles.attempt import Attempt
    from c4tui.puzzles.collection import shipped_puzzles

    attempt = Attempt(shipped_puzzles()[0])
    right = parse_move(attempt.puzzle.solution[0]).column
    wrong = next(c for c in range(7) if c != right and attempt.state.column_height(c) < 6)
    typed = f"{wrong + 1}\n"
    result = interrupt_when(["--puzzle", attempt.puzzle.id], "Checking", typed=typed)
    assert_clean_interrupt(result)


#: A position of 8 × 7 solved in moments (44 discs down), then one that takes hours.
QUICK_8_BY_7 = "63641644716445817537745115224763113886875863"


def test_ctrl_c_stops_a_long_solve_at_once() -> None:
    """The search runs in compiled code, which never sees a signal: a thread of its own
    runs it, and the main thread stops it."""
    args = ["--columns", "8", "--rows", "7", QUICK_8_BY_7, "1"]
    result = interrupt_when(args, f"{QUICK_8_BY_7} 6\n", delay=1.0, command="solve")
    assert result.returncode == 130, result
    assert result.stderr == "c4tui solve: interrupted; the games answered above were solved.\n"
