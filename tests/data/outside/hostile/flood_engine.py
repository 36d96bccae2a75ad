"""An engine that writes 200 kB to standard output without a newline at each move, then its
move: a pipe nobody reads fills at 64 kB, and the engine blocks there.

Assembled after attacks.py and playing.py (README.md).
"""

import sys

# ruff: noqa: F821 (serve comes from playing.py, before this)


def flood(asked):
    """Word of it on standard error (it may be killed before it is done), then 200 kB of one
    line that never ends."""
    print("flood: sending 200000 bytes without a newline", file=sys.stderr, flush=True)
    sys.stdout.write("x" * 200_000)
    sys.stdout.flush()


serve(flood)
