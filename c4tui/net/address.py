"""Where a server is: the defaults and the rules for hosts and ports, in one place."""

from __future__ import annotations

import functools
import ipaddress
from urllib.parse import urlsplit, urlunsplit

from c4tui.numbers import number_in_range

DEFAULT_HOST = "localhost"
#: The port ``c4tui serve`` listens on and the clients try first.
DEFAULT_PORT = 4444


def tls_port_beside(port: int) -> int:
    """The lobby's TLS port when ``c4tui serve`` is not told one: the one after its port."""
    return port + 1


#: Where a default ``c4tui serve --tls-cert`` serves the lobby over TLS.
DEFAULT_TLS_PORT = tls_port_beside(DEFAULT_PORT)
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
    """A host name or address (IPv6 may be in brackets). Raises ValueError if blank or spaced.

    Several, separated by commas, each with its own ``:PORT`` if need be, are the
    nodes of one lobby, tried in turn (``known_addresses``).
    """
    host = text.strip().removeprefix("[").removesuffix("]")
    if not host or any(char.isspace() for char in host):
        raise ValueError("a host is a name or address without spaces, e.g. localhost")
    if "," in host:
        known_addresses(host, DEFAULT_PORT)  # each must read
    return host


def known_addresses(host: str, port: int) -> list[tuple[str, int]]:
    """Where to try to connect, in order: ``a,b:4445`` is ``a`` on ``port``, then ``b`` on 4445.

    A name that resolves to several addresses is tried at each of them by the
    connection itself. Raises ValueError for an empty entry or a port that does not read.
    """
    if "," not in host:
        return [(host, port)]
    found: list[tuple[str, int]] = []
    for entry in host.split(","):
        name, colon, number = entry.rpartition(":")
        if not colon or (":" in name and not name.endswith("]")):  # a name, or bare IPv6
            name, number = entry, ""
        name = name.removeprefix("[").removesuffix("]")
        if not name:
            raise ValueError(f"an empty address in {host!r}")
        found.append((name, parse_port(number) if number else port))
    return found


def parse_host_port(text: str) -> tuple[str, int]:
    """``HOST:PORT`` (``[::1]:4444`` for IPv6). Raises ValueError."""
    host, colon, port = text.rpartition(":")
    if not colon:
        raise ValueError(f"expected HOST:PORT, not {text!r}")
    return parse_host(host), parse_port(port)


@functools.lru_cache(maxsize=4096)  # parsed once per address, not once per connection
def address_group(host: str) -> str:
    """What counts as one address for the per-address limit: IPv4 as is, IPv6 by /64."""
    try:
        address = ipaddress.ip_address(host.split("%", maxsplit=1)[0])
    except ValueError:
        return host
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.ip_network(f"{address}/64", strict=False))
    return str(address)


def without_password(url: str) -> str:
    """``url`` with its password, if any, shown as ``***`` (for the log)."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    host = parts.netloc.rpartition("@")[2]
    return urlunsplit(parts._replace(netloc=f"{parts.username or ''}:***@{host}"))
