"""What can go wrong on a connection, as part of c4tui's one error hierarchy."""

from __future__ import annotations

from c4tui.engine.errors import C4Error


class ConnectionClosed(C4Error, ConnectionError):
    """The peer hung up (end of stream), or the connection was already closed."""


class WriteTimeout(C4Error, ConnectionError):
    """The peer stopped reading: a write waited past its time limit, and the connection is gone."""


class NetworkError(C4Error):
    """A connection problem, worded for a person (it is shown as it is)."""


class ProtocolError(C4Error):
    """The peer sent something its protocol does not allow; the message quotes it."""


class ConnectionLost(NetworkError):
    """The server closed the connection (or it broke) mid-game; the message says why in words.

    A kind of its own so that a front end can tell "the server is gone" (a console's
    own exit status) from a server that broke its protocol.
    """


class ServerConceded(C4Error):
    """The server gave the game up to us before it was over (its AI failed); the message says so."""
