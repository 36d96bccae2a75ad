"""People against people through a lobby server: the connection, and the seats of its rooms.

``LobbyLink`` is one logged-in connection: requests wait for their ACKSTATUS,
everything else the server pushes (BEGIN, boards, chat, the end) is routed to
the room's game. It speaks the lobby protocol, or with ``TICTACTOE_LINK`` the
INFO1112 tic-tac-toe protocol, whose accounts and rooms work the same way
(its games are ``c4tui.match.tictactoe``'s). ``RoomGame`` turns each
BOARDSTATUS into the move that made it, checked by our engine, for the
driver's ``RoomSeat``s: the opponent's seat when we play, both seats when we
watch. Chat lines reach whoever listens at once.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

from c4tui.engine import GameState, Move, Player, Rules
from c4tui.net.address import CONNECT_TIMEOUT
from c4tui.net.connection import Connection, open_connection
from c4tui.net.errors import ConnectionClosed, NetworkError
from c4tui.net.framing import MessageStream
from c4tui.protocols import lobby as wire
from c4tui.protocols import tictactoe as ttt_wire
from c4tui.protocols.common import ProtocolError, quote
from c4tui.protocols.registry import ProtocolSpec

#: Seconds to wait for the answer to a request.
REPLY_TIMEOUT = 30.0

Game = tuple[int, int, Rules]
#: Anything a room server may push, in either protocol.
ServerMessage = wire.ServerMessage | ttt_wire.ServerMessage


@dataclass(frozen=True)
class LinkDialect:
    """A room protocol as a client speaks it: its framing and its server's messages."""

    spec: ProtocolSpec
    parse: Callable[[str], ServerMessage]
    server: str  # what to call the server in a message to a person


LOBBY_LINK = LinkDialect(wire.SPEC, wire.parse_server_message, "The lobby server")
TICTACTOE_LINK = LinkDialect(
    ttt_wire.CLIENT_SPEC, ttt_wire.parse_server_message, "The tic-tac-toe server"
)


@dataclass(frozen=True)
class RoomSummary:
    """One room as a lobby list shows it."""

    name: str
    game: Game
    red: str
    yellow: str  # "" while the creator waits
    viewers: str
    state: str  # waiting or playing

    @classmethod
    def of(cls, name: str, answer: wire.Ack) -> RoomSummary | None:
        """The summary ROOMINFO's answer gives; None for no such room (or a malformed one)."""
        if answer.status != 0 or len(answer.extra) != 7:
            return None
        game = wire.parse_game(list(answer.extra[:3]))
        if game is None:
            return None
        red, yellow, viewers, state = answer.extra[3:]
        return cls(name, game, red, yellow, viewers, state)

    @property
    def players(self) -> str:
        """``ann vs bob``, or ``ann waits``."""
        return f"{self.red} vs {self.yellow}" if self.yellow else f"{self.red} waits"


