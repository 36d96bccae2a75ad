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

import asyncio
import contextlib
import io
import random
import unicodedata
from collections.abc import Callable, Iterator, Sequence

from c4tui.cli import build_parser
from c4tui.cli.solve import run as run_solve
from c4tui.cli.types import USAGE_ERROR
from c4tui.client.room_game import RoomGame
from c4tui.client.tictactoe import TicTacToeRoom
from c4tui.columns.shell import run_shell
from c4tui.engine import GameState, Move, MoveSyntaxError, Rules, parse_move
from c4tui.engine.errors import IllegalMoveError
from c4tui.engine.moves import format_move
from c4tui.engine.sequence import play_sequence
from c4tui.engine.size import parse_size
from c4tui.lobby import CONNECT_FOUR, TIC_TAC_TOE, Lobby, Member
from c4tui.lobby.removal import removed
from c4tui.net.errors import ProtocolError, ServerConceded
from c4tui.protocols import c4n, cfsp, i32cfsp
from c4tui.protocols import keys as key_wire
from c4tui.protocols import lobby as wire
from c4tui.protocols import public as pub
from c4tui.protocols import puzzles as puz
from c4tui.protocols import table_talk as talk
from c4tui.protocols import tictactoe as ttt
from c4tui.protocols.common import Reply
from c4tui.protocols.lobby_boards import state_from_cells
from c4tui.protocols.names import valid_user
from c4tui.records import RecordError, format_record, parse_record
from c4tui.server.dialects import LOBBY
from c4tui.server.tictactoe import TICTACTOE

Target = Callable[[bytes], None]


def text_of(data: bytes) -> str:
    return data.decode("latin-1")


def lines_of(data: bytes) -> list[str]:
    return text_of(data).split("\n")


def utf8_lines_of(data: bytes) -> list[str]:
    """The lines that are UTF-8, as the lobby's framing reads them (§5.6); any other line
    is a violation, which closes the connection before its words reach anything."""
    lines = []
    for raw in data.split(b"\n"):
        with contextlib.suppress(UnicodeDecodeError):
            lines.append(raw.decode("utf-8"))
    return lines


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


def solve_options(data: bytes) -> None:
    """``c4tui solve``'s options: help, or a usage error (argparse's, or status 2), never a crash.

    Its positions are ``digit_sequence``'s; here the words of the input are the command
    line, and a board size that parses is checked (no position is solved).
    """
    argv = ["solve", *text_of(data).split()[:8]]
    try:
        with contextlib.redirect_stderr(io.StringIO()), contextlib.redirect_stdout(io.StringIO()):
            args = build_parser().parse_args(argv)
    except SystemExit as exit_:
        assert exit_.code in (0, USAGE_ERROR), argv  # 0: --help
        return
    if args.command != "solve" or args.columns * args.rows > 64:
        return  # the solver would be built for a board it then refuses: too slow to fuzz
    status = run_solve(args, lines=[], out=io.StringIO(), err=io.StringIO())
    assert status in (0, USAGE_ERROR), (argv, status)


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


# ----- the AI protocols: the client's side, as its network backend drives it -------------


def _legal_replay(before: GameState, move: Move, after: GameState) -> None:
    """The property every client keeps: a move it accepts is one the engine allows."""
    assert before.refusal(move) is None, (before, move)
    assert after == before.play(move)


def i32cfsp_client(data: bytes) -> None:
    """I32CFSP's client against any server lines: ProtocolError, the server giving the game up
    (ServerConceded), or only legal moves taken."""
    lines = iter(line.rstrip("\r") for line in lines_of(data))
    session = i32cfsp.ClientSession("bob", 7, 6, Rules.POPOUT)
    with contextlib.suppress(ProtocolError, ServerConceded, StopIteration):
        session.check_welcome(next(lines))
        session.check_ready(next(lines))
        while not session.state.is_over:
            move = session.state.legal_moves()[0]
            session.send_move(move)
            answer = session.answer_to_move(move, next(lines))
            if answer != i32cfsp.OKAY:
                return
            before = session.state
            reply = session.server_move(next(lines))
            _legal_replay(before, reply, session.state)
            session.after_server_move(next(lines))


