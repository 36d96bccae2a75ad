"""I32CFSP, the ICS 32 Connect Four Server Protocol (spec/protocols.md §1).

One codec and two state machines: ``ServerSession`` (what ``c4tui serve`` runs
per connection) and ``ClientSession`` (what the app's network backend runs).
Both check every move with the engine. Lines are text without their CRLF.
"""

from __future__ import annotations

import re
from enum import Enum, auto

from c4tui.engine import (
    MAX_SIZE,
    MIN_SIZE,
    GameState,
    Move,
    MoveKind,
    Player,
    Rules,
)
from c4tui.net.errors import ProtocolError, ServerConceded
from c4tui.net.wire import Framing, quote
from c4tui.numbers import whole_number
from c4tui.protocols.common import Reply
from c4tui.protocols.names import valid_username
from c4tui.protocols.registry import ProtocolSpec, starts_with

HELLO = "I32CFSP_HELLO"
WELCOME = "WELCOME"
AI_GAME = "AI_GAME"
READY = "READY"
OKAY = "OKAY"
INVALID = "INVALID"
WINNER_RED = "WINNER_RED"
WINNER_YELLOW = "WINNER_YELLOW"
DRAW = "DRAW"
ERROR = "ERROR"
CLASSIC = "CLASSIC"
LINE_END = "\r\n"


#: How the server's front door recognises and frames I32CFSP.
SPEC = ProtocolSpec(
    name="I32CFSP",
    framing=Framing.LINES,
    recognise=starts_with(HELLO.encode("ascii")),
    refusal_when_full=ERROR,
    on_violation=ERROR,
)


# ----- the codec ---------------------------------------------------------------------


def format_move(move: Move) -> str:
    """``DROP 3`` / ``POP 3`` (1-based column)."""
    verb = "DROP" if move.kind is MoveKind.DROP else "POP"
    return f"{verb} {move.column + 1}"


def parse_move(line: str) -> Move | None:
    """The move in ``DROP <col>`` / ``POP <col>``; None if the line is not one.

    Any whole number is a column here; whether it exists is the rules' call, so
    ``DROP 1000`` is an INVALID move, not a protocol error.
    """
    parts = line.split(" ")
    if len(parts) != 2 or parts[0] not in ("DROP", "POP"):
        return None
    column = whole_number(parts[1], signed=True)
    if column is None:
        return None
    kind = MoveKind.DROP if parts[0] == "DROP" else MoveKind.POP
    return Move(kind, column - 1)


def format_ai_game(columns: int, rows: int, rules: Rules) -> str:
    """The game request: plain ``AI_GAME`` for the classic 7 × 6 Pop Out game."""
    if rules is Rules.CLASSIC:
        return f"{AI_GAME} {columns} {rows} {CLASSIC}"
    if (columns, rows) == (7, 6):
        return AI_GAME
    return f"{AI_GAME} {columns} {rows}"


def parse_ai_game(line: str) -> tuple[int, int, Rules] | None:
    """Size and rules of an ``AI_GAME`` line; None if it is not a valid one."""
    parts = line.split(" ")
    if parts == [AI_GAME]:
        return 7, 6, Rules.POPOUT
    if parts[0] != AI_GAME or len(parts) not in (3, 4):
        return None
    if not all(re.fullmatch(r"[0-9]{1,2}", part) for part in parts[1:3]):
        return None
    columns, rows = int(parts[1]), int(parts[2])
    if not (MIN_SIZE <= columns <= MAX_SIZE and MIN_SIZE <= rows <= MAX_SIZE):
        return None
    if len(parts) == 4 and parts[3] != CLASSIC:
        return None
    return columns, rows, Rules.CLASSIC if len(parts) == 4 else Rules.POPOUT


def result_line(state: GameState) -> str | None:
    """``WINNER_RED`` / ``WINNER_YELLOW`` / ``DRAW`` for a finished game, else None."""
    if state.winner is Player.RED:
        return WINNER_RED
    if state.winner is Player.YELLOW:
        return WINNER_YELLOW
    if state.is_draw:
        return DRAW
    return None


# ----- the server side ---------------------------------------------------------------


class ServerPhase(Enum):
    """Where a server-side conversation is."""

    HELLO = auto()
    GAME_REQUEST = auto()
    PLAYING = auto()
    CLOSED = auto()