class LobbyLink:
    """One connection to a lobby server."""

    def __init__(self, connection: Connection, dialect: LinkDialect = LOBBY_LINK) -> None:
        self.connection = connection
        self.dialect = dialect
        self.user = ""
        self.problem: str | None = None
        self._stream = MessageStream(connection, dialect.spec)
        self._pending: deque[tuple[str, asyncio.Future[wire.Ack | wire.Notice]]] = deque()
        self._pushed: asyncio.Queue[ServerMessage | None] = asyncio.Queue()
        self._reader = asyncio.create_task(self._read())

    @classmethod
    async def open(
        cls,
        host: str,
        port: int,
        timeout: float = CONNECT_TIMEOUT,
        dialect: LinkDialect = LOBBY_LINK,
    ) -> LobbyLink:
        """Connect (a NetworkError in words if nobody answers)."""
        try:
            connection = await open_connection(host, port, timeout)
        except (OSError, TimeoutError) as error:
            raise NetworkError(f"Cannot connect to {host}:{port}: {error}") from error
        return cls(connection, dialect)

    async def _read(self) -> None:
        """Answer each pending request with its ACK; push everything else."""
        try:
            while True:
                message = self.dialect.parse(await self._stream.read())
                waiting = self._waiting_for(message)
                if waiting is not None:
                    if not waiting.done():  # an asker that gave up (a cancelled worker)
                        waiting.set_result(message)  # type: ignore[arg-type]
                else:
                    self._pushed.put_nowait(message)
        except ConnectionClosed:
            pass  # it hung up: ``_hung_up`` says so
        except (ProtocolError, OSError, ConnectionError) as error:
            self.problem = f"{self.dialect.server} broke off: {error}"
        finally:
            for _, future in self._pending:
                if not future.done():
                    future.set_exception(NetworkError(self.problem or self._hung_up))
            self._pushed.put_nowait(None)

    def _waiting_for(self, message: ServerMessage) -> asyncio.Future[wire.Ack | wire.Notice] | None:
        """The request ``message`` answers, if it answers one (ACKs, and BADAUTH/NOROOM)."""
        if isinstance(message, wire.Ack):
            for index, (command, future) in enumerate(self._pending):
                if command == message.command:
                    del self._pending[index]
                    return future
            raise ProtocolError(f"an answer nobody asked for: {message.command}")
        if isinstance(message, wire.Notice) and self._pending:
            return self._pending.popleft()[1]
        return None

    async def ask(self, line: str) -> wire.Ack:
        """Send a request and wait for its ACKSTATUS. Raises NetworkError (BADAUTH too)."""
        answer = await self.ask_or_notice(line)
        if isinstance(answer, wire.Notice):
            raise NetworkError(f"The server answered {answer.word} to {quote(line[:30])}.")
        return answer

    async def ask_or_notice(self, line: str) -> wire.Ack | wire.Notice:
        """Send a request and wait for its ACKSTATUS, or the BADAUTH or NOROOM it gets instead."""
        if self._reader.done():  # nobody will read the answer
            raise NetworkError(self.problem or self._hung_up)
        future: asyncio.Future[wire.Ack | wire.Notice] = asyncio.get_running_loop().create_future()
        entry = (line.split(":", 1)[0], future)
        self._pending.append(entry)  # before sending: the answer may come before send returns
        try:
            await self.send(line)
        except BaseException:  # not sent (cancelled while pacing, say): no answer will come
            self._pending.remove(entry)
            raise
        async with asyncio.timeout(REPLY_TIMEOUT):
            return await future

    async def send(self, line: str) -> None:
        """Send one message (a move, a chat line, FORFEIT: answered by a push, if at all).

        Without a terminator, messages go at least ``UNTERMINATED_GAP`` apart: a
        server that reads one message per ``recv`` would merge them otherwise.
        """
        await self._stream.send_paced(line)

    async def pushed(self) -> ServerMessage:
        """The next message the server pushed. Raises NetworkError once the link is gone."""
        message = await self._pushed.get()
        if message is None:
            self._pushed.put_nowait(None)  # every later reader learns it too
            raise NetworkError(self.problem or self._hung_up)
        return message

    async def gone(self) -> str:
        """Return once the server has hung up or broken off: why, in words."""
        await asyncio.shield(self._reader)
        return self.problem or self._hung_up

    @property
    def _hung_up(self) -> str:
        return f"{self.dialect.server} hung up."

    async def close(self) -> None:
        """Hang up."""
        self._reader.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self._reader
        await self.connection.close()

    # ----- requests ------------------------------------------------------------------

    async def register(self, user: str, password: str) -> int:
        """0 created, 1 the name is taken, 2 a name or password against the rules."""
        return (await self.ask(f"REGISTER:{user}:{password}")).status

    async def login(self, user: str, password: str) -> int:
        """0 in, 1 no such user, 2 wrong password, 3 bad format."""
        status = (await self.ask(f"LOGIN:{user}:{password}")).status
        if status == 0:
            self.user = user
        return status

    async def room_names(self, mode: wire.Mode) -> list[str]:
        """Rooms to play in (PLAYER) or to watch (VIEWER)."""
        extra = (await self.ask(f"ROOMLIST:{mode.value}")).extra
        return [name for name in ":".join(extra).split(",") if name]

    async def room_info(self, name: str) -> wire.Ack:
        """ROOMINFO's answer (``extra``: cols, rows, rules, red, yellow, viewers, state)."""
        return await self.ask(f"ROOMINFO:{name}")

    async def rooms(self) -> list[RoomSummary]:
        """Every room with its board, players and viewers (all the ROOMINFOs asked at once).

        A room gone between the list and its ROOMINFO is left out.
        """
        names = await self.room_names(wire.Mode.VIEWER)
        answers = await asyncio.gather(*(self.room_info(name) for name in names))
        found = (RoomSummary.of(name, answer) for name, answer in zip(names, answers, strict=True))
        return [summary for summary in found if summary is not None]

    async def create(self, name: str, game: Game | None = None) -> int:
        """0 created (we wait in it, and move first), or why not; tic-tac-toe has no ``game``."""
        fields = wire.game_fields(game) if game is not None else []
        return (await self.ask(":".join(["CREATE", name, *fields]))).status

    async def join(self, name: str, mode: wire.Mode) -> int:
        """0 joined, or why not."""
        return (await self.ask(f"JOIN:{name}:{mode.value}")).status

    async def quick_play(self, game: Game) -> str | None:
        """The room we are in now (waiting, or paired at once); None if refused."""
        answer = await self.ask(":".join(["QUICKPLAY", *wire.game_fields(game)]))
        return answer.extra[0] if answer.status == 0 and answer.extra else None


