"""What nodes say to each other on the bus: small JSON objects, one kind each.

A client's lines travel to the leader (``Opened``, ``Line``, ``Gone``); what the
leader answers travels back to the client's node (``Send``, ``Close``, ``Abort``);
every node says it is alive once a second (``Alive``, and ``Leading`` from the
leader). Nothing here does I/O: ``encode`` and ``decode`` only.
"""

from __future__ import annotations

import json
from dataclasses import MISSING, asdict, dataclass


class BusLost(ConnectionError):
    """The bus cannot be reached, or broke off: messages may have been lost."""


@dataclass(frozen=True)
class Opened:
    """A lobby client connected to ``node`` from ``address``; ``session`` names it from now on.

    The leader counts §7's limits by the address (a node that says none: "", one address).
    """

    node: str
    session: int
    address: str = ""


@dataclass(frozen=True)
class Line:
    """One line the client sent."""

    node: str
    session: int
    text: str


@dataclass(frozen=True)
class Gone:
    """The client's connection ended (it hung up, or its node cut it off)."""

    node: str
    session: int


@dataclass(frozen=True)
class Alive:
    """A node that does not lead is still there (so its clients stay served)."""

    node: str


@dataclass(frozen=True)
class Leading:
    """The node that leads the lobby is still there."""

    node: str


@dataclass(frozen=True)
class Send:
    """A line for one of the receiving node's clients."""

    session: int
    text: str


@dataclass(frozen=True)
class Close:
    """Close the client's connection once what was sent has gone."""

    session: int


@dataclass(frozen=True)
class Abort:
    """Cut the client off at once."""

    session: int


BusMessage = Opened | Line | Gone | Alive | Leading | Send | Close | Abort
_KINDS: dict[str, type[BusMessage]] = {
    kind.__name__.lower(): kind for kind in (Opened, Line, Gone, Alive, Leading, Send, Close, Abort)
}
_FIELDS: dict[str, type] = {"node": str, "session": int, "text": str, "address": str}


def encode(message: BusMessage) -> bytes:
    """``message`` as one JSON object, its kind under ``k``."""
    return json.dumps({"k": type(message).__name__.lower(), **asdict(message)}).encode()


def decode(data: bytes | str) -> BusMessage:
    """The message ``data`` holds. Raises ValueError for anything else (logged, not obeyed)."""
    try:
        fields = json.loads(data)
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise ValueError(f"not JSON: {error}") from None
    if not isinstance(fields, dict):
        raise ValueError("not a JSON object")
    kind = _KINDS.get(str(fields.pop("k", "")))
    if kind is None:
        raise ValueError("no kind of message this node knows")
    expected = kind.__dataclass_fields__
    required = {name for name, field in expected.items() if field.default is MISSING}
    if not required <= set(fields) <= set(expected):  # a field added since may be missing
        raise ValueError(f"a {kind.__name__} needs {sorted(required)}, at most {sorted(expected)}")
    for name, value in fields.items():
        wanted = _FIELDS[name]
        if type(value) is not wanted:
            raise ValueError(f"{name} must be a {wanted.__name__}")
    return kind(**fields)
