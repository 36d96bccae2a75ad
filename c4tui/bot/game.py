"""One game a bot plays, from BEGIN (or a REJOIN) to GAMEEND, on its lobby link.

The bot reads the server's pushes itself: each board is checked by our engine
and becomes the move that made it, the clock's times say how long our next move
may take, and the end says who won. Our moves are chosen by the bot's chooser,
told the game so far when the bot saw it from its start. When the chooser fails
(an outside program crashed, took too long, answered an illegal move or garbage)
the bot forfeits that game only: the chooser has ended its process, and starts
the program afresh when next asked.
"""

from __future__ import annotations

import asyncio
import contextlib
from dataclasses import dataclass, field

from c4tui.bot.thinking import thinking_time
from c4tui.client.link import LobbyLink, RoomSummary
from c4tui.engine import GameState, Move, Player
from c4tui.net.errors import ProtocolError
from c4tui.net.wire import quote
from c4tui.outside.chooser import Chooser, ChooserError, OutsideFailure
from c4tui.protocols import competition
from c4tui.protocols import lobby as wire
from c4tui.protocols import table_talk as talk
from c4tui.protocols.lobby_boards import move_between, state_from_cells
from c4tui.protocols.terms import Terms

#: Seconds to wait for the server to take a last FORFEIT when the bot stops mid-game.
FORFEIT_SECONDS = 2.0


@dataclass(frozen=True)
class Result:
    """How a game ended for the bot: ``won``, ``lost`` or ``drawn``, and against whom."""

    opponent: str
    outcome: str
    how: str  # four in a row, forfeit, time…
    game: str  # 7 × 6 classic, casual 3+2
    failure: str | None = None  # why the chooser failed, when the bot forfeited for it


@dataclass
class Table:
    """The game as the bot follows it: the position, our colour, the names, the clocks."""

    state: GameState
    colour: Player
    names: dict[Player, str]
    terms: Terms
    clocks: tuple[int, int] | None = None  # ms left to RED and YELLOW, when timed
    end: wire.GameEnd | None = None
    #: The game so far from the empty board; None when the bot came back into it (REJOIN).
    moves: list[Move] | None = field(default_factory=list)
    #: Why the chooser failed, once it has (the bot has then forfeited).
    failure: str | None = None

    @classmethod
    def begun(cls, begin: wire.Begin, me: str, terms: Terms) -> Table:
        """The game BEGIN starts (the challenger or the room's creator is RED)."""
        colour = Player.RED if begin.red == me else Player.YELLOW
        clocks = None
        if terms.clock is not None:
            clocks = (terms.clock.initial_ms, terms.clock.initial_ms)
        names = {Player.RED: begin.red, Player.YELLOW: begin.yellow}
        return cls(GameState.new(*begin.game), colour, names, terms, clocks)

    @property
    def opponent(self) -> str:
        """The other player's name."""
        return self.names[self.colour.other]

    def time_for_a_move(self) -> float:
        """Seconds the chooser may take now (the clock's share, or the untimed pace)."""
        mine = None if self.clocks is None else self.clocks[0 if self.colour is Player.RED else 1]
        increment = self.terms.clock.increment_ms if self.terms.clock else 0
        return thinking_time(self.state, mine, increment)


async def rejoined_table(link: LobbyLink, room: str, me: str) -> Table:
    """The game the server put us back in (REJOIN): INPROGRESS, the board, ROOMINFO.

    Raises ProtocolError when what follows REJOIN is not the game's state.
    """
    start = await link.pushed()
    board = await link.pushed()
    if not isinstance(start, wire.InProgress) or not isinstance(board, wire.BoardStatus):
        raise ProtocolError(f"REJOIN:{room} without INPROGRESS and the board")
    info = RoomSummary.of(room, await link.room_info(room))
    if info is None or me not in (info.red, info.yellow):
        raise ProtocolError(f"no ROOMINFO naming us for the game we are back in: {room!r}")
    turn = Player.RED if start.to_move == info.red else Player.YELLOW
    state = state_from_cells(start.game, board.cells, turn)
    colour = Player.RED if info.red == me else Player.YELLOW
    names = {Player.RED: info.red, Player.YELLOW: info.yellow}
    return Table(state, colour, names, info.terms, moves=None)


