"""The c4tui lobby protocol (spec/protocols.md §4): accounts, rooms, players and viewers.

Colon-separated lines, ASCII but for chat's text (UTF-8, §5.6). This module is the
codec only: it turns a client's line into a ``Request`` (or says which bad-format
status it deserves), and formats every message the server sends. The rooms are
``c4tui.lobby``'s; the sockets and the accounts are the server's.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from c4tui.engine import GameState, Move, MoveKind, Player, Rules
from c4tui.net.errors import ProtocolError
from c4tui.net.wire import Framing, quote
from c4tui.protocols import competition, keys, public, puzzles, table_talk
from c4tui.protocols.chat import MAX_CHAT, chat_parts, fit_to_show, valid_chat
from c4tui.protocols.colours import Colour, split_colour
from c4tui.protocols.competition import (
    CompetitionMessage,
    CompetitionRequest,
    Leaderboard,
    Players,
    RegisterBot,
    Rematch,
)
from c4tui.protocols.names import (
    PASSWORD_RULE,
    ROOM_RULE,
    USER_RULE,
    valid_password,
    valid_room,
    valid_user,
)
from c4tui.protocols.past import (
    GameLookup,
    History,
    game_record,
    history,
    parse_game_lookup,
    parse_history,
)
from c4tui.protocols.presence import (
    Away,
    Back,
    Bye,
    ByeReason,
    Rejoin,
    away,
    back,
    bye,
    parse_presence,
    rejoin,
)
from c4tui.protocols.registry import ProtocolSpec, starts_with
from c4tui.protocols.rooms import (
    BADAUTH,
    NOROOM,
    Ack,
    BadFormat,
    Forfeit,
    Join,
    Login,
    Mode,
    Notice,
    Register,
    RoomList,
    Violation,
    ack,
    credentials_parser,
    parse_join,
    parse_room_list,
    room_list,
)
from c4tui.protocols.terms import (
    CASUAL,
    Game,
    Terms,
    game_fields,
    parse_game,
    parse_terms,
    rules_word,
)

#: Re-exported from ``chat``, ``rooms`` and ``names`` (what both room protocols share), ``past`` and
#: ``terms``; the words of §5.3-5.5 are ``competition``'s (``Request`` includes them).
__all__ = ["BADAUTH", "CASUAL", "MAX_CHAT", "NOROOM", "PASSWORD_RULE", "ROOM_RULE", "USER_RULE"]
__all__ += ["Ack", "Away", "Back", "BadFormat", "Bye", "ByeReason", "Forfeit", "Game", "GameLookup"]
__all__ += ["History", "Join", "Login", "Mode", "Notice", "Register", "Rejoin", "RoomList", "Terms"]
__all__ += ["Violation", "ack", "away", "back", "bye", "game_fields", "game_record", "history"]
__all__ += ["parse_game", "rejoin", "room_list", "rules_word", "valid_chat", "valid_password"]
__all__ += ["valid_room", "valid_user"]

DEFAULT_GAME = (7, 6, Rules.POPOUT)
_COLUMN = re.compile(r"[0-9]{1,9}")

#: How the front door knows the lobby (a first line logs in or registers) and frames it.
SPEC = ProtocolSpec(
    name="lobby",
    framing=Framing.LINES,
    recognise=starts_with(b"LOGIN:", b"REGISTER:", b"REGISTERBOT:", *keys.OPENINGS),  # §9 too
    refusal_when_full="BYE:full",  # bye(ByeReason.FULL) (§5.1): over the connection limits
    on_violation=None,  # violations close without a reply
    line_end="\n",
    encoding="utf-8",  # for chat (§5.6); every other field stays ASCII
)


# ----- what clients send --------------------------------------------------------------


@dataclass(frozen=True)
class Create:
    """CREATE:<room>[:<cols>:<rows>:<rules>[:<rated|casual>[:<m>+<i>]]][:<red|yellow|random>]."""

    room: str
    game: Game
    terms: Terms = CASUAL
    colour: Colour = Colour.RED  # the creator's (§5.6)


@dataclass(frozen=True)
class RoomInfo:
    """ROOMINFO:<room>."""

    room: str


@dataclass(frozen=True)
class QuickPlay:
    """QUICKPLAY[:<cols>:<rows>:<rules>[:<rated|casual>[:<m>+<i>]]][:<colour>]."""

    game: Game
    terms: Terms = CASUAL
    colour: Colour = Colour.RANDOM  # the seeker's wish: quick play gives random colours


@dataclass(frozen=True)
class Play:
    """DROP:<col> or POP:<col> (1-based); ``move`` is None for a column that is not a number."""

    move: Move | None
    text: str

    @property
    def unreadable(self) -> str | None:
        """Why the column could not be read, as INVALID words it (None: it could)."""
        return None if self.move is not None else f"{self.text[:20]!a} is not a column number"


@dataclass(frozen=True)
class Chat:
    """CHAT:<text>."""

    text: str


Request = (
    Register
    | Login
    | RoomList
    | Create
    | Join
    | RoomInfo
    | QuickPlay
    | Play
    | Forfeit
    | Chat
    | History
    | GameLookup
    | CompetitionRequest
    | table_talk.TableRequest
    | public.PublicRequest
    | puzzles.PuzzleRequest
    | keys.KeyRequest
)


def parse_request(line: str) -> Request | BadFormat:
    """The request in ``line``. Raises Violation for an unknown command."""
    if line in _BARE:
        return _BARE[line]
    command, _, rest = line.partition(":")
    parse = PARSERS.get(command)
    if parse is None:
        raise Violation(f"unknown command {quote(command, 40)}")
    return parse(rest)


Parser = Callable[[str], "Request | BadFormat"]


def _create(rest: str) -> Request | BadFormat:
    room, *fields = rest.split(":")
    if not valid_room(room):
        return BadFormat(ack("CREATE", 1))
    fields, colour = split_colour(fields, Colour.RED)
    game = parse_game(fields[:3]) if fields else DEFAULT_GAME
    terms = parse_terms(fields[3:])
    if game is None or terms is None:
        return BadFormat(ack("CREATE", 4))
    return Create(room, game, terms, colour)


def _room_info(rest: str) -> Request | BadFormat:
    return RoomInfo(rest) if ":" not in rest else BadFormat(ack("ROOMINFO", 1))


def _quick_play(rest: str) -> Request | BadFormat:
    fields, colour = split_colour(rest.split(":"), Colour.RANDOM)
    game, terms = parse_game(fields[:3]) if fields else DEFAULT_GAME, parse_terms(fields[3:])
    if game is None or terms is None:
        return BadFormat(ack("QUICKPLAY", 1))
    return QuickPlay(game, terms, colour)


def _move(kind: MoveKind) -> Parser:
    def parse(rest: str) -> Request | BadFormat:
        if not _COLUMN.fullmatch(rest):
            return Play(None, rest)
        return Play(Move(kind, int(rest) - 1), rest)

    return parse


def _chat(rest: str) -> Request | BadFormat:
    if not valid_chat(rest):
        return BadFormat(invalid(f"a chat line is 1-{MAX_CHAT} printable characters"))
    return Chat(rest)


#: Each command's parser (the tic-tac-toe codec reuses those of the commands it shares).
PARSERS: dict[str, Parser] = {
    "REGISTER": credentials_parser(Register, 2),
    "LOGIN": credentials_parser(Login, 3),
    "ROOMLIST": parse_room_list,
    "CREATE": _create,
    "JOIN": parse_join,
    "ROOMINFO": _room_info,
    "QUICKPLAY": _quick_play,
    "DROP": _move(MoveKind.DROP),
    "POP": _move(MoveKind.POP),
    "FORFEIT": lambda _: BadFormat(invalid("FORFEIT takes no arguments")),
    "CHAT": _chat,
    "HISTORY": parse_history,
    "GAME": parse_game_lookup,
    "REGISTERBOT": credentials_parser(RegisterBot, 2),
    "PROFILE": competition.parse_profile,
    "LEADERBOARD": competition.parse_leaderboard,
    "PLAYERS": competition.arguments_refused("PLAYERS"),
    "PASSWORD": competition.parse_password,
    "NEWPASSWORD": competition.parse_new_password,
    "CHALLENGE": competition.parse_challenge,
    "ACCEPT": competition.parse_accept,
    "DECLINE": competition.parse_decline,
    "REMATCH": competition.arguments_refused("REMATCH"),
    **table_talk.ARGUMENTS_REFUSED,
    **public.PARSERS,  # BLOCK, REPORT, BAN, DELETEACCOUNT… (§7)
    **puzzles.PARSERS,  # PUZZLE:NEXT, PUZZLESOLVED (§8)
    **keys.PARSERS,  # KEYACCOUNT, KEYREGISTER, KEYBIND, KEYADD, KEYREMOVE (§9)
}
#: Commands that may come without any argument.
_BARE: dict[str, Request | BadFormat] = {
    "QUICKPLAY": QuickPlay(DEFAULT_GAME),
    "FORFEIT": Forfeit(),
    "HISTORY": History(None),
    "LEADERBOARD": Leaderboard(),
    "PLAYERS": Players(),
    "REMATCH": Rematch(),
    "CREATE": BadFormat(ack("CREATE", 4)),  # no room at all: the format, not the name, is wrong
    **table_talk.BARE,  # DRAW, TAKEBACK, ABORT, CLAIM and the declines (§5.6)
    **public.BARE,  # BLOCKS, REPORTS (§7)
    **puzzles.BARE,  # PUZZLE, the daily puzzle (§8)
    **keys.BARE,  # KEYS (§9)
}


# ----- what the server sends ----------------------------------------------------------


def invalid(reason: str) -> str:
    """``INVALID:<reason>``: a move (or a game message) refused, to its sender only."""
    return f"INVALID:{reason}"


def begin(red: str, yellow: str, game: Game) -> str:
    """BEGIN:<red>:<yellow>:<cols>:<rows>:<rules>."""
    return ":".join(["BEGIN", red, yellow, *game_fields(game)])


def in_progress(to_move: str, other: str, game: Game) -> str:
    """INPROGRESS:<to move>:<other>:<cols>:<rows>:<rules>."""
    return ":".join(["INPROGRESS", to_move, other, *game_fields(game)])


def cells(state: GameState) -> str:
    """The board as cols*rows digits, row by row from the top: 0 empty, 1 red, 2 yellow."""
    digits = []
    for row in reversed(range(state.rows)):
        for column in range(state.columns):
            owner = state.cell(column, row)
            digits.append("0" if owner is None else "1" if owner is Player.RED else "2")
    return "".join(digits)


def board_status(state: GameState) -> str:
    """BOARDSTATUS:<cells>."""
    return f"BOARDSTATUS:{cells(state)}"


def game_end(state: GameState, status: int, winner: str | None) -> str:
    """GAMEEND:<cells>:0:<winner> (a win), :1 (a draw), :2:<winner> (a forfeit), :3 (on time)…"""
    fields = ["GAMEEND", cells(state), str(status)]
    return ":".join(fields if winner is None else [*fields, winner])


def chat(user: str, text: str) -> str:
    """CHAT:<user>:<text>, to everyone in the room."""
    return f"CHAT:{user}:{text}"


# ----- what clients receive -----------------------------------------------------------


@dataclass(frozen=True)
class Begin:
    """The game starts: who plays RED and YELLOW, on which board."""

    red: str
    yellow: str
    game: Game


@dataclass(frozen=True)
class InProgress:
    """A viewer joined a game under way: who is to move, the other player, the board."""

    to_move: str
    other: str
    game: Game


@dataclass(frozen=True)
class BoardStatus:
    """The board after a move (cells row by row from the top)."""

    cells: str


@dataclass(frozen=True)
class GameEnd:
    """The end: 0 a win, 1 a draw, 2 forfeit, 3 on time, 4 draw agreed, 5 aborted; "": no winner."""

    cells: str
    status: int
    winner: str


@dataclass(frozen=True)
class ChatLine:
    """Somebody in the room said something."""

    user: str
    text: str


@dataclass(frozen=True)
class Invalid:
    """Our move (or game message) was refused, and why."""

    reason: str


ServerMessage = (
    Ack
    | Begin
    | InProgress
    | BoardStatus
    | GameEnd
    | ChatLine
    | Invalid
    | Notice
    | Bye
    | Away
    | Back
    | Rejoin
    | CompetitionMessage
    | table_talk.TableMessage
    | public.PublicMessage
)
_STATUS = re.compile(r"-?[0-9]{1,3}")
_CELLS = re.compile(r"[012]{16,400}")


def parse_server_message(line: str) -> ServerMessage:  # noqa: PLR0911 (one return per message)
    """What the server said. Raises ProtocolError (quoting it) for anything else."""
    if not fit_to_show(line):  # only a chat's or a report's text may hold more (§5.6, §7)
        return _with_text(line)
    fields = line.split(":")
    word = fields[0]
    if word in (BADAUTH, NOROOM) and len(fields) == 1:
        return Notice(word)
    if len(fields) >= 3 and fields[1] == "ACKSTATUS" and _STATUS.fullmatch(fields[2]):
        return Ack(word, int(fields[2]), tuple(fields[3:]))
    if word == "BEGIN" and len(fields) == 6 and (game := parse_game(fields[3:])):
        return Begin(fields[1], fields[2], game)
    if word == "INPROGRESS" and len(fields) == 6 and (game := parse_game(fields[3:])):
        return InProgress(fields[1], fields[2], game)
    if word == "BOARDSTATUS" and len(fields) == 2 and _CELLS.fullmatch(fields[1]):
        return BoardStatus(fields[1])
    if word == "GAMEEND" and len(fields) in (3, 4) and _CELLS.fullmatch(fields[1]):
        status, winner = fields[2], fields[3] if len(fields) == 4 else ""
        if table_talk.valid_end(status, winner):
            return GameEnd(fields[1], int(status), winner)
    if word == "CHAT" and (said := chat_parts(line)) is not None:
        return ChatLine(*said)
    if word == "INVALID" and len(fields) >= 2:
        return Invalid(line.split(":", 1)[1])
    news: ServerMessage | None = parse_presence(fields)
    news = news or competition.parse_competition_message(fields)
    news = news or table_talk.parse_table_message(fields)
    if (news := news or public.parse_public_message(fields)) is not None:
        return news
    raise ProtocolError(f"not a lobby message: {quote(line)}")


def _with_text(line: str) -> ServerMessage:
    """A line with more than printable ASCII: a CHAT or a REPORTED whose text is by chat's rule."""
    said = chat_parts(line) if line.startswith("CHAT:") else None
    news = ChatLine(*said) if said else public.parse_public_message(line.split(":"))
    if news is None:
        raise ProtocolError(f"not a lobby message: {quote(line)}")
    return news
