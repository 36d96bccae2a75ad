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
    TableOutcome,
    UnknownStatus,
)
from c4tui.engine import GameState, Player
from c4tui.protocols import lobby as wire
from c4tui.protocols.colours import Colour
from c4tui.protocols.names import PASSWORD_RULE, ROOM_RULE, USER_RULE
from c4tui.protocols.table_talk import (
    ABORTED,
    AWAY_BEFORE_CLAIM,
    DRAW_AGREED,
    IDLE_BEFORE_CLAIM,
    IDLE_WARNING,
    DrawDeclined,
    DrawOffered,
    Idle,
    TableMessage,
    TakebackDeclined,
    TakebackOffered,
)
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

    @classmethod
    def same(cls, text: str) -> Words:
        """The same words for the console and the app; none for the handout (not its request)."""
        return cls(text, "", text)

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
_TOO_MANY = "Too many accounts were registered from your address in the last hour; try again later."

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
        RegisterOutcome.TOO_MANY_FROM_HERE: Words(_TOO_MANY, f"Error: {_TOO_MANY}", _TOO_MANY),
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
        LoginOutcome.BANNED: Words(
            "Cannot log in: That account is banned.",
            "Error: User {user} is banned",
            "That account is banned.",
        ),
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
    "banned": "A moderator banned this account",  # §7
    "deleted": "This account was deleted",
}
#: The connection closed without a ``BYE`` (or the protocol has none).
SERVER_CLOSED = "The server closed the connection"
#: The lobby connection dropped, as a client coming back by itself says it.
CONNECTION_LOST = "Connection lost"
#: Registering: the password and its repetition differ (the app and the console).
PASSWORDS_DIFFER = "The two passwords differ: no account created."
#: Chat asked for outside a room (the lobby's rooms list): the lobby protocol's chat is a room's.
NO_CHAT_IN_THE_LOBBY = "Chat is for a room: join or create one."
#: Said when ``say`` at the lobby's prompt finds no room whose game ended in the last minute.
NO_CHAT_AFTER = (
    "Not sent: chat is for a room, and for a minute after a game for its players and viewers."
)

#: Said when a client that came back by itself is in its game again.
BACK_IN_THE_GAME = "Back in the game"


def connection_went(why: str) -> str:
    """A screen that asks the server nothing more (a finished game, a review) lost it.

    Banned or deleted (§7), the account cannot log in again: only why, then.
    """
    why = why.rstrip(".")
    if why in (BYE_REASONS["banned"], BYE_REASONS["deleted"]):
        return f"{why}."
    return f"{why}: the lobby logs in again once you go back to it (Esc)."


def back_online(why: str) -> str:
    """Said once logged in again after ``why`` (``why_lost``'s words): the server is back."""
    return "The server is back" if why == BYE_REASONS["shutdown"] else "Connected again"


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
    "agreement": "agreed",
    "aborted": "aborted",
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


def terms_line(terms: Terms) -> str:
    """``rated 3+2``, ``casual, no clock``: a game's terms as its panel says them."""
    return terms.words if terms.clock is not None else f"{terms.words}, no clock"


def your_colour(colour: Colour) -> str:
    """The colour asked for in CREATE, QUICKPLAY or CHALLENGE, as the one asking reads it."""
    if colour is Colour.RANDOM:
        return "colours decided when the game begins"
    return f"you play {colour.value}"


def challenges_you(user: str, board: str, terms: Terms) -> str:
    """CHALLENGED in words; ``board`` as the front end describes it (``7 × 6 Classic``)."""
    return f"{user} challenges you: {board}, {terms.words}"


def declined(user: str) -> str:
    """DECLINED in words (the server says it too when the challenged user is no longer free)."""
    return f"{user} declined your challenge (or is no longer free)."


def declined_or_not_free(user: str, free: bool) -> str:
    """DECLINED told apart: ``user`` declined (still ``free``), or sat down elsewhere, or left."""
    if free:
        return f"{user} declined your challenge."
    return f"{user} is no longer free (in a room, or gone): your challenge is off."