def cfsp_client(data: bytes) -> None:
    """CFSP's client against any server lines: ProtocolError, the server giving the game up
    (ServerConceded), or only legal moves taken."""
    lines = iter(line.rstrip("\r") for line in lines_of(data))
    session = cfsp.ClientSession(7, 6)
    with contextlib.suppress(ProtocolError, ServerConceded, StopIteration):
        session.check_start(next(lines))
        while not session.state.is_over:
            move = session.state.legal_moves()[0]
            session.send_move(move)
            session.check_received(move, next(lines))
            if session.state.is_over:
                return
            for _ in range(cfsp.MAX_ASKS):
                session.move_kind(next(lines))
                before = session.state
                answer = session.move_column(next(lines))
                if isinstance(answer, Move):
                    _legal_replay(before, answer, session.state)
                    break
            else:
                return


def c4n_client(data: bytes) -> None:
    """C4N's client against any server messages: ProtocolError, the server giving the game up
    (ServerConceded), or only legal drops taken."""
    texts, _ = c4n.split_messages(text_of(data))
    messages = iter(texts)
    session = c4n.ClientSession()
    with contextlib.suppress(ProtocolError, ServerConceded, StopIteration):
        session.first_board(next(messages))
        while not session.state.is_over:
            move = session.state.legal_moves()[0]
            session.send_move(move)
            if session.state.is_over:
                return
            before = session.state
            if session.reply(next(messages)) is c4n.Kind.RESULT:
                session.final_board(next(messages))
            state = before.play(move)
            for ai_move in session.ai_moves:
                assert state.refusal(ai_move) is None
                state = state.play(ai_move)
            session.ai_moves = []


def tictactoe_client(data: bytes) -> None:
    """The tic-tac-toe client's room against any server messages: only reachable boards shown."""
    link = _Named("bob")
    room = TicTacToeRoom(link, ttt.Begin("ann", "bob"))  # type: ignore[arg-type]
    watcher = TicTacToeRoom(link, ttt.InProgress("ann", "cid"))  # type: ignore[arg-type]
    messages, _ = ttt.split_answers(text_of(data))
    for followed in (room, watcher):
        with contextlib.suppress(ProtocolError):
            for text in messages:
                before = followed.board
                followed._take(ttt.parse_server_message(text))
                after = followed.board
                if before is not None and after is not None and after != before:
                    assert before.move_to(after) is not None
                if followed.ended is not None:
                    break


_ROOM_LOOP = asyncio.new_event_loop()  # a RoomGame reads in a task of its own


def lobby_client(data: bytes) -> None:
    """The lobby client's room against any server lines: ProtocolError, or only legal moves."""
    _ROOM_LOOP.run_until_complete(_follow_room_games(lines_of(data)))


async def _follow_room_games(lines: list[str]) -> None:
    for start in (GameState.new(7, 6, Rules.POPOUT), GameState.new(4, 4, Rules.CLASSIC)):
        game = RoomGame(_Silent("bob"), "ann", "bob", start)  # type: ignore[arg-type]
        try:
            with contextlib.suppress(ProtocolError):
                for line in lines:
                    game._take(wire.parse_server_message(line))
                    if game.ended is not None:
                        break
        finally:
            await game.close()
        taken = [game.moves.get_nowait() for _ in range(game.moves.qsize())]
        moves = [item for item in taken if not isinstance(item, Exception)]
        assert start.play_all(moves) == game.state  # every move one the engine allows


class _Named:
    """What a room needs of its link when no server is there: the user's name."""

    def __init__(self, user: str) -> None:
        self.user = user


class _Silent(_Named):
    """A link whose server never pushes anything: the fuzzer hands the room its messages."""

    async def pushed(self) -> object:
        await asyncio.Event().wait()
        raise AssertionError("unreachable")


# ----- the room protocols ----------------------------------------------------------------


