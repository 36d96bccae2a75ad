r"""C4N, "Connect I4n" (spec/protocols.md §3): classic 7 × 6 against a server's AI.

A message is a header ``C4N 1.0 TYPE``, then optionally ``\n`` and a payload, with
no terminator: the reference programs treat one ``recv`` as one message. So we
send each message in its own write, and cut what arrives at every ``C4N `` header
(``split_messages``), since the reference server's RESULT and final BOARD often
arrive together. One codec and two state machines, checked by our engine:
``ServerSession`` for ``c4tui serve`` and ``ClientSession`` for the app.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum, IntEnum
from functools import cache

from c4tui.engine import GameState, Move, MoveKind, Player, Rules
from c4tui.engine.bitboard import Geometry, cell_bit
from c4tui.net.errors import ProtocolError, ServerConceded
from c4tui.net.wire import Framing, quote
from c4tui.numbers import ascii_digits, whole_number
from c4tui.protocols.common import Reply
from c4tui.protocols.registry import ProtocolSpec, starts_with

PREFIX = "C4N"
VERSION = "1.0"
COLUMNS = 7
ROWS = 6
#: The only game C4N plays.
GAME = (COLUMNS, ROWS, Rules.CLASSIC)
#: The player's and the AI's cells on the wire.
EMPTY_CELL, PLAYER_CELL, AI_CELL = 0, 1, 2


class Kind(Enum):
    """The message types."""

    START = "START"
    MOVE = "MOVE"
    BOARD = "BOARD"
    RESULT = "RESULT"
    ERROR = "ERROR"
    STOP = "STOP"


class ErrorCode(IntEnum):
    """The codes an ERROR carries."""

    INVALID_MESSAGE = 1
    INVALID_MOVE = 2
    SERVER_FULL = 3
    UNKNOWN = 99


class Outcome(IntEnum):
    """RESULT's payload."""

    PLAYER_WON = 1
    AI_WON = 2
    DRAW = -1


#: Types whose payload is a whole number.
_NUMBER_PAYLOAD = {Kind.MOVE, Kind.RESULT, Kind.ERROR}
_HEADER = f"{PREFIX} "


@dataclass(frozen=True)
class Message:
    """One C4N message; ``payload`` is text without the newline before it."""

    kind: Kind
    payload: str = ""

    def encode(self) -> str:
        """The message as it goes on the wire (one write, no terminator)."""
        header = f"{PREFIX} {VERSION} {self.kind.value}"
        return f"{header}\n{self.payload}" if self.payload else header

    def number(self) -> int:
        """The payload as a whole number. Raises ProtocolError if it is not one."""
        number = whole_number(self.payload, signed=True)
        if number is None:
            raise ProtocolError(f"{self.kind.value} needs a number, got {quote(self.payload)}")
        return number


def message(kind: Kind, payload: object = "") -> str:
    """The wire text of a message of ``kind`` (``payload`` written as text)."""
    return Message(kind, str(payload)).encode()


ERROR_INVALID_MESSAGE = message(Kind.ERROR, ErrorCode.INVALID_MESSAGE.value)
ERROR_INVALID_MOVE = message(Kind.ERROR, ErrorCode.INVALID_MOVE.value)
ERROR_SERVER_FULL = message(Kind.ERROR, ErrorCode.SERVER_FULL.value)


def decode(text: str) -> Message:
    """One message from its wire text. Raises ProtocolError (quoting it) if it is not one."""
    header, _, payload = text.partition("\n")
    parts = header.split()
    if len(parts) != 3 or parts[0] != PREFIX:
        raise ProtocolError(f"not a C4N message: {quote(text)}")
    if parts[1] != VERSION:
        raise ProtocolError(f"C4N version {quote(parts[1])}, not {VERSION}")
    try:
        kind = Kind(parts[2])
    except ValueError:
        raise ProtocolError(f"no C4N message type {quote(parts[2])}") from None
    payload = payload.strip()
    if kind in _NUMBER_PAYLOAD or kind is Kind.BOARD:
        if not payload:
            raise ProtocolError(f"{kind.value} without its payload")
    elif payload:
        raise ProtocolError(f"{kind.value} with a payload: {quote(payload)}")
    return Message(kind, payload)