class RoomGame:
    """One room's game as this connection sees it, from BEGIN (or INPROGRESS) to GAMEEND.

    A pump reads what the server pushes: boards become moves (our engine finds
    the one legal move that makes each), chat lines go to ``on_chat`` at once,
    and a forfeit goes to ``on_forfeit`` (the loser's colour and the words).
    """

    def __init__(self, link: LobbyLink, red: str, yellow: str, start: GameState) -> None:
        self.link = link
        self.names = {Player.RED: red, Player.YELLOW: yellow}
        self.state = start
        self.moves: asyncio.Queue[Move | Exception] = asyncio.Queue()
        self.on_chat: Callable[[str, str], None] = lambda user, text: None
        self.on_forfeit: Callable[[Player, str], None] = lambda loser, words: None
        self.ended: wire.GameEnd | None = None
        self._pump = asyncio.create_task(self._read())

    def colour_of(self, user: str) -> Player | None:
        """The colour ``user`` plays here (None for a viewer)."""
        return next((colour for colour, name in self.names.items() if name == user), None)

    async def _read(self) -> None:
        try:
            while self.ended is None:
                self._take(await self.link.pushed())
        except (NetworkError, ProtocolError) as error:
            self.moves.put_nowait(error)

    def _take(self, message: ServerMessage) -> None:
        if isinstance(message, wire.ChatLine):
            self.on_chat(message.user, message.text)
        elif isinstance(message, wire.BoardStatus):
            self._board(message.cells)
        elif isinstance(message, wire.GameEnd):
            self._end(message)
        elif isinstance(message, wire.Invalid):
            self.moves.put_nowait(ProtocolError(f"the server refused our move: {message.reason}"))
        elif isinstance(message, wire.Notice):
            self.moves.put_nowait(ProtocolError(f"the server says {message.word}"))

    def _board(self, board: str) -> None:
        move = wire.move_between(self.state, board)
        if move is None:
            raise ProtocolError(f"a board no legal move leads to: {quote(board)}")
        self.state = self.state.play(move)
        self.moves.put_nowait(move)

    def _end(self, end: wire.GameEnd) -> None:
        if end.cells != wire.cells(self.state):
            self._board(end.cells)  # the last move comes with the end
        self.ended = end
        if end.status == 2:
            loser = Player.YELLOW if self.colour_of(end.winner) is Player.RED else Player.RED
            self.on_forfeit(loser, f"{self.names[loser]} forfeited or left: {end.winner} wins")

    async def next_move(self) -> Move:
        """The next move played in the room. Raises NetworkError or ProtocolError."""
        item = await self.moves.get()
        if isinstance(item, Exception):
            self.moves.put_nowait(item)
            raise item
        return item

    async def play(self, move: Move) -> None:
        """Send our move and wait for the server's board showing it."""
        await self.link.send(f"{move.kind.name}:{move.column + 1}")
        echoed = await self.next_move()
        if echoed != move:
            raise ProtocolError(f"we played {move} but the server's board shows {echoed}")

    async def forfeit(self) -> None:
        """Give the game up."""
        await self.link.send("FORFEIT")

    async def chat(self, text: str) -> None:
        """Say something to everyone in the room."""
        await self.link.send(f"CHAT:{text}")

    async def close(self) -> None:
        """Stop reading (the link stays open for the lobby)."""
        self._pump.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self._pump


async def room_game_from(
    link: LobbyLink, start: wire.Begin | wire.InProgress, room: str
) -> RoomGame:
    """The game BEGIN starts, or the one INPROGRESS shows (its board is read next).

    INPROGRESS names who is to move but not the colours; ROOMINFO says who is RED.
    """
    if isinstance(start, wire.Begin):
        return RoomGame(link, start.red, start.yellow, GameState.new(*start.game))
    board = await link.pushed()
    if not isinstance(board, wire.BoardStatus):
        raise ProtocolError("INPROGRESS without the board")
    info = await link.room_info(room)
    if info.status != 0 or len(info.extra) != 7:
        raise ProtocolError(f"no ROOMINFO for the room being watched: {room!r}")
    red, yellow = info.extra[3], info.extra[4]
    if {red, yellow} != {start.to_move, start.other}:
        raise ProtocolError(f"ROOMINFO names {red} and {yellow}, INPROGRESS someone else")
    turn = Player.RED if start.to_move == red else Player.YELLOW
    return RoomGame(link, red, yellow, wire.state_from_cells(start.game, board.cells, turn))