def lobby_messages(data: bytes) -> None:
    """Lobby lines parse (or raise Violation / ProtocolError); server messages round-trip; a
    chat line (or a report's text, §7) a client reads holds no control character, whatever
    the server sent; a report's text a server accepts keeps chat's rule; §9's keys, tokens
    and fingerprints keep theirs."""
    for line in lines_of(data) + utf8_lines_of(data):
        with contextlib.suppress(wire.Violation):
            request = wire.parse_request(line)
            if isinstance(request, puz.PuzzleSolved):  # §8: drops only, a board's worth at most
                assert len(request.moves) <= puz.MAX_PUZZLE_MOVES
                assert puz.moves_field(request.moves) or not request.moves
            _key_request_kept_to_its_rules(request)
            if isinstance(request, pub.Report | pub.Ban):
                assert pub.valid_text(
                    request.text if isinstance(request, pub.Report) else request.reason
                )
        try:
            message = wire.parse_server_message(line)
        except ProtocolError:
            continue
        if isinstance(message, pub.ReportInfo):
            assert wire.parse_server_message(pub.reported(message)) == message
            shown = message.reporter + message.reported + message.text
            assert not {unicodedata.category(c) for c in shown} & {"Cc", "Cf", "Zl", "Zp"}
        if isinstance(message, wire.Ack) and message.status == 0:
            _puzzle_answer_read_again(message)
            _key_answer_read_again(message)
        if isinstance(message, talk.About):  # §5.6's offers, refusals and IDLE
            assert wire.parse_server_message(message.line) == message
        if isinstance(message, wire.ChatLine):
            shown = message.user + message.text  # what a client may put on a terminal
            assert not {unicodedata.category(c) for c in shown} & {"Cc", "Cf", "Zl", "Zp"}
        if isinstance(message, wire.Begin):
            again = wire.begin(message.red, message.yellow, message.game)
            assert wire.parse_server_message(again) == message
        if isinstance(message, wire.BoardStatus):
            for game in [(7, 6, Rules.POPOUT), (4, 4, Rules.CLASSIC)]:
                with contextlib.suppress(ProtocolError):
                    state_from_cells(game, message.cells, GameState.new(*game).turn)


def _read_again(line: str, read: Callable[[Sequence[str]], object], value: object) -> None:
    """The answer a server writes as ``line`` reads, by ``read``, as the ``value`` it holds."""
    again = wire.parse_server_message(line)
    assert isinstance(again, wire.Ack) and read(again.extra) == value


def _puzzle_answer_read_again(answer: wire.Ack) -> None:
    """§8: a puzzle or a verdict a client reads is read the same from the line a server writes."""
    if answer.command == "PUZZLE" and (offer := puz.parse_puzzle_answer(answer.extra)):
        _read_again(puz.puzzle_answer(offer), puz.parse_puzzle_answer, offer)
    if answer.command == "PUZZLESOLVED" and (verdict := puz.parse_solved_answer(answer.extra)):
        _read_again(puz.solved_answer(verdict), puz.parse_solved_answer, verdict)


def _key_request_kept_to_its_rules(request: object) -> None:
    """§9: a key the codec takes is canonical (read again, the same) and has a fingerprint;
    a token or a name it takes is one by the rules, so a server looks up only such."""
    if isinstance(request, key_wire.KeyAdd):
        assert key_wire.public_key_of(request.key) == request.key
        assert key_wire.FINGERPRINT.fullmatch(key_wire.fingerprint_of(request.key))
        assert "\n" not in request.key and len(request.key.split(" ")) == 2
    if isinstance(request, key_wire.KeyRegister):
        assert valid_user(request.user) and key_wire.is_token(request.token)
    if isinstance(request, key_wire.KeyAccountAsk | key_wire.KeyBind | key_wire.KeyGuest):
        assert key_wire.is_token(request.token)