class ServerSession:
    """One client's conversation with the server, minus the sockets and the game.

    The greeting goes through ``receive``; once ``phase`` is PLAYING, the game
    itself is the match driver's: ``read_move`` turns a line into a move, and
    ``refused``, ``client_moved`` and ``ai_moved`` say what to answer.
    """

    client = Player.RED

    def __init__(self) -> None:
        self.phase = ServerPhase.HELLO
        self.username = ""
        self.game: tuple[int, int, Rules] | None = None

    def receive(self, line: str) -> Reply:
        """Answer one line of the greeting."""
        if self.phase is ServerPhase.HELLO:
            return self._hello(line)
        if self.phase is ServerPhase.GAME_REQUEST:
            return self._game_request(line)
        return self._violation(line, "nothing but a move was expected")

    def read_move(self, line: str) -> Move | Reply:
        """The client's move (legal or not: the driver judges), or ERROR for a bad line."""
        move = parse_move(line)
        if self.phase is not ServerPhase.PLAYING or move is None:
            return self._violation(line, "expected DROP <column> or POP <column>")
        return move

    def refused(self) -> Reply:
        """A well-formed move the rules refuse: the client moves again."""
        return Reply([INVALID, READY])

    def client_moved(self, after: GameState) -> Reply:
        """The client's move was played: OKAY, or the result it brought."""
        result = result_line(after)
        if result is not None:
            return self._finish([result], result)
        return Reply([OKAY])

    def ai_moved(self, move: Move, after: GameState) -> Reply:
        """The AI's move, then READY or the result it brought."""
        result = result_line(after)
        if result is not None:
            return self._finish([format_move(move), result], result)
        return Reply([format_move(move), READY])

    def ai_failed(self, state: GameState, why: str) -> Reply:
        """I32CFSP has no forfeit: ERROR (its only word for a game that cannot go on)."""
        self.phase = ServerPhase.CLOSED
        return Reply([ERROR], close=True, reason=f"the AI failed, the client wins: {why}")

    def cannot_serve(self, why: str) -> Reply:
        """ERROR, as when the server is full."""
        self.phase = ServerPhase.CLOSED
        return Reply([ERROR], close=True, reason=f"refused: {why}")

    def _hello(self, line: str) -> Reply:
        parts = line.split(" ")
        if len(parts) != 2 or parts[0] != HELLO or not valid_username(parts[1]):
            return self._violation(line, "expected I32CFSP_HELLO <username>")
        self.username = parts[1]
        self.phase = ServerPhase.GAME_REQUEST
        return Reply([f"{WELCOME} {self.username}"])

    def _game_request(self, line: str) -> Reply:
        game = parse_ai_game(line)
        if game is None:
            return self._violation(line, "expected AI_GAME [<columns> <rows> [CLASSIC]]")
        self.game = game
        self.phase = ServerPhase.PLAYING
        return Reply([READY])

    def _finish(self, lines: list[str], result: str) -> Reply:
        self.phase = ServerPhase.CLOSED
        return Reply(lines, close=True, reason=f"game over: {result}")

    def _violation(self, line: str, expected: str) -> Reply:
        self.phase = ServerPhase.CLOSED
        return Reply([ERROR], close=True, reason=f"protocol error: {expected}, got {quote(line)}")


# ----- the client side ---------------------------------------------------------------


class ClientSession:
    """The client's half: what to send, and whether the server's answers make sense.

    The client is RED. Each method takes the server's lines as they arrive and
    raises ProtocolError, quoting the line, at the first one that is wrong.
    """

    def __init__(self, username: str, columns: int, rows: int, rules: Rules) -> None:
        if not valid_username(username):
            raise ValueError(f"{username!r} is not a valid I32CFSP username")
        self.username = username
        self.state = GameState.new(columns, rows, rules)

    def hello(self) -> str:
        """The first line to send."""
        return f"{HELLO} {self.username}"

    def check_welcome(self, line: str) -> None:
        """The server must echo the username exactly."""
        expect(line, f"{WELCOME} {self.username}")

    def game_request(self) -> str:
        """The line asking for a game of our size and rules."""
        return format_ai_game(self.state.columns, self.state.rows, self.state.rules)

    def check_ready(self, line: str) -> None:
        """READY starts the game (and follows every server move)."""
        expect(line, READY)

    def send_move(self, move: Move) -> str:
        """The line for our move (which must be legal here)."""
        if not self.state.is_legal(move):
            raise ValueError(f"{move} is not legal here: {self.state.refusal(move)}")
        return format_move(move)

    def answer_to_move(self, move: Move, line: str) -> str:
        """Judge the first line after our move; returns it (OKAY, INVALID or a result).

        After OKAY, call ``server_move``; after INVALID, ``check_ready``; a result
        ends the game.
        """
        after = self.state.play(move)
        if line == INVALID:
            return line
        if line == OKAY and not after.is_over:
            self.state = after
            return line
        if after.is_over and line == result_line(after):
            self.state = after
            return line
        expected = result_line(after) or "OKAY or INVALID"
        raise ProtocolError(f"after our {format_move(move)} expected {expected}, got {quote(line)}")

    def server_move(self, line: str) -> Move:
        """The server's move: it must parse and be legal on our board."""
        move = parse_move(line)
        if line == ERROR:  # what a server whose AI failed (an outside program) can say
            raise ServerConceded("the server ended the game with ERROR instead of its move")
        if move is None:
            raise ProtocolError(f"expected the server's DROP/POP move, got {quote(line)}")
        reason = self.state.refusal(move)
        if reason is not None:
            raise ProtocolError(f"the server played an illegal move {quote(line)}: {reason}")
        self.state = self.state.play(move)
        return move

    def after_server_move(self, line: str) -> None:
        """After the server's move: READY, or the result our own board shows."""
        expected = result_line(self.state) or READY
        expect(line, expected)


def expect(line: str, wanted: str) -> None:
    """Raise ProtocolError unless ``line`` is exactly ``wanted``."""
    if line != wanted:
        raise ProtocolError(f"expected {wanted!r}, got {quote(line)}")
