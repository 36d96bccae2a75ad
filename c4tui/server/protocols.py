"""The protocols ``c4tui serve`` speaks: each one's front-door spec and its handler.

To serve another protocol: write its pure codec in ``c4tui/protocols/`` (with a
``SPEC``), its handler in ``c4tui/server/``, and add one line to
``SERVER_PROTOCOLS`` below.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from c4tui.net.framing import MessageStream
from c4tui.protocols import i32cfsp
from c4tui.protocols.registry import ProtocolSpec
from c4tui.server.context import ClientContext
from c4tui.server.i32cfsp import serve_i32cfsp

#: Serves one client to the end of its conversation; returns why it ended (for the log).
Handler = Callable[[MessageStream, ClientContext], Awaitable[str]]


@dataclass(frozen=True)
class ServerProtocol:
    """A protocol the server speaks: how to recognise it and who serves it."""

    spec: ProtocolSpec
    serve: Handler


SERVER_PROTOCOLS: tuple[ServerProtocol, ...] = (ServerProtocol(i32cfsp.SPEC, serve_i32cfsp),)
