"""What the command line accepts as values, and how it refuses what it does not.

Every value type here raises ``argparse.ArgumentTypeError``, which argparse turns into
one usage line and exit status 2; numbers are read by ``c4tui.numbers``, the project's
one reader of ASCII whole numbers (or by the engine's and the network's parsers, which
use it). ``usage_error`` refuses what only a command's ``run`` can check, alike.
``CommandTable`` is what a command's module declares its parser in.
"""

from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Callable
from typing import Any, NoReturn, Protocol

from c4tui.engine import MAX_SIZE, MIN_SIZE, parse_size
from c4tui.net.address import parse_host_port, parse_port
from c4tui.numbers import FAR, number_in_range
from c4tui.protocols.names import USERNAME_RULE, valid_username

#: Exit status of a usage error, as argparse's own.
USAGE_ERROR = 2
#: Exit status when Ctrl-C stopped a command (128 + SIGINT, as shells report it).
INTERRUPTED = 130
#: The largest count an option takes (connections, rooms, sessions): far above any use.
MAX_COUNT = 10**9 - 1


class CommandTable(Protocol):
    """Where a command's module declares its parser (``add_parser(commands)``).

    Its parser is made before the module loads (``c4tui.cli``: a command's module
    loads only when the command is given); ``add_parser`` hands it back with the
    settings given (``description``, ``epilog``…) for the module to add its options.
    """

    def add_parser(self, name: str, **settings: Any) -> argparse.ArgumentParser:
        """The parser of command ``name``, with ``settings`` set on it."""
        ...


def board_size(text: str) -> int:
    """``--columns``/``--rows``: a whole number in the engine's range of board sizes."""
    size = parse_size(text)
    if size is None:
        raise argparse.ArgumentTypeError(
            f"must be a whole number from {MIN_SIZE} to {MAX_SIZE}, not {text!r}"
        )
    return size


def listening_port(text: str) -> int:
    """A port to listen on: 0-65535 (0: any free port)."""
    try:
        return parse_port(text, allow_any=True)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"must be a port number from 0 to 65535 (0: any free port), not {text!r}"
        ) from None


def server_address(text: str) -> tuple[str, int]:
    """A server to reach: ``HOST:PORT`` (``[::1]:4444`` for IPv6)."""
    try:
        return parse_host_port(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"must be HOST:PORT with a port from 1 to 65535, not {text!r}"
        ) from None


def positive_count(text: str) -> int:
    """Counts (connections, rooms, sessions): a whole number of at least 1 (not 0.5, not inf)."""
    number = number_in_range(text.strip(), 1, MAX_COUNT)
    if number is None:
        raise argparse.ArgumentTypeError(f"must be a whole number of at least 1, not {text!r}")
    return number


def seconds(text: str) -> float:
    """Durations: a finite number of seconds above zero (fractions welcome)."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not (math.isfinite(value) and value > 0):
        raise argparse.ArgumentTypeError(f"must be a number of seconds above zero, not {text!r}")
    return value


#: The largest number a seed or a board size that is only checked later may be.
_LARGEST = FAR - 1


def signed_number(text: str) -> int:
    """``--seed``, ``solve --columns``: a whole number, maybe negative, checked later if at all."""
    number = number_in_range(text.strip(), -_LARGEST, _LARGEST)
    if number is None:
        raise argparse.ArgumentTypeError(f"must be a whole number, not {text!r}")
    return number


def number_from(low: int, high: int) -> Callable[[str], int]:
    """A type for a whole number from ``low`` to ``high`` (``--bcrypt-rounds``, ``admin``'s)."""

    def in_range(text: str) -> int:
        number = number_in_range(text.strip(), low, high)
        if number is None:
            raise argparse.ArgumentTypeError(
                f"must be a whole number from {low} to {high}, not {text!r}"
            )
        return number

    return in_range


def username(text: str) -> str:
    """``--user``: a name I32CFSP accepts."""
    if not valid_username(text):
        raise argparse.ArgumentTypeError(f"must be {USERNAME_RULE}, not {text!r}")
    return text


def usage_error(command: str, message: str) -> NoReturn:
    """Refuse the command line as argparse would (one line, status 2) after parsing it.

    ``command`` is "" for the app (``c4tui`` with no command).
    """
    sys.stderr.write(f"{' '.join(('c4tui', command)).strip()}: error: {message}\n")
    sys.exit(USAGE_ERROR)
