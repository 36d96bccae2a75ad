"""A tiny engine speaking c4tui's engine protocol (spec §6): it drops in the lowest column.

Options make it misbehave for the tests: --crash-at N (exit when asked for its
Nth move; with --crash-size 7x6 only in games of that size), --exit-at-start,
--no-hello, --garbage, --illegal, --sleep, --late S, --flood (writes without end and
without a newline when asked for a move), --twice (answers each go twice),
--chatty (floods standard error), --long-line, --spawn (leaves a child behind),
--hog (asks for 4 GB), --fork-bomb (forks without end when asked for a move),
--escape (leaves a child in a session of its own, its pid on standard error),
--loop (computes forever when asked for a move), --report (says on standard
error where it runs and which files it has open, and writes a file there).
"""

import contextlib
import os
import subprocess
import sys
import time

options = sys.argv[1:]
if "--exit-at-start" in options:
    sys.exit(2)
if "--spawn" in options:
    subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
if "--escape" in options:
    escaped = subprocess.Popen(
        [sys.executable, "-c", "import time; time.sleep(600)"], start_new_session=True
    )
    print("escaped:", escaped.pid, file=sys.stderr, flush=True)
if "--report" in options:
    print("cwd:", os.getcwd(), file=sys.stderr, flush=True)
    listed = sorted(int(fd) for fd in os.listdir("/proc/self/fd"))
    still_open = [fd for fd in listed if os.path.exists(f"/proc/self/fd/{fd}")]  # not the list's
    print("fds:", *still_open, file=sys.stderr, flush=True)
    with open("scratch.txt", "w") as scratch:
        scratch.write("a program's own file\n")
crash_at = int(options[options.index("--crash-at") + 1]) if "--crash-at" in options else 0
# --crash-size 7x6: crash (at --crash-at) only in games of that size.
crash_size = options[options.index("--crash-size") + 1] if "--crash-size" in options else None
late = float(options[options.index("--late") + 1]) if "--late" in options else 0.0
columns, rows, heights, asked = 7, 6, [0] * 7, 0


def say(line):
    print(line, flush=True)


for line in sys.stdin:
    print("got:", line.strip(), file=sys.stderr, flush=True)
    words = line.split()
    if words == ["c4e"] and "--no-hello" not in options:
        say("id name Tiny")
        say("id author the c4tui tests")
        say("c4eok")
    elif words[:1] == ["newgame"]:
        columns, rows = int(words[1]), int(words[2])
    elif words[:1] == ["position"]:
        heights = [0] * columns
        for move in words[1:]:
            column = int(move[1:]) - 1
            heights[column] += 1 if move[0] == "d" else -1
    elif words == ["isready"]:
        say("readyok")
    elif words[:1] == ["go"]:
        asked += 1
        if asked == crash_at and crash_size in (None, f"{columns}x{rows}"):
            print("Traceback: something broke at move", asked, file=sys.stderr, flush=True)
            sys.exit(3)
        if "--chatty" in options:
            for _ in range(2000):
                sys.stderr.write("thinking very hard about this position " * 4 + "\n")
        if "--hog" in options:
            hoard = bytearray(1 << 32)
        while "--fork-bomb" in options:
            with contextlib.suppress(OSError):
                os.fork()
        while "--loop" in options:
            asked += 1
        if "--sleep" in options:
            time.sleep(600)
        time.sleep(late)
        say("info depth 1 score 0")
        if "--long-line" in options:
            say("info " + "x" * 20000)
        while "--flood" in options:  # without a newline, and never stops
            sys.stdout.write("x" * 65536)
        if "--garbage" in options:
            say("bestmove banana")
        elif "--illegal" in options:
            say(f"bestmove d{columns + 1}")
        else:
            say(f"bestmove d{next(c for c in range(columns) if heights[c] < rows) + 1}")
        if "--twice" in options:  # a second answer nobody asked for
            say("bestmove d1")
    elif words == ["quit"]:
        break