def split_messages(buffer: str) -> tuple[list[str], str]:
    """Cut ``buffer`` at every ``C4N `` header: the whole messages, and the unfinished rest.

    The last piece counts as whole when it can be read already (a header that
    needs no payload, a number, a BOARD with all its cells); otherwise it is kept
    until more arrives. Text before the first header is returned as a message of
    its own, so the reader sees garbage as garbage.
    """
    starts = [match.start() for match in re.finditer(_HEADER, buffer)]
    if not starts or starts[0] != 0:
        starts.insert(0, 0)
    pieces = [
        buffer[start:end] for start, end in zip(starts, [*starts[1:], len(buffer)], strict=True)
    ]
    if pieces and not _finished(pieces[-1]):
        return pieces[:-1], pieces[-1]
    return [piece for piece in pieces if piece], ""


def _finished(piece: str) -> bool:  # noqa: PLR0911 (one return per kind of piece)
    """False while ``piece`` could still be the start of a longer message."""
    if not piece:
        return True
    if not piece.startswith(_HEADER):
        return not _HEADER.startswith(piece)  # "C4" may be a header's start
    header, _, payload = piece.partition("\n")
    parts = header.split()
    if len(parts) < 3:
        return False
    try:
        kind = Kind(parts[2])
    except ValueError:
        return not any(k.value.startswith(parts[2]) for k in Kind)
    if kind in _NUMBER_PAYLOAD:
        return bool(payload.strip())
    if kind is Kind.BOARD:
        return _board_complete(payload)
    return True


def _board_complete(payload: str) -> bool:
    numbers = payload.split()
    if len(numbers) < 2 or not all(ascii_digits(n) for n in numbers[:2]):
        return bool(payload) and not all(ascii_digits(n) for n in numbers)
    rows, columns = int(numbers[0]), int(numbers[1])
    return len(numbers) >= 2 + rows * columns and payload.endswith(tuple("0123456789"))


# ----- boards ------------------------------------------------------------------------


def format_board(state: GameState, player: Player) -> str:
    """BOARD's payload: ``6 7`` then the cells row by row from the top, ``player``'s as 1."""
    mine, theirs = (state.red, state.yellow) if player is Player.RED else (state.yellow, state.red)
    cells = [
        _PLAYER if mine & bit else _AI if theirs & bit else _EMPTY
        for bit in _wire_order(state.geometry)
    ]
    return f"{state.rows} {state.columns} {' '.join(cells)}"


_EMPTY, _PLAYER, _AI = str(EMPTY_CELL), str(PLAYER_CELL), str(AI_CELL)


@cache
def _wire_order(geometry: Geometry) -> tuple[int, ...]:
    """Every cell's bit in the order BOARD lists them: rows from the top, columns from the left."""
    return tuple(
        cell_bit(geometry, column, row)
        for row in reversed(range(geometry.rows))
        for column in range(geometry.columns)
    )


def parse_board(payload: str) -> list[list[int]]:
    """BOARD's cells as rows from the **bottom** up. Raises ProtocolError unless 6 × 7 of 0/1/2."""
    numbers = payload.split()
    if numbers[:2] != [str(ROWS), str(COLUMNS)]:
        raise ProtocolError(f"a BOARD that is not {ROWS} rows × {COLUMNS}: {quote(payload)}")
    cells = numbers[2:]
    if len(cells) != ROWS * COLUMNS or any(c not in ("0", "1", "2") for c in cells):
        raise ProtocolError(
            f"a BOARD without {ROWS * COLUMNS} cells of 0, 1 or 2: {quote(payload)}"
        )
    top_down = [[int(c) for c in cells[r * COLUMNS : (r + 1) * COLUMNS]] for r in range(ROWS)]
    return top_down[::-1]


def board_cells(state: GameState, player: Player) -> list[list[int]]:
    """``state`` the way ``parse_board`` returns a BOARD (rows from the bottom up)."""
    return parse_board(format_board(state, player))


def outcome_of(state: GameState, player: Player) -> Outcome | None:
    """The RESULT a finished game calls for, seen from ``player``; None while it goes on."""
    if state.winner is not None:
        return Outcome.PLAYER_WON if state.winner is player else Outcome.AI_WON
    return Outcome.DRAW if state.is_over else None


#: How the server's front door recognises and frames C4N.
SPEC = ProtocolSpec(
    name="C4N",
    framing=Framing.UNTERMINATED,
    recognise=starts_with(_HEADER.encode("ascii")),
    refusal_when_full=ERROR_SERVER_FULL,
    on_violation=ERROR_INVALID_MESSAGE,
    split=split_messages,
)


# ----- the server side ---------------------------------------------------------------


