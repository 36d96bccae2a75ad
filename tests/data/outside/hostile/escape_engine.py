"""An engine that writes escape sequences and other control characters to standard error at
its first move, then crashes: its last line would retitle and clear a terminal.

Assembled after attacks.py and playing.py (README.md).
"""

import sys

# ruff: noqa: F821 (serve comes from playing.py, before this)

#: A new window title, a cleared screen, red, a C1 CSI, backspaces, a bell and a return.
ESCAPES = "\x1b]0;pwned by a student\x07\x1b[2J\x1b[H\x1b[31mcrash\x1b[0m\x9b2J\x08\x08\x07\r"


def crash(asked):
    """Write the escapes as the last line of standard error and exit with status 3."""
    print("Traceback: about to crash", file=sys.stderr)
    print(ESCAPES, file=sys.stderr, flush=True)
    sys.exit(3)


serve(crash)
