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
    TOO_MANY_FROM_HERE = 3  # §7: too many accounts registered from this address this hour


class LoginOutcome(Enum):
    """LOGIN's answer."""

    LOGGED_IN = 0
    NO_SUCH_USER = 1
    WRONG_PASSWORD = 2
    BAD_FORMAT = 3
    BANNED = 4  # §7: the password was right, but a moderator banned the account
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


# ----- the lobby in public (§7) ----------------------------------------------------------


class BlockOutcome(Enum):
    """BLOCK's answer."""

    BLOCKED = 0
    NO_SUCH_USER = 1  # or ourselves
    TOO_MANY = 2  # MAX_BLOCKS already


class UnblockOutcome(Enum):
    """UNBLOCK's answer."""

    UNBLOCKED = 0
    NOT_BLOCKED = 1


class ReportOutcome(Enum):
    """REPORT's answer."""

    REPORTED = 0
    NO_SUCH_USER = 1
    BAD_FORMAT = 2
    TOO_MANY = 3  # REPORTS_PER_HOUR in the last hour already


class BanOutcome(Enum):
    """BAN's answer (MUTE's is ``MuteOutcome``, numbered alike)."""

    BANNED = 0
    NO_SUCH_USER = 1
    NOT_A_MODERATOR = 2
    BAD_FORMAT = 3


class MuteOutcome(Enum):
    """MUTE's answer."""

    MUTED = 0
    NO_SUCH_USER = 1
    NOT_A_MODERATOR = 2
    BAD_FORMAT = 3


class UnbanOutcome(Enum):
    """UNBAN's answer."""

    UNBANNED = 0
    NOT_BANNED = 1
    NOT_A_MODERATOR = 2


class ReportsRefused(Enum):
    """REPORTS refused (its 0 is the list itself)."""

    BAD_FORMAT = 1
    NOT_A_MODERATOR = 2


class CloseReportOutcome(Enum):
    """CLOSEREPORT's answer."""

    CLOSED = 0
    NO_SUCH_REPORT = 1  # none open by that number
    NOT_A_MODERATOR = 2


class DeleteOutcome(Enum):
    """DELETEACCOUNT's answer (BYE:deleted follows a 0, and the server closes)."""

    DELETED = 0
    WRONG_PASSWORD = 1


class ChatRefused(Enum):
    """CHAT:ACKSTATUS, pushed: a chat line that reached nobody (a delivered one has no ACK)."""

    MUTED = 1
    TOO_FAST = 2


# ----- an ssh key as an account (§9) ---------------------------------------------------


class KeyRegisterOutcome(Enum):
    """KEYREGISTER's answer (the account made does not log in: LOGIN with the token does)."""

    CREATED = 0
    NAME_TAKEN = 1
    AGAINST_THE_RULES = 2
    TOO_MANY_FROM_HERE = 3  # §7's limit, counted with REGISTER's
    NO_SUCH_VISIT = 4  # unknown, ended, or no token at all
    KEY_HAS_ACCOUNT = 5  # the visit's key logs in an account already


class KeyBindOutcome(Enum):
    """KEYBIND's answer."""

    BOUND = 0  # or it was already
    ANOTHER_ACCOUNT = 1  # the key logs in another account
    NO_SUCH_VISIT = 2
    TOO_MANY_KEYS = 3  # MAX_KEYS already


class KeyAddOutcome(Enum):
    """KEYADD's answer."""

    ADDED = 0  # or it was already
    ANOTHER_ACCOUNT = 1
    NOT_A_KEY = 2  # not an OpenSSH public key of a type the server takes
    TOO_MANY_KEYS = 3


Outcome = TypeVar(
    "Outcome",
    RegisterOutcome,
    LoginOutcome,
    CreateOutcome,
    JoinOutcome,
    ChallengeOutcome,
    TableOutcome,
    BlockOutcome,
    UnblockOutcome,
    ReportOutcome,
    BanOutcome,
    MuteOutcome,
    UnbanOutcome,
    ReportsRefused,
    CloseReportOutcome,
    DeleteOutcome,
    ChatRefused,
    KeyRegisterOutcome,
    KeyBindOutcome,
    KeyAddOutcome,
)


def outcome_of(kind: type[Outcome], status: int) -> Outcome | UnknownStatus:
    """The outcome ``status`` names for a request answered with ``kind``."""
    try:
        return kind(status)
    except ValueError:
        return UnknownStatus(status)