class ServerSession:
    """One client's conversation with the server; the game itself is the match driver's.

    The client is the player: RED, moving first, unless ``ai_first`` (as the
    reference server does): then the AI drops first as RED, and the first BOARD,
    sent once it has, already holds its disc.
    """

    def __init__(self, ai_first: bool = False) -> None:
        self.game: tuple[int, int, Rules] | None = None
        self.username = ""  # C4N has no names
        self.client = Player.YELLOW if ai_first else Player.RED
        self._over = False

    def receive(self, text: str) -> Reply:
        """Before the game: START gets the empty BOARD; STOP ends; anything else is garbage."""
        try:
            received = decode(text)
        except ProtocolError as error:
            return self._garbage(str(error))
        if received.kind is Kind.STOP:
            return Reply(close=True, reason="the client sent STOP")
        if received.kind is not Kind.START:
            return self._garbage(f"expected START, got {quote(text)}")
        self.game = GAME
        if self.client is not Player.RED:
            return Reply()  # the first BOARD follows the AI's first disc
        return Reply([message(Kind.BOARD, format_board(GameState.new(*GAME), self.client))])

    def read_move(self, text: str) -> Move | Reply:
        """The client's drop (0-based on the wire), STOP, or ERROR 1 for anything else."""
        try:
            received = decode(text)
            if received.kind is Kind.STOP:
                return Reply(close=True, reason="the client sent STOP")
            if received.kind is not Kind.MOVE or self._over:
                return self._garbage(f"expected MOVE or STOP, got {quote(text)}")
            return Move.drop(received.number())
        except ProtocolError as error:
            return self._garbage(str(error))

    def refused(self) -> Reply:
        """An illegal, negative or out-of-range column: ERROR 2, and the client tries again."""
        return Reply([ERROR_INVALID_MOVE])

    def client_moved(self, after: GameState) -> Reply:
        """Nothing yet (one BOARD per round), unless the client's move ended the game."""
        return self._result(after) or Reply()

    def ai_moved(self, move: Move, after: GameState) -> Reply:
        """The round's BOARD, or RESULT and the final BOARD when the game is over."""
        return self._result(after) or Reply([message(Kind.BOARD, format_board(after, self.client))])

    def ai_failed(self, state: GameState, why: str) -> Reply:
        """RESULT 1 (the player won) and the board as it stands: C4N's word for a win."""
        self._over = True
        board = message(Kind.BOARD, format_board(state, self.client))
        won = message(Kind.RESULT, Outcome.PLAYER_WON.value)
        return Reply([won, board], close=True, reason=f"the AI failed, the client wins: {why}")

    def cannot_serve(self, why: str) -> Reply:
        """ERROR 3, as when the server is full."""
        return Reply([ERROR_SERVER_FULL], close=True, reason=f"refused: {why}")

    def _result(self, after: GameState) -> Reply | None:
        outcome = outcome_of(after, self.client)
        if outcome is None:
            return None
        self._over = True
        board = message(Kind.BOARD, format_board(after, self.client))
        return Reply(
            [message(Kind.RESULT, outcome.value), board],
            close=True,
            reason=f"game over: RESULT {outcome.value}",
        )

    def _garbage(self, problem: str) -> Reply:
        return Reply([ERROR_INVALID_MESSAGE], close=True, reason=f"protocol error: {problem}")


# ----- the client side ---------------------------------------------------------------


