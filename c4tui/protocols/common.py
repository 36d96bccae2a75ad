"""What every protocol shares: limits and the error a peer's misbehaviour raises."""

from __future__ import annotations

from c4tui.engine.errors import C4Error

#: A line longer than this (in bytes, without its end) breaks every protocol.
MAX_LINE_BYTES = 8192
#: A peer silent for this long is disconnected (seconds).
DEFAULT_IDLE_TIMEOUT = 600.0


class ProtocolError(C4Error):
    """The peer sent something its protocol does not allow; the message quotes it."""


def quote(line: str | bytes, limit: int = 80) -> str:
    """A peer's line made safe and short for a message to a person or a log."""
    if isinstance(line, bytes):
        line = line.decode("ascii", errors="replace")
    text = repr(line[:limit])
    return text + ("…" if len(line) > limit else "")
