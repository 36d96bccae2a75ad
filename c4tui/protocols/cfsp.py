"""CFSP, the later ICS 32 edition (spec/protocols.md §2): any size, Pop Out, against a server AI.

Lines end in CRLF. The client asks for a game rows first (``GAME 6 7``), sends its
move as ``USER <0 drop | 1 pop> <column>``, and then asks for the AI's move in two
questions (``MOVE``, then ``COLUMN``). Nobody announces a winner: each side sees
the end on its own board. One codec and two state machines, checked by our engine.
"""

from __future__ import annotations

import re

from c4tui.engine import MAX_SIZE, MIN_SIZE, GameState, Move, MoveKind, Player, Rules
from c4tui.net.errors import ProtocolError, ServerConceded
from c4tui.net.wire import Framing, quote
from c4tui.protocols.common import Reply
from c4tui.protocols.registry import ProtocolSpec, starts_with

GAME = "GAME"
START = "START"
USER = "USER"
RECEIVED = "RECEIVED"
MOVE = "MOVE"
COLUMN = "COLUMN"
ERROR = "ERROR"
#: The move codes on the wire.
DROP_CODE, POP_CODE = "0", "1"
_KIND_BY_CODE = {DROP_CODE: MoveKind.DROP, POP_CODE: MoveKind.POP}
_CODE_BY_KIND = {kind: code for code, kind in _KIND_BY_CODE.items()}
#: CFSP always plays Pop Out.
RULES = Rules.POPOUT
#: How often a client asks again for an AI move that is illegal on its board.
MAX_ASKS = 3
_SIZE = re.compile(r"[0-9]{1,2}")
_COLUMN = re.compile(r"-?[0-9]{1,9}")

#: How the server's front door recognises and frames CFSP ("GAME", "Game", "game" …).
SPEC = ProtocolSpec(
    name="CFSP",
    framing=Framing.LINES,
    recognise=starts_with(b"game ", ignore_case=True),
    refusal_when_full=ERROR,
    on_violation=ERROR,
)


def format_game(columns: int, rows: int) -> str:
    """The game request, rows first: ``GAME 6 7`` for 7 columns × 6 rows."""
    return f"{GAME} {rows} {columns}"


def parse_game(line: str) -> tuple[int, int, Rules] | None:
    """Columns, rows and rules of a ``GAME <rows> <columns>`` line (any case); None if invalid."""
    parts = line.split(" ")
    if len(parts) != 3 or parts[0].upper() != GAME:
        return None
    if not (_SIZE.fullmatch(parts[1]) and _SIZE.fullmatch(parts[2])):
        return None
    rows, columns = int(parts[1]), int(parts[2])
    if not (MIN_SIZE <= rows <= MAX_SIZE and MIN_SIZE <= columns <= MAX_SIZE):
        return None
    return columns, rows, RULES


def format_user_move(move: Move) -> str:
    """``USER 0 3`` drops in column 3; ``USER 1 3`` pops from it (1-based)."""
    return f"{USER} {_CODE_BY_KIND[move.kind]} {move.column + 1}"


def parse_user_move(line: str) -> Move | None:
    """The move in a ``USER <code> <column>`` line; None if the line is not one."""
    parts = line.split(" ")
    if len(parts) != 3 or parts[0] != USER or parts[1] not in _KIND_BY_CODE:
        return None
    if not _COLUMN.fullmatch(parts[2]):
        return None
    return Move(_KIND_BY_CODE[parts[1]], int(parts[2]) - 1)


# ----- the server side ---------------------------------------------------------------