class ClientSession:
    """The client's half: what to send, and whether each BOARD fits our own game.

    The person is the player (1 on the wire). Every BOARD must be our board plus
    exactly one AI disc in a place a drop can reach; wins are judged by our engine,
    not taken from the server (the reference server misses some).
    """

    def __init__(self) -> None:
        self.state = GameState.new(*GAME)
        self.player = Player.RED
        #: The AI's moves read from BOARDs and not yet taken by the driver.
        self.ai_moves: list[Move] = []
        self._result: int | None = None

    @staticmethod
    def start() -> str:
        """The first message."""
        return message(Kind.START)

    @staticmethod
    def stop() -> str:
        """Ends the game early (sent when we leave, or after a win the server missed)."""
        return message(Kind.STOP)

    def first_board(self, text: str) -> bool:
        """The answer to START: an empty board, or one AI disc already dropped.

        Returns True when the AI moved first (it then plays RED, and the person YELLOW).
        """
        cells = parse_board(self._expect(text, Kind.BOARD).payload)
        new = [(c, r) for r in range(ROWS) for c in range(COLUMNS) if cells[r][c] != EMPTY_CELL]
        if not new:
            return False
        if len(new) != 1 or cells[new[0][1]][new[0][0]] != AI_CELL or new[0][1] != 0:
            raise ProtocolError(f"a first BOARD with more than one AI disc: {quote(text)}")
        self.player = Player.YELLOW
        self._ai_dropped(new[0][0])
        return True

    def send_move(self, move: Move) -> str:
        """MOVE for our drop (which must be legal here)."""
        if move.kind is not MoveKind.DROP or not self.state.is_legal(move):
            raise ValueError(f"{move} is not a legal C4N move here")
        self.state = self.state.play(move)
        return message(Kind.MOVE, move.column)

    def reply(self, text: str) -> Kind:
        """Judge the server's answer to our move (which did not end the game).

        A BOARD must be our board plus one AI disc where a drop lands; it is played.
        A RESULT waits for ``final_board`` (or ``confirm_result``), after the AI's last move.
        Returns the kind read; raises ProtocolError for anything else.
        """
        received = decode(text)
        if received.kind is Kind.BOARD:
            self._check_board(received.payload)
        elif received.kind is Kind.RESULT:
            self._result = received.number()
        elif received.kind is Kind.ERROR:
            raise ProtocolError(self._error_words(received, text))
        elif received.kind is Kind.STOP:
            raise ProtocolError("the server stopped the game (STOP)")
        else:
            raise ProtocolError(f"expected BOARD or RESULT, got {quote(text)}")
        return received.kind

    def final_board(self, text: str) -> None:
        """The BOARD after RESULT: ours, plus the AI's last disc if it had one.

        The RESULT is then checked against it.
        """
        cells = parse_board(self._expect(text, Kind.BOARD).payload)
        if cells != board_cells(self.state, self.player):
            self._check_board(text.partition("\n")[2].strip())
        self.confirm_result()

    def confirm_result(self) -> None:
        """The RESULT must be what our board shows; RESULT 1 before it shows an end concedes."""
        expected = outcome_of(self.state, self.player)
        if expected is None and self._result == Outcome.PLAYER_WON:
            raise ServerConceded("the server gave the game up before its end (RESULT 1)")
        if expected is None or self._result != expected.value:
            raise ProtocolError(f"a false RESULT {self._result}: {self._our_words()}")

    def _check_board(self, payload: str) -> None:
        cells = parse_board(payload)
        ours = board_cells(self.state, self.player)
        if self.state.is_over:
            over = self._our_words()
            raise ProtocolError(
                f"the game was over ({over}) but the server played on: {quote(payload)}"
            )
        changed = [(c, r) for r in range(ROWS) for c in range(COLUMNS) if cells[r][c] != ours[r][c]]
        if len(changed) != 1 or cells[changed[0][1]][changed[0][0]] != AI_CELL:
            raise ProtocolError(f"a BOARD that is not our board plus one AI disc: {quote(payload)}")
        column, row = changed[0]
        if row != self.state.column_height(column):
            raise ProtocolError(f"an AI disc floating in column {column + 1}: {quote(payload)}")
        self._ai_dropped(column)

    def _ai_dropped(self, column: int) -> None:
        move = Move.drop(column)
        self.state = self.state.play(move)
        self.ai_moves.append(move)

    def _our_words(self) -> str:
        outcome = outcome_of(self.state, self.player)
        if outcome is None:
            return "our board shows the game going on"
        words = {Outcome.PLAYER_WON: "we won", Outcome.AI_WON: "the AI won", Outcome.DRAW: "a draw"}
        return f"our board shows {words[outcome]}"

    @staticmethod
    def _error_words(received: Message, text: str) -> str:
        words = {
            ErrorCode.INVALID_MESSAGE: "it said our message was invalid",
            ErrorCode.INVALID_MOVE: "it refused our move, a legal one",
            ErrorCode.SERVER_FULL: "it is full",
            ErrorCode.UNKNOWN: "an unknown error",
        }
        try:
            return f"ERROR from the server: {words[ErrorCode(received.number())]}"
        except (ValueError, ProtocolError):
            return f"ERROR from the server: {quote(text)}"

    @staticmethod
    def _expect(text: str, kind: Kind) -> Message:
        received = decode(text)
        if received.kind is Kind.ERROR:
            raise ProtocolError(ClientSession._error_words(received, text))
        if received.kind is not kind:
            raise ProtocolError(f"expected {kind.value}, got {quote(text)}")
        return received