# ----- at the table (§5.6) ---------------------------------------------------------------


def _same(text: str) -> Words:
    """The same words for the console and the app (the handout has no table talk)."""
    return Words(text, "", text)


def _table(not_now: str, already: str = "") -> Refusals[TableOutcome]:
    known = {
        TableOutcome.NOT_NOW: _same(not_now),
        TableOutcome.BAD_FORMAT: _same("The server did not understand that."),
    }
    if already:
        known[TableOutcome.ALREADY_OFFERED] = _same(already)
    return Refusals[TableOutcome](known, unknown=_same("Refused ({status})."))


#: Each table request's refusals, by its command.
TABLE = {
    "DRAW": _table("No draw yet: each player must have moved.", "Your draw offer stands."),
    "DECLINEDRAW": _table("There is no draw offer to decline."),
    "TAKEBACK": _table("There is no move of yours to take back.", "You have asked already."),
    "DECLINETAKEBACK": _table("There is no takeback to refuse."),
    "ABORT": _table("Too late to abort: both players have moved."),
    "CLAIM": _table(
        f"Nothing to claim yet: the opponent is here, or not away {AWAY_BEFORE_CLAIM:g} s."
    ),
}


def table_news(message: TableMessage) -> str:
    """An offer, its refusal or IDLE in words, for a front end to show."""
    match message:
        case DrawOffered(user=user):
            return f"{user} offers a draw."
        case DrawDeclined(user=user):
            return f"{user} declined your draw offer."
        case TakebackOffered(user=user):
            return f"{user} asks to take their last move back."
        case TakebackDeclined(user=user):
            return f"{user} refused your takeback."
        case Idle(user=user):
            return (
                f"{user} has not moved for {IDLE_WARNING / 60:g} minutes (at"
                f" {IDLE_BEFORE_CLAIM / 60:g} the other player may claim the game)."
            )


#: GAMEEND's statuses with no winner though the board goes on (§5.6), in words.
GAME_ABORTED = "Game aborted"
CALLED_OFF = {DRAW_AGREED: "Draw by agreement", ABORTED: GAME_ABORTED}


def room_result(
    names: Mapping[Player, str], winner: Player | None, mine: Player | None, how: str = ""
) -> str:
    """``ann (RED) wins!``, ``bob (you, YELLOW) wins: ann forfeited.`` or a draw.

    ``mine``: our colour; ``how``: what happened, for a win off the board (``lost_how``).
    """
    if winner is None:
        return "It's a draw!"
    you = "you, " if winner is mine else ""
    return f"{names[winner]} ({you}{winner.name}) wins" + (f": {how}." if how else "!")


# ----- how a room's game ended, as its result line says it ------------------------------


def room_game_over(
    names: Mapping[Player, str], winner: Player | None, final: GameState, why: str
) -> str:
    """A room game's result line: four in a row, a draw, or a win off the board.

    ``why`` is the engine's reason for a draw, ``lost_how``'s words for a win off the board.
    """
    if winner is None:  # a draw on the board, or one agreed, or an abort (§5.6)
        return f"Draw: {why}." if final.is_over else f"{why}."
    if final.is_over:
        return f"{names[winner]} ({winner.name}) wins with four in a row!"
    return won_line(names[winner], winner, why)


def lost_how(loser: str, status: int, stayed_away: bool) -> str:
    """Why ``loser`` lost a game that did not end on the board (GAMEEND's ``status`` 2 or 3).

    Status 2 is a forfeit on the wire whether it was given or taken: a player the
    server had said was away (AWAY, no BACK) left and did not come back in time.
    """
    if status == 3:
        return f"{loser} lost on time"
    if stayed_away:
        return f"{loser} left and did not come back"
    return f"{loser} forfeited"


def won_line(winner: str, colour: Player, how: str) -> str:
    """``ann (RED) wins: bob lost on time`` — who won, and what happened."""
    return f"{winner} ({colour.name}) wins: {how}"
