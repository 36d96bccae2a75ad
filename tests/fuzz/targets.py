"""What the fuzzer feeds: every parser of outside input, and the properties it must keep.

Each target takes arbitrary bytes (read as Latin-1, so every byte is a character)
and raises only if a property breaks:

- no exception escapes but the module's own documented error type;
- what is formatted reads back the same (encode → decode round-trips);
- a conversation never accepts a move the engine refuses.

``tests/fuzz/run.py`` runs one under atheris (coverage-guided); ``test_corpus.py``
replays the kept corpus through all of them in the normal test run.
"""

from __future__ import annotations

import contextlib
import io
from collections.abc import Callable, Iterator

from c4tui.columns.shell import run_shell
from c4tui.engine import GameState, Move, MoveSyntaxError, Rules, parse_move
from c4tui.engine.errors import IllegalMoveError
from c4tui.engine.moves import format_move
from c4tui.engine.sequence import play_sequence
from c4tui.engine.size import parse_size
from c4tui.lobby import CONNECT_FOUR, TIC_TAC_TOE, Lobby, Member
from c4tui.protocols import c4n, cfsp, i32cfsp
from c4tui.protocols import lobby as wire
from c4tui.protocols import tictactoe as ttt
from c4tui.protocols.common import ProtocolError, Reply
from c4tui.records import RecordError, format_record, parse_record
from c4tui.server.lobby import LOBBY
from c4tui.server.tictactoe import TICTACTOE

Target = Callable[[bytes], None]


def text_of(data: bytes) -> str:
    return data.decode("latin-1")


def lines_of(data: bytes) -> list[str]:
    return text_of(data).split("\n")


# ----- notation, records and the console's input ----------------------------------------


def move_notation(data: bytes) -> None:
    """A typed move parses or raises MoveSyntaxError; a parsed move formats back to itself."""
    for line in lines_of(data):
        try:
            move = parse_move(line)
        except MoveSyntaxError:
            continue
        assert parse_move(format_move(move)) == move, line
    for line in lines_of(data):
        size = parse_size(line)
        assert size is None or 4 <= size <= 20, line


def digit_sequence(data: bytes) -> None:
    """``c4tui solve``'s input: a position, or MoveSyntaxError / IllegalMoveError."""
    for line in lines_of(data):
        try:
            state = play_sequence(line.strip())
        except (MoveSyntaxError, IllegalMoveError):
            continue
        assert sum(1 for _ in _moves_of(state)) == len(line.strip())


def _moves_of(state: GameState) -> Iterator[int]:
    for column in range(state.columns):
        for row in range(state.rows):
            if state.cell(column, row) is not None:
                yield column


def game_record(data: bytes) -> None:
    """A game record reads or raises RecordError; what is read writes and reads back the same."""
    try:
        record = parse_record(text_of(data))
    except RecordError:
        return
    assert parse_record(format_record(record)) == record


def columns_shell(data: bytes) -> None:
    """The Columns shell ends with status 0 or 2 (a message), whatever it reads."""
    lines = iter(lines_of(data))

    def read() -> str:
        try:
            return next(lines)
        except StopIteration:
            raise EOFError from None

    with contextlib.redirect_stderr(io.StringIO()):  # its message for bad input
        assert run_shell(read, lambda line: None) in (0, 2)


# ----- the AI protocols: the server's side of each conversation -------------------------


def _serve(
    session: i32cfsp.ServerSession | cfsp.ServerSession | c4n.ServerSession, texts: list[str]
) -> None:
    """Feed ``texts`` to a server session as the match driver would, the engine judging moves.

    The AI answers with the first legal move. A reply that closes ends it.
    """
    state: GameState | None = None
    for text in texts:
        if session.game is None:
            reply = session.receive(text)
            if reply.close:
                return
            continue
        if state is None:
            state = GameState.new(*session.game)
        read = session.read_move(text)
        if isinstance(read, Reply):
            if read.close:
                return
            continue
        assert isinstance(read, Move)
        if state.is_over or state.refusal(read) is not None:
            reply = session.refused()  # the engine refuses: the session must not play it
        else:
            state = state.play(read)
            reply = session.client_moved(state)
            if not reply.close and not state.is_over:
                ai = state.legal_moves()[0]
                state = state.play(ai)
                reply = session.ai_moved(ai, state)
        if reply.close:
            return


