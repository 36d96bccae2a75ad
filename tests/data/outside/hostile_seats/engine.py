"""A hostile engine for the tests of issue 37, made from this template with one ATTACK:

- ``flood``: asked for a move, it writes FLOOD_BYTES on one unfinished line and then
  sleeps without reading its input, as a program stuck in a print loop would;
- ``kill``: before each move it walks /proc and SIGKILLs every process of the test's
  it can see (the server, the bots, the other programs), then plays;
- ``environ``: before each move it reads the environment of every process it can see
  (its own and pid 1's too) for c4tui's variables (the bot's ``C4TUI_PASSWORD``) or
  the test's mark.

The kill's targets are marked: the test sets ``HOSTILE_TARGET`` to MARK in the
environment of what it starts (an unconfined program inherits it too). Only those are
killed, so that a sandbox that fails costs the test, not the machine; this program's own
session and pid 1 (the init of whatever PID namespace it is in, which it cannot kill)
are never targets. Each attack says ``ATTACK kill: BLOCKED (…)`` or ``BREACHED (…)`` on
standard error; a breach then exits with status 3, because a sandbox leaves the program
no other way to be heard: its game is lost by a crash whose reason, its last words, the
bot's and the server's logs show.

Otherwise it plays the lowest free column. ``--calm-on COLSxROWS`` makes it honest on
that board (the start-up check of the bot and the server is on 7 × 6), so that a test
sees its attack in one game and the next game played. The test writes it under a name
holding MARK, to find its processes by.
"""

import os
import signal
import sys
import time

ATTACK = "@ATTACK@"
MARK = "@MARK@"
TARGET = b"HOSTILE_TARGET=" + MARK.encode()
FLOOD_BYTES = 256 * 1024
options = sys.argv[1:]
calm_on = options[options.index("--calm-on") + 1] if "--calm-on" in options else ""
board, heights = (7, 6), [0] * 7


def say(line):
    print(line, flush=True)


def flood():
    """Everything at once, no newline; then stay alive (bounded: the game is over by then)."""
    sys.stdout.write("info " + "x" * FLOOD_BYTES)
    sys.stdout.flush()
    time.sleep(600)
    sys.exit(0)


def in_sight():
    """The pids in /proc (none if there is no /proc to walk)."""
    try:
        return [int(name) for name in os.listdir("/proc") if name.isdigit()]
    except OSError:
        return []


def environment(pid):
    """The variables process ``pid`` started with (none if it is gone or not ours to read)."""
    try:
        with open(f"/proc/{pid}/environ", "rb") as environ:
            return environ.read().split(b"\0")
    except OSError:
        return []


def is_target(pid):
    """A process of the test's (marked in its environment), not of this program's session."""
    if pid in (1, os.getpid()) or TARGET not in environment(pid):
        return False
    try:
        return os.getsid(pid) != os.getsid(0)
    except OSError:  # gone
        return False


def kill():
    """SIGKILL every target in sight: what it did, and whether there was any."""
    seen = in_sight()
    targets = [pid for pid in seen if is_target(pid)]
    killed = []
    for pid in targets:
        try:
            os.kill(pid, signal.SIGKILL)
            killed.append(pid)
        except OSError:
            pass
    if targets:
        return f"saw {len(targets)} of the test's processes, killed {killed}", True
    return f"saw {len(seen)} processes, none of the test's", False


def snoop():
    """Every environment in sight searched: what it found, and whether it found anything."""
    seen = in_sight()
    found = [
        f"pid {pid} holds {variable.partition(b'=')[0].decode()}"
        for pid in seen
        for variable in environment(pid)
        if variable.startswith(b"C4TUI_") or variable == TARGET
    ]
    if found:
        return "; ".join(found), True
    return f"read the environments of {len(seen)} processes: nothing of c4tui's", False


def move():
    """The answer to ``go``: after the attack, unless the board is the calm one."""
    if calm_on != f"{board[0]}x{board[1]}":
        if ATTACK == "flood":
            flood()
        said, breached = kill() if ATTACK == "kill" else snoop()
        verdict = "BREACHED" if breached else "BLOCKED"
        print(f"ATTACK {ATTACK}: {verdict} ({said})", file=sys.stderr, flush=True)
        if breached:
            sys.exit(3)
    return f"bestmove d{next(c for c in range(board[0]) if heights[c] < board[1]) + 1}"


for line in sys.stdin:
    words = line.split()
    if words == ["c4e"]:
        say(f"id name {ATTACK}")
        say("c4eok")
    elif words[:1] == ["newgame"]:
        board = (int(words[1]), int(words[2]))
    elif words[:1] == ["position"]:
        heights = [0] * board[0]
        for played in words[1:]:
            heights[int(played[1:]) - 1] += 1 if played[0] == "d" else -1
    elif words == ["isready"]:
        say("readyok")
    elif words[:1] == ["go"]:
        say(move())
    elif words == ["quit"]:
        break
