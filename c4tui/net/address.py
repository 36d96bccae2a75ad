"""Where a server is: the defaults and the rules for hosts and ports, in one place."""

from __future__ import annotations

from c4tui.numbers import number_in_range

DEFAULT_HOST = "localhost"
#: The port ``c4tui serve`` listens on and the clients try first.
DEFAULT_PORT = 4444
#: Seconds to wait for a connection and the server's greeting.
CONNECT_TIMEOUT = 10.0
MAX_PORT = 65535


def parse_port(text: str, *, allow_any: bool = False) -> int:
    """A port number typed as text; ``allow_any`` also accepts 0 (any free port, to listen).

    Raises ValueError with a message a person can act on.
    """
    low = 0 if allow_any else 1
    text = text.strip()
    port = number_in_range(text, low, MAX_PORT)
    if port is None:
        raise ValueError(f"a whole number from {low} to {MAX_PORT}, not {text!r}")
    return port


def parse_host(text: str) -> str:
    """A host name or address (IPv6 may be in brackets). Raises ValueError if blank or spaced."""
    host = text.strip().removeprefix("[").removesuffix("]")
    if not host or any(char.isspace() for char in host):
        raise ValueError("a host is a name or address without spaces, e.g. localhost")
    return host


def parse_host_port(text: str) -> tuple[str, int]:
    """``HOST:PORT`` (``[::1]:4444`` for IPv6). Raises ValueError."""
    host, colon, port = text.rpartition(":")
    if not colon:
        raise ValueError(f"expected HOST:PORT, not {text!r}")
    return parse_host(host), parse_port(port)
