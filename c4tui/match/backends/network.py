"""What every network opponent shares: where the server is, and problems put in words."""

from __future__ import annotations

import getpass
import socket
from collections.abc import Callable
from dataclasses import dataclass

from c4tui.net.address import DEFAULT_HOST, DEFAULT_PORT
from c4tui.net.errors import ConnectionClosed, NetworkError, WriteTimeout
from c4tui.protocols.common import ProtocolError


@dataclass(frozen=True)
class ServerAddress:
    """Where to connect and as whom."""

    host: str = DEFAULT_HOST
    port: int = DEFAULT_PORT
    username: str = "player"

    def __str__(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"{host}:{self.port}"


def login_name(acceptable: Callable[[str], bool]) -> str:
    """The user's login name if the protocol ``acceptable`` takes it, else ``player``."""
    try:
        name = getpass.getuser()
    except (KeyError, OSError):
        return "player"
    return name if acceptable(name) else "player"


def describe_network_error(error: BaseException, address: ServerAddress) -> str:  # noqa: PLR0911
    """One sentence saying what went wrong with the server at ``address``."""
    if isinstance(error, NetworkError):
        return str(error)
    if isinstance(error, ProtocolError):
        return f"The server broke the protocol: {error}"
    if isinstance(error, WriteTimeout):
        return f"The server at {address} stopped reading."
    if isinstance(error, ConnectionClosed | ConnectionResetError | BrokenPipeError):
        return f"The server at {address} hung up."
    if isinstance(error, socket.gaierror):
        return f"Unknown host {address.host!r}."
    if isinstance(error, ConnectionRefusedError):
        return f"Connection refused by {address}: is a server running there?"
    if isinstance(error, TimeoutError):
        return f"No answer from {address} in time."
    if isinstance(error, OSError):
        return f"Network error with {address}: {error.strerror or error}"
    return f"Unexpected problem with {address}: {error}"
