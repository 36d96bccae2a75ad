"""What a room server's refusals mean, in words: one table for the console and the app.

Each front end has its own voice, and they differ today (kept as they were, so
that no message a person sees changes): ``c4tui console --lobby`` answers in
short sentences, ``c4tui tictactoe`` in the INFO1112 handout's own "Error: …"
lines, and the app in words that say what to do next. A template may name
``{user}`` (the name asked for), ``{room}``, ``{current}`` (who the connection
is logged in as) and, for a status the protocol does not define, ``{status}``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum
from typing import Generic

from c4tui.client.outcomes import (
    ChallengeOutcome,
    CreateOutcome,
    JoinOutcome,
    LoginOutcome,
    Outcome,
    RegisterOutcome,
    UnknownStatus,
)
from c4tui.engine import Player
from c4tui.protocols import lobby as wire
from c4tui.protocols.names import PASSWORD_RULE, ROOM_RULE, USER_RULE
from c4tui.protocols.terms import Terms


class Voice(Enum):
    """Which front end speaks."""

    CONSOLE = "console"  # c4tui console --lobby
    HANDOUT = "handout"  # c4tui tictactoe --connect: the INFO1112 handout's words
    APP = "app"  # the app's login dialog and lobby screen


@dataclass(frozen=True)
class Words:
    """One meaning in each voice (templates: see the module's docstring)."""

    console: str
    handout: str
    app: str

    def said(self, voice: Voice, **names: str | int) -> str:
        """The words of ``voice``, with the names filled in."""
        match voice:
            case Voice.CONSOLE:
                template = self.console
            case Voice.HANDOUT:
                template = self.handout
            case Voice.APP:
                template = self.app
        return template.format(**names)


@dataclass(frozen=True)
class Refusals(Generic[Outcome]):
    """What each refusal of one request means, and what to say of an unknown status."""

    known: Mapping[Outcome, Words]
    unknown: Words

    def said(self, outcome: Outcome | UnknownStatus, voice: Voice, **names: str) -> str:
        """``outcome`` (a refusal) in the words of ``voice``."""
        if isinstance(outcome, UnknownStatus):
            return self.unknown.said(voice, status=outcome.status, **names)
        return self.known[outcome].said(voice, **names)


_RULES = f"a user name is {USER_RULE}; a password, {PASSWORD_RULE}"
_HANDOUT_RULES = f"Error: {_RULES}"
_APP_CREDENTIALS = "The server refused that name or password."
_CONSOLE_BAD_LOGIN = "Cannot log in: Bad user name or password."
_HANDOUT_ROOM_REFUSED = "Error: Room {room} was refused"
_APP_NO_ROOM = "The server would not open a room (it may be full)."

REGISTER = Refusals[RegisterOutcome](
    {
        RegisterOutcome.NAME_TAKEN: Words(
            "That name is taken.",
            "Error: User {user} already exists",
            "That username is taken: log in, or choose another.",
        ),
        RegisterOutcome.AGAINST_THE_RULES: Words(
            f"Refused: {_RULES}.", _HANDOUT_RULES, f"The server refused: {_RULES}."
        ),
    },
    unknown=Words("Registration refused ({status}).", _HANDOUT_RULES, _APP_CREDENTIALS),
)

LOGIN = Refusals[LoginOutcome](
    {
        LoginOutcome.NO_SUCH_USER: Words(
            "Cannot log in: No such user.",
            "Error: User {user} not found",
            "No such user: check the name, or Register.",
        ),
        LoginOutcome.WRONG_PASSWORD: Words(
            "Cannot log in: Wrong password.",
            "Error: Wrong password for user {user}",
            "Wrong password.",
        ),
        LoginOutcome.BAD_FORMAT: Words(_CONSOLE_BAD_LOGIN, _HANDOUT_RULES, _APP_CREDENTIALS),
        # Only the tic-tac-toe client logs in twice on one connection.
        LoginOutcome.ALREADY_LOGGED_IN: Words(
            _CONSOLE_BAD_LOGIN, "Error: You are logged in already, as {current}", _APP_CREDENTIALS
        ),
    },
    unknown=Words("Cannot log in: {status}", _HANDOUT_RULES, "Login refused ({status})."),
)

CREATE = Refusals[CreateOutcome](
    {
        CreateOutcome.BAD_NAME: Words(
            f"A room name is {ROOM_RULE}.",
            f"Error: Room {{room}} is invalid (a name is {ROOM_RULE})",
            _APP_NO_ROOM,
        ),
        CreateOutcome.NAME_TAKEN: Words(
            "A room of that name exists.", "Error: Room {room} already exists", _APP_NO_ROOM
        ),
        CreateOutcome.SERVER_FULL: Words(
            "The server has as many rooms as it allows.",
            "Error: Server already contains a maximum of 256 rooms",
            _APP_NO_ROOM,
        ),
        CreateOutcome.BAD_GAME: Words(
            "Bad size or rules (4-20 each; classic or popout), or you are in a room already.",
            _HANDOUT_ROOM_REFUSED,
            _APP_NO_ROOM,
        ),
    },
    unknown=Words("Refused ({status}).", _HANDOUT_ROOM_REFUSED, _APP_NO_ROOM),
)

JOIN = Refusals[JoinOutcome](
    {
        JoinOutcome.NO_SUCH_ROOM: Words(
            "No such room.", "Error: No room named {room}", "That room is gone."
        ),
        JoinOutcome.ROOM_FULL: Words(
            "That room has two players already.",
            "Error: The room {room} already has 2 players",
            "That room has two players: w watches it.",
        ),
        JoinOutcome.BAD_REQUEST: Words(
            "Bad request.",
            "Error: mode is player or viewer (and you may be in one room only)",
            "Cannot join (3).",
        ),
    },
    unknown=Words("Refused ({status}).", _HANDOUT_ROOM_REFUSED, "Cannot join ({status})."),
)

#: QUICKPLAY refused (the tic-tac-toe protocol has no quick play).
QUICK_PLAY_REFUSED = Words(
    "Quick play refused (are you in a room already?).", "", "Quick play was refused."
)

#: BADAUTH and NOROOM, which only the tic-tac-toe client puts in words of its own.
NOTICES = {
    wire.BADAUTH: "Error: You must be logged in to perform this action",
    wire.NOROOM: "Error: You are not in a room",
}

#: Why the server closed our connection, by the reason its ``BYE`` gave (§5.1): the same
#: words in every front end and protocol, since the person must know whether to come back.
BYE_REASONS = {
    "elsewhere": "You logged in somewhere else",
    "idle": "Disconnected after being idle",
    "shutdown": "The server is restarting",
    "full": "The server is full",
    "tls": "This port of the server speaks TLS only: connect with TLS (--tls; in the app, TLS On)",
}
#: The connection closed without a ``BYE`` (or the protocol has none).
SERVER_CLOSED = "The server closed the connection"
#: The lobby connection dropped, as a client coming back by itself says it.
CONNECTION_LOST = "Connection lost"
#: Said when a client that came back by itself is in its game again.
BACK_IN_THE_GAME = "Back in the game"


def closed_because(reason: str | None) -> str:
    """Why the connection closed, in words: ``BYE``'s ``reason``, or None when none came."""
    if reason is None:
        return SERVER_CLOSED
    return BYE_REASONS.get(reason, f"{SERVER_CLOSED} ({reason})")


#: Why a kept game ended, by the reason GAME gives (§5.2), in words for a person.
END_REASONS = {
    "four": "four in a row",
    "full": "board full",
    "repetition": "repetition",
    "forfeit": "forfeit",
    "disconnect": "disconnect",
    "time": "time",
}


def end_reason(reason: str) -> str:
    """GAME's ``reason`` in words (a reason this client does not know, as the server wrote it)."""
    return END_REASONS.get(reason, reason)


def away(user: str, seconds: int) -> str:
    """AWAY in words: the game waits for ``user``, who loses if not back in time."""
    return f"{user} lost the connection: the game waits {seconds} s for them to come back."


def back(user: str) -> str:
    """BACK in words: ``user`` came back in time, and the game goes on."""
    return f"{user} is back."


def reconnecting(why: str, attempt: int) -> str:
    """``Connection lost — reconnecting (2)…``: the ``attempt``-th try to come back."""
    return f"{why} — reconnecting ({attempt})…"


def gave_up(address: str, tries: int) -> str:
    """Coming back failed: no answer from the server at ``address`` in ``tries`` tries."""
    return f"No answer from the server at {address} after {tries} tries: giving up."


# ----- challenges (§5.5) ------------------------------------------------------------------

_BUSY = "is busy in a room (or you are, or three of your challenges are waiting)"
CHALLENGE = Refusals[ChallengeOutcome](
    {
        ChallengeOutcome.NO_SUCH_USER: Words(
            "{user} is not logged in (or is you).", "", "{user} is not logged in (or is you)."
        ),
        ChallengeOutcome.BUSY: Words(f"{{user}} {_BUSY}.", "", f"{{user}} {_BUSY}."),
        ChallengeOutcome.BAD_FORMAT: Words(
            "The server refused those settings.", "", "The server refused those settings."
        ),
    },
    unknown=Words("Challenge refused ({status}).", "", "Challenge refused ({status})."),
)


def challenges_you(user: str, board: str, terms: Terms) -> str:
    """CHALLENGED in words; ``board`` as the front end describes it (``7 × 6 Classic``)."""
    return f"{user} challenges you: {board}, {terms.words}"


def declined(user: str) -> str:
    """DECLINED in words (the server says it too when the challenged user is no longer free)."""
    return f"{user} declined your challenge (or is no longer free)."


def room_result(names: Mapping[Player, str], winner: Player | None, mine: Player | None) -> str:
    """``ann (RED) wins!``, ``bob (you, YELLOW) wins!`` or a draw (``mine``: our colour)."""
    if winner is None:
        return "It's a draw!"
    you = "you, " if winner is mine else ""
    return f"{names[winner]} ({you}{winner.name}) wins!"