async def play(link: LobbyLink, table: Table, chooser: Chooser) -> Result:
    """Play ``table``'s game to its end; how it ended.

    Cancelled (the bot is stopping), it forfeits first so that no game is left hanging;
    when the chooser fails, it forfeits too (``Result.failure`` says why).
    Raises NetworkError when the link is lost, ProtocolError when the server's boards
    make no sense.
    """
    try:
        return await _to_the_end(link, table, chooser)
    except asyncio.CancelledError:
        with contextlib.suppress(Exception):
            async with asyncio.timeout(FORFEIT_SECONDS):
                await link.send("FORFEIT")
        raise


async def _to_the_end(link: LobbyLink, table: Table, chooser: Chooser) -> Result:
    """Move when it is our turn, read what the server pushes, until GAMEEND.

    What arrives while we think (a chat line, the opponent's forfeit) waits in the
    link's queue, and is read once our move is sent.
    """
    while True:
        if table.state.turn is table.colour and not table.state.is_over and not table.failure:
            await _move(link, table, chooser)
        if not await _until_board(link, table):
            return _result(table)


async def _move(link: LobbyLink, table: Table, chooser: Chooser) -> None:
    """Send the chooser's move; FORFEIT if it fails (its reason kept on ``table``)."""
    moves = None if table.moves is None else tuple(table.moves)
    try:
        move = await chooser.choose(table.state, table.time_for_a_move(), moves)
    except (OutsideFailure, ChooserError) as failure:
        table.failure = f"{chooser.describe()} failed: {failure}"
        await link.send("FORFEIT")
        return
    await link.send(f"{move.kind.name}:{move.column + 1}")


async def _until_board(link: LobbyLink, table: Table) -> bool:
    """Read pushes until the next board (True) or the game's end (False, ``table.end`` set)."""
    while True:
        message = await link.pushed()
        if isinstance(message, wire.BoardStatus):
            _board(table, message.cells)
            return True
        if isinstance(message, competition.ClockTimes):
            table.clocks = (message.red_ms, message.yellow_ms)
        elif isinstance(message, wire.GameEnd):
            if message.cells != wire.cells(table.state):
                _board(table, message.cells)  # the last move comes with the end
            table.end = message
            return False
        elif isinstance(message, wire.Invalid):
            raise ProtocolError(f"the server refused our move: {message.reason}")
        elif isinstance(message, talk.DrawOffered):
            await link.decline_draw()  # a bot plays on (§5.6)
        elif isinstance(message, talk.TakebackOffered):
            await link.decline_take_back()


def _board(table: Table, cells: str) -> None:
    move = move_between(table.state, cells)
    if move is None:
        raise ProtocolError(f"a board no legal move leads to: {quote(cells)}")
    table.state = table.state.play(move)
    if table.moves is not None:
        table.moves.append(move)


#: GAMEEND's status in words: 0 a win, 1 a draw, 2 a forfeit (or a player gone), 3 on time,
#: 4 a draw agreed, 5 aborted (§5.6: a bot never agrees, but its opponent may abort).
_HOW = {0: "four in a row", 1: "a draw", 2: "forfeit", 3: "time", 4: "agreement", 5: "aborted"}


def _result(table: Table) -> Result:
    end = table.end
    assert end is not None
    if end.status == talk.ABORTED:
        outcome = "aborted"
    elif end.status in talk.NO_WINNER:
        outcome = "drawn"
    else:
        outcome = "won" if end.winner == table.names[table.colour] else "lost"
    columns, rows, rules = table.state.columns, table.state.rows, table.state.rules
    game = f"{columns} × {rows} {rules.value}, {table.terms.words}"
    return Result(table.opponent, outcome, _HOW.get(end.status, "?"), game, table.failure)