def _key_answer_read_again(answer: wire.Ack) -> None:
    """§9: the fingerprints a client reads are read the same from the line a server writes."""
    if answer.command == "KEYS" and (found := key_wire.fingerprints_field(answer.extra)):
        _read_again(key_wire.keys_answer(found), key_wire.fingerprints_field, found)
    if answer.command == "KEYADD" and (added := key_wire.fingerprint_field(answer.extra)):
        _read_again(key_wire.key_added_answer(added), key_wire.fingerprint_field, added)
    if answer.command == "KEYGUEST" and (guest := key_wire.guest_field(answer.extra)):
        assert valid_user(guest) and pub.reserved_name(guest)  # no account can be a guest
        _read_again(wire.ack("KEYGUEST", 0, guest), key_wire.guest_field, guest)


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
    *,
    lines: Callable[[bytes], list[str]] = lines_of,
) -> None:
    """Three members send the lines (the first character of each picks who); every answer
    must be a message the protocol's clients can read, and every room's game legal."""
    members = [Member(name) for name in ("ann", "bob", "cid")]
    for member in members:
        kind_rooms.challenges.logged_in(member)  # as the server does: challenges reach them
    for line in lines(data):
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
    """The lobby's rooms as a state machine fed any requests, blocks (§7) among them."""
    rooms = Lobby(CONNECT_FOUR, now=lambda: 0.0, coin=random.Random(0))  # colours: seeded
    _rooms(rooms, wire.parse_request, _lobby_dispatch, _lobby_answer, data, lines=utf8_lines_of)


def _lobby_dispatch(rooms: Lobby, member: Member, request: object) -> list[tuple[Member, str]]:
    """The rooms' act, or what the server does to them on BLOCK and UNBLOCK (§7).

    Requests the server answers from its store alone (HISTORY, PROFILE, REPORT…) do
    nothing to the rooms. Nothing any act says may cross a block: no BEGIN between
    the two, no CHAT of the blocked to the blocker, no CHALLENGED either way.
    """
    if isinstance(request, pub.Block):
        if request.user != member.name:  # the store refuses a block of oneself
            rooms.blocks.add(member.name, request.user)
        outbox = rooms.challenges.blocked(member.name, request.user)
    elif isinstance(request, pub.Unblock):
        rooms.blocks.remove(member.name, request.user)
        outbox = []
    elif isinstance(request, pub.Ban | pub.DeleteAccount):  # as a moderator's ban, or its own
        outbox = _removed(rooms, request.user if isinstance(request, pub.Ban) else member.name)
    elif type(request) in LOBBY.kinds:
        outbox = LOBBY.dispatch(rooms, member, request)
    else:
        outbox = []
    for to, message in outbox:
        word, *fields = message.split(":")
        if word == "BEGIN":
            assert not rooms.blocks.between(fields[0], fields[1]), message
        elif word in ("CHALLENGED", "CHAT") and fields[0] != to.name:
            assert not rooms.blocks.blocks(to.name, fields[0]), (to.name, message)
            assert word == "CHAT" or not rooms.blocks.between(to.name, fields[0]), message
    return outbox


def _removed(rooms: Lobby, user: str) -> list[tuple[Member, str]]:
    """What the server does to the rooms when ``user`` is banned or deleted (§7): out at once."""
    there = [m for room in rooms.rooms.values() for m in room.members if m.name == user]
    outbox = removed(rooms, user, there)
    assert not rooms.is_away(user) and all(rooms.room_of(m) is None for m in there), user
    for _, message in outbox:  # only its game's end: a forfeit won by the other player
        word, _, status, winner = message.split(":")
        assert (word, status) == ("GAMEEND", "2") and winner != user, message
    return outbox


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
    "solve_options": solve_options,
    "game_record": game_record,
    "columns_shell": columns_shell,
    "i32cfsp_server": i32cfsp_server,
    "cfsp_server": cfsp_server,
    "c4n_server": c4n_server,
    "i32cfsp_client": i32cfsp_client,
    "cfsp_client": cfsp_client,
    "c4n_client": c4n_client,
    "tictactoe_client": tictactoe_client,
    "lobby_client": lobby_client,
    "lobby_messages": lobby_messages,
    "lobby_rooms": lobby_rooms,
    "tictactoe_messages": tictactoe_messages,
    "tictactoe_rooms": tictactoe_rooms,
}