def i32cfsp_server(data: bytes) -> None:
    """I32CFSP's server side: any lines, never an exception."""
    _serve(i32cfsp.ServerSession(), [line.rstrip("\r") for line in lines_of(data)])


def cfsp_server(data: bytes) -> None:
    """CFSP's server side: any lines, never an exception."""
    _serve(cfsp.ServerSession(), [line.rstrip("\r") for line in lines_of(data)])


def c4n_server(data: bytes) -> None:
    """C4N: the splitter keeps every byte; each piece decodes or raises ProtocolError."""
    text = text_of(data)
    messages, rest = c4n.split_messages(text)
    assert "".join(messages) + rest == text or not text.strip()
    for piece in messages:
        try:
            message = c4n.decode(piece)
        except ProtocolError:
            continue
        assert c4n.decode(c4n.message(message.kind, message.payload)) == message
    _serve(c4n.ServerSession(), messages)


# ----- the room protocols ----------------------------------------------------------------


def lobby_messages(data: bytes) -> None:
    """Lobby lines parse (or raise Violation / ProtocolError); server messages round-trip."""
    for line in lines_of(data):
        with contextlib.suppress(wire.Violation):
            wire.parse_request(line)
        try:
            message = wire.parse_server_message(line)
        except ProtocolError:
            continue
        if isinstance(message, wire.Begin):
            again = wire.begin(message.red, message.yellow, message.game)
            assert wire.parse_server_message(again) == message
        if isinstance(message, wire.BoardStatus):
            for game in [(7, 6, Rules.POPOUT), (4, 4, Rules.CLASSIC)]:
                with contextlib.suppress(ProtocolError):
                    wire.state_from_cells(game, message.cells, GameState.new(*game).turn)


def tictactoe_messages(data: bytes) -> None:
    """Tic-tac-toe: both splitters keep every character but line ends; each piece parses."""
    text = text_of(data)
    for split, parse, error in [
        (ttt.split_requests, ttt.parse_request, wire.Violation),
        (ttt.split_answers, ttt.parse_server_message, ProtocolError),
    ]:
        messages, rest = split(text)
        assert all("\n" not in message for message in messages)
        assert len("".join(messages)) + len(rest) <= len(text)
        for message in [*messages, rest]:
            with contextlib.suppress(error):
                parse(message)


def _rooms(
    kind_rooms: Lobby,
    dialect_parse: Callable[[str], object],
    dispatch: Callable[[Lobby, Member, object], list[tuple[Member, str]]],
    check: Callable[[str], object],
    data: bytes,
) -> None:
    """Three members send the lines (the first character of each picks who); every answer
    must be a message the protocol's clients can read, and every room's game legal."""
    members = [Member(name) for name in ("ann", "bob", "cid")]
    for line in lines_of(data):
        if not line:
            continue
        member = members[ord(line[0]) % len(members)]
        try:
            request = dialect_parse(line[1:])
        except wire.Violation:
            continue
        if isinstance(request, wire.BadFormat | wire.Register | wire.Login):
            continue
        for _, message in dispatch(kind_rooms, member, request):
            check(message)
        for room in kind_rooms.rooms.values():
            assert not room.state.is_over, "a finished game's room is deleted"


def lobby_rooms(data: bytes) -> None:
    """The lobby's rooms as a state machine fed any requests."""
    _rooms(Lobby(CONNECT_FOUR), wire.parse_request, LOBBY.dispatch, _lobby_answer, data)


def _lobby_answer(message: str) -> None:
    if message.startswith("ROOMINFO:"):
        return  # an answer the generic parser reads as an ACK
    wire.parse_server_message(message)


def tictactoe_rooms(data: bytes) -> None:
    """The tic-tac-toe port's rooms as a state machine fed any requests."""
    _rooms(
        Lobby(TIC_TAC_TOE), ttt.parse_request, TICTACTOE.dispatch, ttt.parse_server_message, data
    )


TARGETS: dict[str, Target] = {
    "move_notation": move_notation,
    "digit_sequence": digit_sequence,
    "game_record": game_record,
    "columns_shell": columns_shell,
    "i32cfsp_server": i32cfsp_server,
    "cfsp_server": cfsp_server,
    "c4n_server": c4n_server,
    "lobby_messages": lobby_messages,
    "lobby_rooms": lobby_rooms,
    "tictactoe_messages": tictactoe_messages,
    "tictactoe_rooms": tictactoe_rooms,
}
