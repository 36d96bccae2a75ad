"""How messages sit in a connection's bytes: the line limit, the framings, quoting a peer.

Pure (no sockets, no event loop), so that the protocol codecs above can name
their framing and raise ``ProtocolError`` without loading the transport: the
transport (``connection``, ``framing``) and the codecs (``c4tui.protocols``)
both take these from here, and nothing here knows any protocol.
"""

from __future__ import annotations

from collections.abc import Callable
from enum import Enum
from typing import Protocol

#: A line longer than this (in bytes, without its end) breaks every protocol.
MAX_LINE_BYTES = 8192
#: Seconds between two messages sent at once without a terminator, so that a peer
#: that reads one message per ``recv`` gets them apart.
UNTERMINATED_GAP = 0.05
#: Seconds to wait for the rest of an unfinished unterminated message; after that it is
#: judged as it is (a peer that sends half a message and waits gets its error).
UNFINISHED_WAIT = 1.0
#: Cuts received text into whole messages and the unfinished rest (UNTERMINATED framing).
Splitter = Callable[[str], tuple[list[str], str]]


class Framing(Enum):
    """How a protocol's messages are cut out of the byte stream."""

    #: One message per line; LF ends it (a CR before it is dropped).
    LINES = "lines"
    #: No terminator: a message is what one write carries (the protocol splits merged ones).
    UNTERMINATED = "unterminated"


class Framed(Protocol):
    """What a ``MessageStream`` needs to know of a protocol: how its messages are cut and sent.

    Every protocol's ``ProtocolSpec`` (``c4tui.protocols.registry``) is one.
    """

    @property
    def framing(self) -> Framing:
        """Lines, or one message per write."""

    @property
    def split(self) -> Splitter:
        """How to cut received text into messages (UNTERMINATED framing)."""

    @property
    def encoding(self) -> str:
        """How its text is bytes: ``ascii`` for most, ``utf-8`` for the lobby's (§5.6)."""

    def frame(self, message: str) -> bytes:
        """``message`` as it goes on the wire."""


def one_message(text: str) -> tuple[list[str], str]:
    """The default splitter: whatever arrived is one message."""
    return [text], ""


#: The bytes of a peer's undecodable line that a message or a log shows.
BYTES_SHOWN = 32


def quote(line: str | bytes, limit: int = 80) -> str:
    r"""A peer's line made safe and short for a message to a person or a log.

    Bytes (what could not be read as text) are shown as their first BYTES_SHOWN,
    escaped as Python writes bytes (``'\x1b[2J\xff'``: ASCII, so no escape sequence
    of a hostile client reaches an operator's terminal), and how many there were.
    Text is escaped to ASCII the same way (``'caf\xe9'``), its first ``limit`` characters.
    """
    if isinstance(line, bytes):
        cut = min(limit, BYTES_SHOWN)
        shown = repr(bytes(line[:cut]))[1:]  # without the b
        return shown + (f"... ({len(line)} bytes)" if len(line) > cut else "")
    text = ascii(line[:limit])  # text too: no look-alike or right-to-left letter shows as it is
    return text + ("..." if len(line) > limit else "")