class ServerSession:
    """One client's conversation with the server; the game itself is the match driver's.

    The client is RED. After each of its moves (``RECEIVED``) the AI moves, and the
    client may ask for that move's type and column, as often as it likes, until it
    sends its next move. An illegal move or any other line is ERROR and a close.
    """

    client = Player.RED

    def __init__(self) -> None:
        self.game: tuple[int, int, Rules] | None = None
        self.username = ""  # CFSP has no names
        self._ai_move: Move | None = None
        self._over = False

    def receive(self, line: str) -> Reply:
        """The game request, ``GAME <rows> <columns>``, answered with START."""
        game = parse_game(line)
        if game is None:
            return self._violation(line, f"expected GAME <rows> <columns>, {MIN_SIZE}-{MAX_SIZE}")
        self.game = game
        return Reply([START])

    def read_move(self, line: str) -> Move | Reply:
        """The client's USER move, or the answer to its question about the AI's move."""
        if line in (MOVE, COLUMN) and self._ai_move is not None:
            answer = _CODE_BY_KIND[self._ai_move.kind] if line == MOVE else self._ai_move.column + 1
            if self._over and line == COLUMN:
                return Reply([str(answer)], close=True, reason="game over: the AI's move told")
            return Reply([str(answer)])
        move = parse_user_move(line)
        if move is None or self._over:
            expected = "MOVE or COLUMN" if self._over else "USER <0|1> <column>, MOVE or COLUMN"
            return self._violation(line, f"expected {expected}")
        return move

    def refused(self) -> Reply:
        """An illegal USER move: ERROR and a close."""
        return self._violation("", "an illegal move")

    def client_moved(self, after: GameState) -> Reply:
        """RECEIVED; and a close if that move ended the game."""
        self._ai_move = None
        if after.is_over:
            self._over = True
            return Reply([RECEIVED], close=True, reason="game over: the client's move ended it")
        return Reply([RECEIVED])

    def ai_moved(self, move: Move, after: GameState) -> Reply:
        """Nothing to send: the client asks (MOVE, COLUMN) when it is ready."""
        self._ai_move = move
        self._over = after.is_over
        return Reply()

    def ai_failed(self, state: GameState, why: str) -> Reply:
        """CFSP has no forfeit: ERROR (its only word for a game that cannot go on)."""
        return Reply([ERROR], close=True, reason=f"the AI failed, the client wins: {why}")

    def cannot_serve(self, why: str) -> Reply:
        """ERROR, as when the server is full."""
        return Reply([ERROR], close=True, reason=f"refused: {why}")

    def _violation(self, line: str, expected: str) -> Reply:
        got = f", got {quote(line)}" if line else ""
        return Reply([ERROR], close=True, reason=f"protocol error: {expected}{got}")


# ----- the client side ---------------------------------------------------------------


class ClientSession:
    """The client's half: the lines to send, and whether the server's answers make sense.

    The client is RED. Raises ProtocolError, quoting the line, at the first wrong one.
    """

    def __init__(self, columns: int, rows: int) -> None:
        self.state = GameState.new(columns, rows, RULES)
        self._asked_kind: MoveKind | None = None

    def game_request(self) -> str:
        """The first line."""
        return format_game(self.state.columns, self.state.rows)

    def check_start(self, line: str) -> None:
        """START begins the game."""
        if line != START:
            raise ProtocolError(f"expected START, got {quote(line)}")

    def send_move(self, move: Move) -> str:
        """The USER line for our move (which must be legal here)."""
        if not self.state.is_legal(move):
            raise ValueError(f"{move} is not legal here: {self.state.refusal(move)}")
        return format_user_move(move)

    def check_received(self, move: Move, line: str) -> None:
        """RECEIVED: our move is played."""
        if line != RECEIVED:
            raise ProtocolError(
                f"after our {format_user_move(move)} expected RECEIVED, got {quote(line)}"
            )
        self.state = self.state.play(move)

    def move_kind(self, line: str) -> None:
        """The answer to MOVE: 0 (drop) or 1 (pop); ERROR gives the game up (its AI failed)."""
        if line == ERROR:
            raise ServerConceded("the server ended the game with ERROR instead of its move")
        if line not in _KIND_BY_CODE:
            raise ProtocolError(f"asked MOVE, expected 0 or 1, got {quote(line)}")
        self._asked_kind = _KIND_BY_CODE[line]

    def move_column(self, line: str) -> Move | str:
        """The answer to COLUMN: the AI's move if it is legal here (it is played), else why not."""
        if self._asked_kind is None or not _COLUMN.fullmatch(line):
            raise ProtocolError(f"asked COLUMN, expected a column number, got {quote(line)}")
        move = Move(self._asked_kind, int(line) - 1)
        reason = self.state.refusal(move)
        if reason is not None:
            return f"{format_user_move(move).removeprefix(USER + ' ')} ({reason})"
        self.state = self.state.play(move)
        return move
