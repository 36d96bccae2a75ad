"""A Connect Four room's game as one connection follows it: the moves, the chat, the end.

``RoomGame`` turns each BOARDSTATUS the lobby server pushes into the move that
made it, checked by our engine, for the driver's ``RoomPlayer`` seats: the opponent's
seat when we play, both seats when we watch. Chat lines reach whoever listens
at once.

In a timed game (§5.4) each BOARDSTATUS is followed by CLOCK: the move is handed
on only once its CLOCK is read, so whoever shows the board shows the clocks that
go with it (``clock``).
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable

from c4tui.client import public_words, words
from c4tui.client.clocks import ClockReading
from c4tui.client.link import LobbyLink, RoomSummary, ServerMessage
from c4tui.client.public import chat_refusal
from c4tui.engine import C4Error, GameState, Move, Player
from c4tui.net.errors import NetworkError, ProtocolError
from c4tui.net.wire import quote
from c4tui.protocols import lobby as wire
from c4tui.protocols.competition import ClockTimes
from c4tui.protocols.lobby_boards import move_between, state_from_cells
from c4tui.protocols.table_talk import ABORTED, DRAW_AGREED, TableMessage


class RoomGame:
    """One room's game as this connection sees it, from BEGIN (or INPROGRESS) to GAMEEND.

    A pump reads what the server pushes: boards become moves (our engine finds
    the one legal move that makes each), chat lines go to ``on_chat`` at once,
    and a forfeit or a loss on time goes to ``on_forfeit`` (the loser's colour and
    the words). A timed game's clocks are ``clock``, also told to ``on_clock``.
    """

    def __init__(self, link: LobbyLink, red: str, yellow: str, start: GameState) -> None:
        self.link = link
        self.names = {Player.RED: red, Player.YELLOW: yellow}
        self.state = start
        self.moves: asyncio.Queue[Move | Exception] = asyncio.Queue()
        self.on_chat: Callable[[str, str], None] = lambda user, text: None
        self.on_forfeit: Callable[[Player, str], None] = lambda loser, words: None
        #: Told, in words, when a player's connection drops and when it is back (§5.1).
        self.on_presence: Callable[[str], None] = lambda words: None
        #: Told, in words, when our chat line reached nobody (§7: muted, too fast); by
        #: default to ``on_presence``, which every front end shows.
        self.on_chat_refused: Callable[[str], None] = self._say_refused
        #: Told of each AWAY and BACK as it came (a front end that counts the seconds
        #: down); by default, in words to ``on_presence``.
        self.on_away_or_back: Callable[[wire.Away | wire.Back], None] = self._say_presence
        self.ended: wire.GameEnd | None = None
        #: Who the server said is away (AWAY) and has not said is back (BACK).
        self.away: set[str] = set()
        #: The moves that led to ``start`` from the empty board, when we came into the
        #: game under way and the server's archive had them (``moves_before``).
        self.earlier: tuple[Move, ...] | None = None
        #: Moves the server's boards have shown since ``start``.
        self.shown = 0
        #: The server's last CLOCK (None: not a timed game, or none came yet).
        self.clock: ClockReading | None = None
        self.on_clock: Callable[[ClockReading], None] = lambda reading: None
        #: §5.6: an offer, its refusal or IDLE as it came (a front end's controls answer it).
        self.on_table_talk: Callable[[TableMessage], None] = lambda message: None
        #: The players agreed to take the last move back: the board is one move back.
        self.on_taken_back: Callable[[], object] = lambda: None
        #: The game ended with nobody winning though the board goes on (agreed, aborted).
        self.on_called_off: Callable[[str], None] = lambda words: None
        self._before: list[GameState] = []  # the positions before each move shown
        self._held: Move | None = None  # a timed game's move, until its CLOCK comes
        self._failed = False  # an error waits in ``moves``: no more boards will come
        self._news = asyncio.Event()  # set (and replaced) whenever a board or an error comes
        self._pump = asyncio.create_task(self._read())

    def colour_of(self, user: str) -> Player | None:
        """The colour ``user`` plays here (None for a viewer)."""
        return next((colour for colour, name in self.names.items() if name == user), None)

    async def _read(self) -> None:
        try:
            while self.ended is None:
                self._take(await self.link.pushed())
        except (NetworkError, ProtocolError) as error:
            self._fail(error)
        finally:
            self._tell()

    def _fail(self, error: Exception) -> None:
        self.moves.put_nowait(error)
        self._failed = True
        self._tell()

    def _tell(self) -> None:
        """Wake whoever waits in ``confirmed``."""
        self._news.set()
        self._news = asyncio.Event()

    def _take(self, message: ServerMessage) -> None:
        if isinstance(message, wire.ChatLine):
            self.on_chat(message.user, message.text)
        elif isinstance(message, wire.BoardStatus):
            self._board(message.cells)
        elif isinstance(message, ClockTimes):
            self._clock(message)
        elif isinstance(message, wire.GameEnd):
            self._end(message)
        elif isinstance(message, wire.Away | wire.Back):
            self._note_presence(message)
            self.on_away_or_back(message)
        elif isinstance(message, TableMessage):
            self.on_table_talk(message)
        elif isinstance(message, wire.Invalid):
            self._fail(ProtocolError(f"the server refused our move: {message.reason}"))
        elif isinstance(message, wire.Notice):
            self._fail(ProtocolError(f"the server says {message.word}"))
        elif (refused := chat_refusal(message)) is not None:
            self.on_chat_refused(public_words.CHAT.said(refused, words.Voice.APP))

    def _note_presence(self, news: wire.Away | wire.Back) -> None:
        if isinstance(news, wire.Away):
            self.away.add(news.user)
        else:
            self.away.discard(news.user)

    def _say_refused(self, said: str) -> None:
        self.on_presence(said)  # whichever ``on_presence`` a front end set, when it is said

    def _say_presence(self, news: wire.Away | wire.Back) -> None:
        if isinstance(news, wire.Away):
            self.on_presence(words.away(news.user, news.seconds))
        else:
            self.on_presence(words.back(news.user))

    def _board(self, board: str) -> None:
        move = move_between(self.state, board)
        if move is None and self._before and board == wire.cells(self._before[-1]):
            self._taken_back()
            return
        if move is None:
            raise ProtocolError(f"a board no legal move leads to: {quote(board)}")
        self._before.append(self.state)
        self.state = self.state.play(move)
        if self.clock is None:
            self._hand_on(move)
        else:  # timed: the CLOCK that follows comes with it
            self._held = move

    def _taken_back(self) -> None:
        """The board went one move back (a takeback both players agreed to, §5.6)."""
        self.state = self._before.pop()
        if self._held is not None:  # its CLOCK never came: it was never handed on
            self._held = None
            return
        self.shown -= 1
        waiting = [self.moves.get_nowait() for _ in range(self.moves.qsize())]
        if waiting and isinstance(waiting[-1], Move):
            waiting.pop()  # nobody took it yet: as if it never came
        else:
            self.on_taken_back()  # the driver has it: it goes back too
        for item in waiting:
            self.moves.put_nowait(item)
        self._tell()

    def _hand_on(self, move: Move) -> None:
        self.shown += 1
        self.moves.put_nowait(move)
        self._tell()

    def _clock(self, times: ClockTimes) -> None:
        """CLOCK: the times as the server had them now; a move waiting for them goes on."""
        mover = None if self.state.is_over else self.state.turn
        self.clock = ClockReading(times.red_ms, times.yellow_ms, mover, time.monotonic())
        self.on_clock(self.clock)
        held, self._held = self._held, None
        if held is not None:
            self._hand_on(held)

    def _end(self, end: wire.GameEnd) -> None:
        if end.cells != wire.cells(self.state):
            self._board(end.cells)  # the last move comes with the end
        held, self._held = self._held, None
        if held is not None:  # no CLOCK after the last move: GAMEEND instead
            self._hand_on(held)
        self.ended = end
        if self.clock is not None:
            self.clock = self.clock.stopped(time.monotonic())
            self.on_clock(self.clock)
        if end.status in (2, 3):
            loser = Player.YELLOW if self.colour_of(end.winner) is Player.RED else Player.RED
            name = self.names[loser]
            self.on_forfeit(loser, words.lost_how(name, end.status, name in self.away))
        elif end.status in (DRAW_AGREED, ABORTED):
            self.on_called_off(words.CALLED_OFF[end.status])

    async def next_move(self) -> Move:
        """The next move played in the room. Raises NetworkError or ProtocolError."""
        item = await self.moves.get()
        if isinstance(item, Exception):
            self.moves.put_nowait(item)
            raise item
        return item

    async def confirmed(self, count: int) -> bool:
        """True once the server's boards show ``count`` moves; False if they never will.

        A front end that draws our move only when this is True never shows a move
        that did not reach the server (it went away, or refused it) as played.
        """
        while self.shown < count:
            if self._failed or self._pump.done():
                return False
            await self._news.wait()
        return True

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
    info = RoomSummary.of(room, await link.room_info(room))
    if info is None:
        raise ProtocolError(f"no ROOMINFO for the room being watched: {room!r}")
    red, yellow = info.red, info.yellow
    if {red, yellow} != {start.to_move, start.other}:
        raise ProtocolError(f"ROOMINFO names {red} and {yellow}, INPROGRESS someone else")
    turn = Player.RED if start.to_move == red else Player.YELLOW
    state = state_from_cells(start.game, board.cells, turn)
    earlier = await moves_before(link, red, yellow, state)  # before the game reads pushes:
    game = RoomGame(link, red, yellow, state)  # an AWAY after the board is for its listeners
    game.earlier = earlier
    return game


#: How many games started after its red player's newest finished one are looked through
#: for a game under way, sixteen at a time.
_LOOKED_THROUGH = 256
_AT_A_TIME = 16


async def moves_before(
    link: LobbyLink, red: str, yellow: str, now: GameState
) -> tuple[Move, ...] | None:
    """The moves of red's game under way against yellow that reach ``now``; None if not found.

    INPROGRESS gives the board only; the archive (GAME, §5.2) also has the moves of a
    game in progress, but no request names its id. Ids are given as games begin, and a
    player's games never overlap, so it is among the first ids after red's newest
    finished game: looked for there, until an id with no game.
    """
    finished = await link.history(red)
    first = finished[0] + 1 if finished else 1
    for batch in range(first, first + _LOOKED_THROUGH, _AT_A_TIME):
        numbers = range(batch, batch + _AT_A_TIME)
        for kept in await asyncio.gather(*(link.kept_game(number) for number in numbers)):
            if kept is None:
                return None  # past the newest game
            if (kept.red, kept.yellow, kept.reason) == (red, yellow, ""):
                return _leading_to(kept.moves, now)
    return None


def _leading_to(moves: tuple[Move, ...], now: GameState) -> tuple[Move, ...] | None:
    """``moves`` if they reach ``now`` from the empty board (else the archive is behind)."""
    try:
        reached = GameState.new(now.columns, now.rows, now.rules).play_all(moves)
    except C4Error:
        return None
    return moves if reached.position_key() == now.position_key() else None
