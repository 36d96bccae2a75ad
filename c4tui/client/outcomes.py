"""What a room server answered to a request, as named outcomes instead of ACK numbers.

Each enum's values are the protocol's ACK statuses (the lobby protocol and the
INFO1112 tic-tac-toe handout number them alike). A server may answer a number
the protocol does not define; that arrives as ``UnknownStatus``, keeping the
number so the words can quote it.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import TypeVar


@dataclass(frozen=True)
class UnknownStatus:
    """An ACK status the protocol does not define for this request."""

    status: int


class RegisterOutcome(Enum):
    """REGISTER's answer."""

    CREATED = 0
    NAME_TAKEN = 1
    AGAINST_THE_RULES = 2  # a name or password the rules do not allow


class LoginOutcome(Enum):
    """LOGIN's answer."""

    LOGGED_IN = 0
    NO_SUCH_USER = 1
    WRONG_PASSWORD = 2
    BAD_FORMAT = 3
    #: Status 3 on a connection logged in already (no number of its own: the link tells).
    ALREADY_LOGGED_IN = "3, logged in already"


class CreateOutcome(Enum):
    """CREATE's answer."""

    CREATED = 0
    BAD_NAME = 1
    NAME_TAKEN = 2
    SERVER_FULL = 3
    BAD_GAME = 4  # the lobby's only: a size or rules out of range, or already in a room


class JoinOutcome(Enum):
    """JOIN's answer."""

    JOINED = 0
    NO_SUCH_ROOM = 1
    ROOM_FULL = 2  # two players already
    BAD_REQUEST = 3


class ChallengeOutcome(Enum):
    """CHALLENGE's answer (REMATCH's 0 and 1 are SENT and TOO_LATE)."""

    SENT = 0
    NO_SUCH_USER = 1  # or not logged in
    BUSY = 2  # in a room, or too many challenges already waiting
    BAD_FORMAT = 3


class PasswordChange(Enum):
    """How a change of password went (PASSWORD, then NEWPASSWORD)."""

    CHANGED = 0
    WRONG_PASSWORD = 1  # PASSWORD's 1: the old one is not it
    TOO_LATE = 2  # NEWPASSWORD's 1: no PASSWORD within 60 s before
    AGAINST_THE_RULES = 3  # NEWPASSWORD's 2: the new one breaks the password rule


class TableOutcome(Enum):
    """What DRAW, DECLINEDRAW, TAKEBACK, DECLINETAKEBACK, ABORT or CLAIM came to (§5.6)."""

    DONE = 0  # offered, accepted, declined, aborted or claimed
    NOT_NOW = 1  # no game, too early or too late, nothing to take back, decline or claim yet
    ALREADY_OFFERED = 2  # DRAW, TAKEBACK: ours stands already
    BAD_FORMAT = 3


Outcome = TypeVar(
    "Outcome",
    RegisterOutcome,
    LoginOutcome,
    CreateOutcome,
    JoinOutcome,
    ChallengeOutcome,
    TableOutcome,
)


def outcome_of(kind: type[Outcome], status: int) -> Outcome | UnknownStatus:
    """The outcome ``status`` names for a request answered with ``kind``."""
    try:
        return kind(status)
    except ValueError:
        return UnknownStatus(status)
