"""TCP keepalive on accepted sockets: a peer that vanished without closing is found.

A laptop's lid shut or a network gone leaves a connection that says nothing, and
a lobby player who is silent is not idle (spec/protocols.md §5.1): only the
kernel's probes tell the two apart. With the timings below a vanished peer is
found in about a minute (idle 30 s, then 4 probes 8 s apart).
"""

from __future__ import annotations

import socket
import sys
from typing import Protocol

#: Seconds of silence before the first probe; between probes; probes unanswered before giving up.
KEEPALIVE_IDLE = 30
KEEPALIVE_INTERVAL = 8
KEEPALIVE_PROBES = 4


class SocketOptions(Protocol):
    """What of a socket keepalive needs (asyncio's and uvloop's transports both offer it)."""

    def setsockopt(self, level: int, option: int, value: int, /) -> None:
        """Set one option."""


def enable_keepalive(sock: SocketOptions | None) -> None:
    """Turn keepalive on, with the timings above where the platform lets us set them."""
    if sock is None:
        return
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_KEEPALIVE, 1)
        for option, value in _timings():
            sock.setsockopt(socket.IPPROTO_TCP, option, value)
    except OSError:  # not a TCP socket, or the platform refuses: the kernel's defaults
        return


def _timings() -> list[tuple[int, int]]:
    """(option, value) for the probes' timings on this platform (elsewhere: the defaults)."""
    if sys.platform == "linux":
        return [
            (socket.TCP_KEEPIDLE, KEEPALIVE_IDLE),
            (socket.TCP_KEEPINTVL, KEEPALIVE_INTERVAL),
            (socket.TCP_KEEPCNT, KEEPALIVE_PROBES),
        ]
    if sys.platform == "darwin":
        return [(socket.TCP_KEEPALIVE, KEEPALIVE_IDLE)]
    return []
