"""The words both room protocols share: accounts, listing and joining rooms, ACKSTATUS.

The lobby protocol (``c4tui.protocols.lobby``) is modelled on the INFO1112
handout's tic-tac-toe protocol (``c4tui.protocols.tictactoe``), and the two agree
word for word on REGISTER, LOGIN, ROOMLIST, JOIN and FORFEIT, their bad-format
answers, ACKSTATUS, BADAUTH and NOROOM: those live here, below both codecs.
Pure, like every codec. The lobby codec re-exports these words, so
``wire.Register`` and friends read as they always did.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum

from c4tui.protocols.names import (
    valid_password,
    valid_user,
)

# ----- what clients send ---------------------------------------------------------------


class Mode(Enum):
    """How one joins a room or lists them."""

    PLAYER = "PLAYER"
    VIEWER = "VIEWER"


@dataclass(frozen=True)
class Register:
    """REGISTER:<user>:<password>."""

    user: str
    password: str


@dataclass(frozen=True)
class Login:
    """LOGIN:<user>:<password>."""

    user: str
    password: str


@dataclass(frozen=True)
class RoomList:
    """ROOMLIST:PLAYER|VIEWER."""

    mode: Mode


@dataclass(frozen=True)
class Join:
    """JOIN:<room>:PLAYER|VIEWER."""

    room: str
    mode: Mode


@dataclass(frozen=True)
class Forfeit:
    """FORFEIT."""


@dataclass(frozen=True)
class BadFormat:
    """A known command with missing, extra or wrong arguments: ``reply`` is the answer.

    ``account`` marks REGISTER and LOGIN, which are answered before a login too.
    """

    reply: str
    account: bool = False


class Violation(Exception):
    """A line that is no lobby message at all (an unknown command): close without a reply."""


def credentials_parser(
    kind: type[Register] | type[Login], status: int
) -> Callable[[str], Register | Login | BadFormat]:
    """The parser of REGISTER's or LOGIN's arguments (``status``: their bad format's)."""

    def parse(rest: str) -> Register | Login | BadFormat:
        user, colon2, password = rest.partition(":")
        if not colon2 or not valid_user(user) or not valid_password(password):
            return BadFormat(ack(kind.__name__.upper(), status), account=True)
        return kind(user, password)

    return parse


def parse_room_list(rest: str) -> RoomList | BadFormat:
    """ROOMLIST's argument."""
    try:
        return RoomList(Mode(rest))
    except ValueError:
        return BadFormat(ack("ROOMLIST", 1))


def parse_join(rest: str) -> Join | BadFormat:
    """JOIN's arguments."""
    fields = rest.split(":")
    if len(fields) != 2 or fields[1] not in ("PLAYER", "VIEWER"):
        return BadFormat(ack("JOIN", 3))
    return Join(fields[0], Mode(fields[1]))


# ----- what the server sends, and clients receive -------------------------------------

BADAUTH = "BADAUTH"
NOROOM = "NOROOM"


def ack(command: str, status: int, *extra: str) -> str:
    """``COMMAND:ACKSTATUS:<status>[:extra…]``."""
    return ":".join([command, "ACKSTATUS", str(status), *extra])


def room_list(names: list[str]) -> str:
    """ROOMLIST:ACKSTATUS:0:<room>,<room>… (the trailing colon stays for an empty list)."""
    return ack("ROOMLIST", 0, ",".join(names))


@dataclass(frozen=True)
class Ack:
    """``COMMAND:ACKSTATUS:<status>[:extra…]``: the answer to one request."""

    command: str
    status: int
    extra: tuple[str, ...] = ()


@dataclass(frozen=True)
class Notice:
    """BADAUTH or NOROOM."""

    word: str
