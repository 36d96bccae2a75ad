"""What the server needs to know of a protocol before it speaks it: its first bytes and framing.

Each protocol module declares one ``ProtocolSpec``; the server peeks at a new
client's first bytes and asks every spec whether they open its protocol. Pure:
no sockets here.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from enum import Enum

from c4tui.net.wire import Framing, Splitter, one_message


class Recognition(Enum):
    """A protocol's verdict on a client's first bytes."""

    YES = "yes"
    NO = "no"
    MORE = "more"  # these bytes could open it: wait for more


Recogniser = Callable[[bytes], Recognition]


@dataclass(frozen=True)
class ProtocolSpec:
    """A protocol as the server's front door sees it.

    Attributes:
        name: for logs and help texts.
        framing: how messages are delimited.
        recognise: the verdict on the first bytes a client sends.
        refusal_when_full: sent (framed) to a client of this protocol when the
            server is full or the client's address has too many connections;
            None to hang up without a word.
        on_violation: sent before hanging up on a client that breaks the
            protocol (an over-long line, bytes that are not ASCII); None: no word.
        line_end: what ends each line we send (LINES framing).
        split: how to cut received text into messages (UNTERMINATED framing).
        encoding: how its text is bytes, both ways: ASCII, but UTF-8 for the lobby's
            lines (§5.6: chat in any printable Unicode; the line limit counts bytes).
    """

    name: str
    framing: Framing
    recognise: Recogniser
    refusal_when_full: str | None
    on_violation: str | None
    line_end: str = "\r\n"
    split: Splitter = one_message
    encoding: str = "ascii"

    def frame(self, message: str) -> bytes:
        """``message`` as it goes on the wire."""
        end = self.line_end if self.framing is Framing.LINES else ""
        return (message + end).encode(self.encoding)


def starts_with(*openings: bytes, ignore_case: bool = False) -> Recogniser:
    """A recogniser for protocols whose first message begins with one of ``openings``."""
    wanted = [opening.lower() if ignore_case else opening for opening in openings]

    def recognise(first: bytes) -> Recognition:
        seen = first.lower() if ignore_case else first
        if any(seen.startswith(opening) for opening in wanted):
            return Recognition.YES
        if any(opening.startswith(seen) for opening in wanted):
            return Recognition.MORE
        return Recognition.NO

    return recognise


def identify(specs: Iterable[ProtocolSpec], first: bytes) -> ProtocolSpec | Recognition:
    """The protocol ``first`` opens, or MORE (wait for more bytes), or NO (none of ours)."""
    waiting = False
    for spec in specs:
        verdict = spec.recognise(first)
        if verdict is Recognition.YES:
            return spec
        waiting = waiting or verdict is Recognition.MORE
    return Recognition.MORE if waiting else Recognition.NO
