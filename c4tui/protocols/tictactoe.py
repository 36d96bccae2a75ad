"""The INFO1112 tic-tac-toe protocol (``../shared/seeds/info1112-tictactoe-server.txt``).

The lobby protocol (``c4tui.protocols.lobby``) is modelled on it, so the two
share their accounts and room commands word for word: LOGIN, REGISTER,
ROOMLIST and JOIN are parsed by the lobby's own parsers and answered with its
ACKSTATUS words. What is tic-tac-toe's own is here: ``CREATE:<room>`` without
settings, ``PLACE:<x>:<y>``, BEGIN and INPROGRESS with two names only, a board
of nine digits — and the framing.

**Framing.** Messages have no terminator: the handout's programs send one
message per write and read one per ``recv``. What arrives in one read may
still hold two messages (a peer that writes twice quickly) or half of one (a
packet split on the way), so text is cut like this:

- newlines end messages, for clients that send one (a carriage return before it is dropped);
- text after the last newline is cut before each command word that follows a
  complete message (``LOGIN:a:bROOMLIST:PLAYER`` is two messages);
- a last piece that cannot be complete yet (``LOGI``, ``PLACE:1``,
  ``JOIN:room:PLA``) waits for the rest, up to a second, and is then judged as
  it stands; a piece that is complete by the grammar is taken at once.

So a password containing a command word and its colon (``aJOIN:b``) reaches the
server whole only from a client that ends its messages with a newline.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from c4tui.net.errors import ProtocolError
from c4tui.net.wire import Framing, Splitter, quote
from c4tui.protocols import lobby as wire
from c4tui.protocols.names import valid_room
from c4tui.protocols.registry import ProtocolSpec, starts_with
from c4tui.tictactoe import Board, TicTacToeError

# ----- framing -------------------------------------------------------------------------

Unfinished = Callable[[str], bool]


def splitter(starts: re.Pattern[str], unfinished: Unfinished) -> Splitter:
    """A splitter (see the module's docstring) for messages that begin with ``starts``."""

    def split(text: str) -> tuple[list[str], str]:
        *lines, rest = text.split("\n")
        messages = [line.removesuffix("\r") for line in lines if line.removesuffix("\r")]
        pieces = _cut(rest, starts, unfinished)
        if pieces and unfinished(pieces[-1]):
            return messages + pieces[:-1], pieces[-1]
        return messages + pieces, ""

    return split


def _cut(text: str, starts: re.Pattern[str], unfinished: Unfinished) -> list[str]:
    """``text`` cut before every message start that follows a finished message."""
    pieces: list[str] = []
    begin = 0
    for match in starts.finditer(text):
        cut = match.start()
        if cut > begin and not unfinished(text[begin:cut]):
            pieces.append(text[begin:cut])
            begin = cut
    if begin < len(text):
        pieces.append(text[begin:])
    return pieces


def _prefix_of(piece: str, words: tuple[str, ...]) -> bool:
    """True if ``piece`` is the beginning (not the whole) of one of ``words``."""
    return any(word.startswith(piece) and word != piece for word in words)


_MODES = ("PLAYER", "VIEWER")
_REQUEST_WORDS = ("LOGIN", "REGISTER", "ROOMLIST", "CREATE", "JOIN", "PLACE")
_REQUEST_START = re.compile(r"(?:LOGIN|REGISTER|ROOMLIST|CREATE|JOIN|PLACE):|FORFEIT(?=$|[A-Z])")


def request_unfinished(piece: str) -> bool:  # noqa: PLR0911 (one return per command)
    """True while ``piece`` can only be the beginning of a client's message."""
    command, colon, rest = piece.partition(":")
    if not colon:
        return _prefix_of(piece, (*(f"{word}:" for word in _REQUEST_WORDS), "FORFEIT"))
    if command in ("LOGIN", "REGISTER"):
        _, colon2, password = rest.partition(":")
        return not colon2 or not password
    if command == "ROOMLIST":
        return _prefix_of(rest, _MODES)
    if command == "CREATE":
        return not rest
    if command == "JOIN":
        _, colon2, mode = rest.rpartition(":")
        return not colon2 or _prefix_of(mode, _MODES)
    if command == "PLACE":
        return re.fullmatch(r"[0-9]*:?", rest) is not None
    return False


_ANSWER_START = re.compile(
    r"(?:LOGIN|REGISTER|ROOMLIST|CREATE|JOIN):ACKSTATUS:|(?:BEGIN|INPROGRESS|BOARDSTATUS|GAMEEND):"
    r"|(?:BADAUTH|NOROOM)(?=$|[A-Z])"
)
_ANSWER_WORDS = ("BEGIN", "INPROGRESS", "BOARDSTATUS", "GAMEEND")


def answer_unfinished(piece: str) -> bool:  # noqa: PLR0911 (one return per message)
    """True while ``piece`` can only be the beginning of a server's message."""
    fields = piece.split(":")
    if len(fields) == 1:
        words = (*(f"{w}:" for w in (*_REQUEST_WORDS, *_ANSWER_WORDS)), "BADAUTH", "NOROOM")
        return _prefix_of(piece, words)
    if fields[1] != "ACKSTATUS" and fields[0] in _REQUEST_WORDS:
        return "ACKSTATUS:".startswith(":".join(fields[1:]))
    if fields[1] == "ACKSTATUS":
        return len(fields) == 2 or not fields[2]
    if fields[0] in ("BEGIN", "INPROGRESS"):
        return len(fields) == 2 or not fields[2]
    if len(fields[1]) < len(Board().text()):
        return fields[0] in ("BOARDSTATUS", "GAMEEND")
    if fields[0] == "GAMEEND":  # a win or a forfeit names the winner
        if len(fields) == 3:
            return fields[2] in ("", "0", "2")
        return len(fields) == 2 or (len(fields) == 4 and not fields[3])
    return False


split_requests = splitter(_REQUEST_START, request_unfinished)
split_answers = splitter(_ANSWER_START, answer_unfinished)

#: How the tic-tac-toe port frames and recognises its clients (it speaks nothing else).
SPEC = ProtocolSpec(
    name="tictactoe",
    framing=Framing.UNTERMINATED,
    recognise=starts_with(*(word.encode("ascii") for word in _REQUEST_WORDS), b"FORFEIT"),
    refusal_when_full=None,  # the handout has no word for it: the connection just closes
    on_violation=None,  # violations close without a reply, as in the lobby
    split=split_requests,
)
#: The same protocol as a client reads the server's messages.
CLIENT_SPEC = ProtocolSpec(
    name="tictactoe",
    framing=Framing.UNTERMINATED,
    recognise=SPEC.recognise,
    refusal_when_full=None,
    on_violation=None,
    split=split_answers,
)

# ----- what clients send ---------------------------------------------------------------


@dataclass(frozen=True)
class CreateRoom:
    """CREATE:<room>."""

    room: str


@dataclass(frozen=True)
class Place:
    """PLACE:<x>:<y>; ``cell`` is None when the two are not numbers."""

    cell: tuple[int, int] | None
    text: str

    @property
    def unreadable(self) -> str | None:
        """Why the cell could not be read (None: it could): the rooms refuse the move for it."""
        return None if self.cell is not None else f"{self.text[:20]!r} is not a column and a row"


Request = wire.Register | wire.Login | wire.RoomList | CreateRoom | wire.Join | Place | wire.Forfeit
_COORDINATE = re.compile(r"[0-9]{1,9}")


def parse_request(message: str) -> Request | wire.BadFormat:  # noqa: PLR0911 (one per command)
    """The request in ``message``. Raises wire.Violation for anything else."""
    if message == "FORFEIT":
        return wire.Forfeit()
    command, colon, rest = message.partition(":")
    if command in _SHARED:
        if not colon:
            return _SHARED_BARE[command]
        parsed = wire.PARSERS[command](rest)
        assert isinstance(
            parsed, wire.Register | wire.Login | wire.RoomList | wire.Join | wire.BadFormat
        )
        return parsed
    if command == "CREATE":
        if not colon or ":" in rest:
            return wire.BadFormat(wire.ack("CREATE", 4))
        return CreateRoom(rest) if valid_room(rest) else wire.BadFormat(wire.ack("CREATE", 1))
    if command == "PLACE":
        x, colon2, y = rest.partition(":")
        if colon and colon2 and _COORDINATE.fullmatch(x) and _COORDINATE.fullmatch(y):
            return Place((int(x), int(y)), rest)
        return Place(None, rest)
    raise wire.Violation(f"not a tic-tac-toe message: {quote(message, 40)}")


_SHARED = ("REGISTER", "LOGIN", "ROOMLIST", "JOIN")
#: The shared commands sent without any argument, and their bad-format answers.
_SHARED_BARE = {
    "REGISTER": wire.BadFormat(wire.ack("REGISTER", 2), account=True),
    "LOGIN": wire.BadFormat(wire.ack("LOGIN", 3), account=True),
    "ROOMLIST": wire.BadFormat(wire.ack("ROOMLIST", 1)),
    "JOIN": wire.BadFormat(wire.ack("JOIN", 3)),
}

# ----- what the server sends -----------------------------------------------------------


def begin(first: str, second: str) -> str:
    """BEGIN:<player 1>:<player 2> (player 1 places X and moves first)."""
    return f"BEGIN:{first}:{second}"


def in_progress(to_move: str, other: str) -> str:
    """INPROGRESS:<current turn player>:<opposing player>, to a viewer joining midway."""
    return f"INPROGRESS:{to_move}:{other}"


def board_status(board: Board) -> str:
    """BOARDSTATUS:<nine digits>."""
    return f"BOARDSTATUS:{board.text()}"


def game_end(board: Board, status: int, winner: str | None) -> str:
    """GAMEEND:<board>:0:<winner> (a win), :1 (a draw), :2:<winner> (a forfeit)."""
    fields = ["GAMEEND", board.text(), str(status)]
    return ":".join(fields if winner is None else [*fields, winner])


# ----- what clients receive ------------------------------------------------------------


@dataclass(frozen=True)
class Begin:
    """The game starts: ``first`` places X and moves first, ``second`` places O."""

    first: str
    second: str


@dataclass(frozen=True)
class InProgress:
    """A viewer joined a game under way: who is to move, and the other player."""

    to_move: str
    other: str


ServerMessage = wire.Ack | wire.Notice | Begin | InProgress | wire.BoardStatus | wire.GameEnd
_STATUS = re.compile(r"[0-9]{1,3}")
_BOARD = re.compile(r"[012]{9}")


def parse_server_message(message: str) -> ServerMessage:
    """What a tic-tac-toe server said. Raises ProtocolError (quoting it) for anything else."""
    fields = message.split(":")
    word = fields[0]
    if word in (wire.BADAUTH, wire.NOROOM) and len(fields) == 1:
        return wire.Notice(word)
    if len(fields) >= 3 and fields[1] == "ACKSTATUS" and _STATUS.fullmatch(fields[2]):
        return wire.Ack(word, int(fields[2]), tuple(fields[3:]))
    if word == "BEGIN" and len(fields) == 3:
        return Begin(fields[1], fields[2])
    if word == "INPROGRESS" and len(fields) == 3:
        return InProgress(fields[1], fields[2])
    if word == "BOARDSTATUS" and len(fields) == 2 and _board(fields[1]):
        return wire.BoardStatus(fields[1])
    if word == "GAMEEND" and len(fields) in (3, 4) and _board(fields[1]):
        status, winner = fields[2], fields[3] if len(fields) == 4 else ""
        if (status == "1") == (winner == "") and status in ("0", "1", "2"):
            return wire.GameEnd(fields[1], int(status), winner)
    raise ProtocolError(f"not a tic-tac-toe message: {quote(message)}")


def _board(text: str) -> bool:
    """True for nine digits that could arise in a game."""
    if not _BOARD.fullmatch(text):
        return False
    try:
        Board.from_text(text)
    except TicTacToeError:
        return False
    return True
