"""The chaos run: hundreds of clients of every protocol against one ``c4tui serve``, for minutes.

``python bench/chaos.py --minutes 10 --clients 300`` (loopback only; bounded by
``--minutes``). Every client loops until the end: it plays whole games, or
misbehaves — illegal moves, garbage, a line too long or not ASCII, half a message
and a hang-up, a stall past the idle limit, a flood it never reads, a forfeit, a
viewer that stops reading — and connects again. Halfway through, the server is
sent SIGTERM and started again on the same ports with the same database; clients
that lose it reconnect. With ``--kill-server N`` the server is instead sent SIGKILL N
times, at random moments of the middle half, mid-games, and started again the same way.
Lobby players that lose the server log in again (a few tries, backing off) and go on
with their game from REJOIN, INPROGRESS and BOARDSTATUS, moving only from the board the
server shows; the server gives them ``--reconnect-grace`` (20 s) to come back.

Afterwards (the verdicts the report ends with):
- every account whose REGISTER was acknowledged logs in (before and after the restart);
- no process is left: each server exited on SIGTERM with status 0, and every process
  it started is gone; no client connection is left open on the server (its open
  files are back to the count at the baseline);
- the server's memory is back to its baseline (measured idle, after a warm-up
  round of the same load), within ``MEMORY_SLACK``;
- every game that completed was legal from start to end: a referee replays each
  transcript (every move the client saw, and how the server said it ended) with the
  engine — the players' and the viewers' views of each room game alike;
- the server logged no traceback, and no well-behaved client got a reply it should not;
- no game lost: every lobby game that began (as its players saw BEGIN) ended with a
  result that each player still there saw alike (GAMEEND, or, when it ended while the
  player was away, its GAME record), and which ``GAME:<id>`` returns with the moves the
  players saw and the same winner; or it is still in progress and both players came
  back to it after the restart.
"""

from __future__ import annotations

import argparse
import asyncio
import codecs
import collections
import contextlib
import os
import random
import re
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO, TypeVar

from c4tui.engine import C4Error, GameState, Move, Player, Rules, parse_move
from c4tui.protocols import c4n, cfsp, i32cfsp
from c4tui.protocols import lobby as wire
from c4tui.protocols import tictactoe as ttt_wire
from c4tui.protocols.lobby_boards import move_between, state_from_cells
from c4tui.server.tuning import raise_open_file_limit
from c4tui.tictactoe import Board, Mark

#: How long a client waits for an answer before it counts the server as stuck.
ANSWER_TIMEOUT = 20.0
#: The server's idle limit for this run (stalling clients outwait it).
IDLE_TIMEOUT = 8
#: A player who created a room gives up waiting for an opponent after this long.
WAIT_FOR_OPPONENT = 6.0
#: How far the idle server's memory may be above its baseline and still count as back.
MEMORY_SLACK = 1.10
SIZES = ((4, 4), (5, 4), (7, 6), (6, 7))
PASSWORD = "chaos:pw"
Splitter = Callable[[str], tuple[list[str], str]]
#: A kind of client: its name, its session, the behaviours it picks from.
Role = tuple[str, Callable[..., Awaitable[None]], tuple[str, ...]]


#: How a referee's verdict begins when the view cannot tell (a viewer joined midway).
UNCHECKABLE = "? "


class Unexpected(Exception):
    """The server said something a client of its protocol must not be told."""


class HungUp(Exception):
    """The server closed the connection."""


class WeLeft(Exception):
    """The client hung up mid-game on purpose: its session ends there."""


def split_lines(text: str) -> tuple[list[str], str]:
    """Whole lines (without their ends) and the unfinished rest."""
    *lines, rest = text.split("\n")
    return [line.removesuffix("\r") for line in lines], rest


class Wire:
    """One client connection: text out, the protocol's messages in."""

    def __init__(
        self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, split: Splitter
    ) -> None:
        self.reader, self.writer, self.split = reader, writer, split
        self.messages: collections.deque[str] = collections.deque()
        self.rest = ""
        # UTF-8 (the lobby's chat, §5.6; ASCII for the rest), a character split between reads kept.
        self.text = codecs.getincrementaldecoder("utf-8")()

    @classmethod
    async def open(cls, port: int, split: Splitter = split_lines) -> Wire:
        """Connect to the server on ``port``."""
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        return cls(reader, writer, split)

    async def send(self, data: str | bytes, end: str = "\n") -> None:
        """Send ``data`` (text gets ``end``) in one write."""
        self.writer.write(data if isinstance(data, bytes) else (data + end).encode())
        await self.writer.drain()

    async def next(self, timeout: float = ANSWER_TIMEOUT) -> str:
        """The next message; raises HungUp at the end of the stream, TimeoutError if none comes.

        The lobby's BYE:<reason> (the server's last word before it closes) counts as the end.
        """
        async with asyncio.timeout(timeout):
            while not self.messages:
                chunk = await self.reader.read(65536)
                if not chunk:
                    raise HungUp(f"the server hung up (unread: {self.rest[:40]!r})")
                found, self.rest = self.split(self.rest + self.text.decode(chunk))
                self.messages.extend(found)
        message = self.messages.popleft()
        if message.startswith("BYE:"):
            raise HungUp(f"the server said {message!r}")
        return message

    async def expect(self, *wanted: str) -> str:
        """The next message, which must be one of ``wanted``."""
        got = await self.next()
        if got not in wanted:
            raise Unexpected(f"expected {' or '.join(wanted)}, got {got[:80]!r}")
        return got

    async def hung_up(self, timeout: float = ANSWER_TIMEOUT) -> None:
        """Wait for the server to close; anything it says first is unexpected."""
        with contextlib.suppress(HungUp, ConnectionResetError):
            message = await self.next(timeout)
            raise Unexpected(f"expected the server to hang up, got {message[:80]!r}")

    def close(self) -> None:
        """Hang up."""
        with contextlib.suppress(OSError, RuntimeError):
            self.writer.close()


# ----- what the run keeps --------------------------------------------------------------


@dataclass
class AIGame:
    """A completed game against the server's AI: what the client saw, for the referee."""

    protocol: str
    game: tuple[int, int, Rules]
    moves: list[Move] = field(default_factory=list)
    end: str = ""


@dataclass
class RoomView:
    """A room game as one member saw it from when it joined to its GAMEEND."""

    protocol: str  # "lobby" or "tictactoe"
    game: tuple[int, int, Rules] | None  # None for tic-tac-toe
    first: str  # who moves first (red, or X)
    second: str
    start: str = ""  # the board when this member began to watch ("" for an empty one)
    first_to_move: bool = True  # at ``start``
    viewer: bool = False
    boards: list[str] = field(default_factory=list)
    end: str = ""
    me: str = ""  # the player whose view it is ("" for a viewer's)
    forfeited: bool = False  # that player forfeited (GAMEEND's winner is then the other)
    room: str = ""  # a lobby player's: its room, and how many times the server went before BEGIN
    epoch: int = 0
    outcome: str = ""  # "ended" (GAMEEND), "history" (learnt from GAME), "left" on purpose
    skew: int = 0  # moves not seen as a BOARDSTATUS of their own (made while we were away)
    resumes: set[int] = field(default_factory=set)  # boards that came with a REJOIN
    record: str = ""  # GAME's answer, for a game that ended while we were away
    comebacks: int = 0  # how many times the player came back to it (REJOIN)

    @property
    def moves_seen(self) -> int:
        """How many moves have been made since ``start`` (what decides whose turn it is)."""
        return len(self.boards) + self.skew


@dataclass
class Run:
    """Everything the clients did, counted."""

    port: int
    tictactoe_port: int
    deadline: float
    counts: collections.Counter[str] = field(default_factory=collections.Counter)
    ai_games: list[AIGame] = field(default_factory=list)
    room_views: list[RoomView] = field(default_factory=list)
    accounts: dict[str, str] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)
    round_trips: list[float] = field(default_factory=list)
    restarts: list[float] = field(default_factory=list)  # when the server was stopped or killed
    grace: int = 0  # the server's --reconnect-grace: lobby players come back within it
    seats: list[RoomView] = field(default_factory=list)  # every lobby player's view from BEGIN
    roles: tuple[Role, ...] = ()  # the clients' roles (all of ROLES when empty)

    def restarted_since(self, began: float) -> bool:
        """True if the server went down since ``began`` (a session may then break anywhere)."""
        return any(down >= began - 1.0 for down in self.restarts)

    def problem(self, who: str, what: str) -> None:
        """A well-behaved client was told something wrong."""
        self.counts["problems"] += 1
        if len(self.problems) < 50:
            self.problems.append(f"{who}: {what}")


# ----- clients of the AI protocols ---------------------------------------------------------

MISCHIEF = ("play", "play", "play", "illegal", "garbage", "abandon", "half", "stall", "flood")


async def think(rng: random.Random) -> None:
    """A person's pause before a move (often none)."""
    await asyncio.sleep(rng.choice((0, 0, 0.05, 0.2, 0.5)))


async def i32cfsp_client(run: Run, rng: random.Random, name: str, how: str) -> None:
    """One I32CFSP conversation, behaving as ``how`` says."""
    line = await Wire.open(run.port)
    try:
        if how == "half":
            await line.send(b"I32CFSP_HELLO " + name.encode()[:3])
            return
        columns, rows = rng.choice(SIZES)
        rules = rng.choice((Rules.CLASSIC, Rules.POPOUT))
        await line.send(f"I32CFSP_HELLO {name}", "\r\n")
        await line.expect(f"WELCOME {name}")
        if how == "stall":
            await stall(line, rng, b"AI_GAME", "READY")
            return
        await line.send(i32cfsp.format_ai_game(columns, rows, rules), "\r\n")
        await line.expect("READY")
        if how == "flood":
            await flood(line, b"POP 1\r\n")
            return
        await play_i32cfsp(run, line, rng, AIGame("i32cfsp", (columns, rows, rules)), how)
    finally:
        line.close()


async def play_i32cfsp(run: Run, line: Wire, rng: random.Random, game: AIGame, how: str) -> None:
    """Moves to the end (or the mischief); the transcript goes to the referee."""
    state = GameState.new(*game.game)
    while True:
        await think(rng)
        if await mischief(line, rng, how, b"DROP x\r\n", len(game.moves)):
            await line.expect("ERROR")
            await line.hung_up()
            return
        if how == "illegal" and rng.random() < 0.3:
            await line.send(f"DROP {state.columns + 1}", "\r\n")
            await line.expect("INVALID")
            await line.expect("READY")
        move = rng.choice(state.legal_moves())
        began = time.monotonic()
        await line.send(i32cfsp.format_move(move), "\r\n")
        state = state.play(move)
        game.moves.append(move)
        answer = await line.expect("OKAY", "WINNER_RED", "WINNER_YELLOW", "DRAW")
        if answer == "OKAY":
            reply = i32cfsp.parse_move(await line.next())
            if reply is None or not state.is_legal(reply):
                raise Unexpected(f"the AI's move {reply} on {game.moves}")
            state = state.play(reply)
            game.moves.append(reply)
            answer = await line.expect("READY", "WINNER_RED", "WINNER_YELLOW", "DRAW")
        run.round_trips.append(time.monotonic() - began)
        if answer != "READY":
            game.end = answer
            run.ai_games.append(game)
            await line.hung_up()
            return


async def mischief(line: Wire, rng: random.Random, how: str, garbage: bytes, moves: int) -> bool:
    """Misbehave now if ``how`` says so: abandon (hang up) or garbage (True: answer it)."""
    if moves < 2 or rng.random() > 0.4:
        return False
    if how == "abandon":
        line.close()
        raise WeLeft
    if how == "garbage":
        await line.send(garbage)
        return True
    return False


async def stall(line: Wire, rng: random.Random, half: bytes, after: str) -> None:
    """Send half a message (or nothing) and go quiet; past the idle limit the server hangs up."""
    await line.send(half)
    quiet = rng.choice((1.0, IDLE_TIMEOUT + 4.0))
    try:
        message = await line.next(quiet)
    except TimeoutError:
        if quiet > IDLE_TIMEOUT:
            raise Unexpected(f"still open after {quiet:g} s of silence") from None
        return
    except HungUp:
        if quiet < IDLE_TIMEOUT:
            raise Unexpected(f"hung up after {quiet:g} s of silence") from None
        return
    raise Unexpected(f"answered half a message with {message!r} (expected {after} later)")


async def flood(line: Wire, request: bytes) -> None:
    """Send many requests without reading a word; the server must cope (or cut us off)."""
    with contextlib.suppress(OSError):
        for _ in range(200):
            line.writer.write(request * 50)
            async with asyncio.timeout(2):
                await line.writer.drain()


async def cfsp_client(run: Run, rng: random.Random, name: str, how: str) -> None:
    """One CFSP conversation."""
    line = await Wire.open(run.port)
    try:
        columns, rows = rng.choice(SIZES)
        if how == "half":
            await line.send(b"GAME 6")
            return
        if how == "stall":
            await stall(line, rng, b"GAME 6 ", "START")
            return
        await line.send(rng.choice(("GAME", "Game", "game")) + f" {rows} {columns}", "\r\n")
        await line.expect("START")
        if how == "flood":
            await flood(line, b"MOVE\r\n")
            return
        await play_cfsp(run, line, rng, AIGame("cfsp", (columns, rows, cfsp.RULES)), how)
    finally:
        line.close()


async def play_cfsp(run: Run, line: Wire, rng: random.Random, game: AIGame, how: str) -> None:
    """USER, RECEIVED, MOVE, COLUMN to the end; an illegal move is ERROR and a close."""
    state = GameState.new(*game.game)
    while True:
        await think(rng)
        if await mischief(line, rng, how, b"USER 7 7\r\n", len(game.moves)) or (
            how == "illegal" and len(game.moves) > 2
        ):
            if how == "illegal":
                await line.send(f"USER 0 {state.columns + 1}", "\r\n")
            await line.expect("ERROR")
            await line.hung_up()
            return
        move = rng.choice(state.legal_moves())
        began = time.monotonic()
        await line.send(cfsp.format_user_move(move), "\r\n")
        await line.expect("RECEIVED")
        state = state.play(move)
        game.moves.append(move)
        if not state.is_over:
            await line.send("MOVE", "\r\n")
            kind = await line.next()
            await line.send("COLUMN", "\r\n")
            reply = cfsp.parse_user_move(f"USER {kind} {await line.next()}")
            if reply is None or not state.is_legal(reply):
                raise Unexpected(f"the AI's move {reply} on {game.moves}")
            state = state.play(reply)
            game.moves.append(reply)
        run.round_trips.append(time.monotonic() - began)
        if state.is_over:
            await line.hung_up()
            game.end = "closed"
            run.ai_games.append(game)
            return


async def c4n_client(run: Run, rng: random.Random, name: str, how: str) -> None:
    """One C4N conversation (7 × 6, classic)."""
    line = await Wire.open(run.port, c4n.split_messages)
    try:
        if how == "half":
            await line.send(b"C4N 1.0 ST")
            return
        await line.send(c4n.message(c4n.Kind.START), "")
        first = c4n.decode(await line.next())
        if first.kind is not c4n.Kind.BOARD:
            raise Unexpected(f"START answered with {first}")
        if how == "stall":  # half a C4N message is judged after a moment: stall in silence
            await stall(line, rng, b"", "a MOVE")
            return
        if how == "flood":
            await flood(line, c4n.message(c4n.Kind.MOVE, 9).encode())
            return
        await play_c4n(run, line, rng, AIGame("c4n", c4n.GAME), how)
    finally:
        line.close()


async def play_c4n(run: Run, line: Wire, rng: random.Random, game: AIGame, how: str) -> None:
    """MOVE, BOARD to the end: RESULT, then the final BOARD, then a close."""
    state = GameState.new(*game.game)
    while True:
        await think(rng)
        if await mischief(line, rng, how, b"C4N 1.0 HELLO", len(game.moves)):
            await line.expect(c4n.ERROR_INVALID_MESSAGE)
            await line.hung_up()
            return
        if how == "illegal" and rng.random() < 0.3:
            await line.send(c4n.message(c4n.Kind.MOVE, rng.choice((-1, 7, 99))), "")
            await line.expect(c4n.ERROR_INVALID_MOVE)
        move = Move.drop(rng.choice([m.column for m in state.legal_moves()]))
        began = time.monotonic()
        await line.send(c4n.message(c4n.Kind.MOVE, move.column), "")
        state = state.play(move)
        game.moves.append(move)
        answer = c4n.decode(await line.next())
        run.round_trips.append(time.monotonic() - began)
        if answer.kind is c4n.Kind.RESULT:
            board = c4n.decode(await line.next())
            if c4n.board_cells(state, Player.RED) != c4n.parse_board(board.payload):
                state = ai_move(state, board.payload, game)  # the AI's move ended it
            game.end = f"{answer.payload} {board.payload}"
            run.ai_games.append(game)
            await line.hung_up()
            return
        if answer.kind is not c4n.Kind.BOARD:
            raise Unexpected(f"a move answered with {answer}")
        state = ai_move(state, answer.payload, game)


def ai_move(state: GameState, payload: str, game: AIGame) -> GameState:
    """The position after the AI's move that BOARD ``payload`` shows (kept in ``game``)."""
    cells = c4n.parse_board(payload)
    after = [m for m in state.legal_moves() if c4n.board_cells(state.play(m), Player.RED) == cells]
    if not after:
        raise Unexpected(f"a BOARD no AI move makes, after {game.moves}")
    game.moves.append(after[0])
    return state.play(after[0])


# ----- clients of the room protocols -------------------------------------------------------


#: Room news that may come between any two messages: talk, and a player away or back.
NEWS = ("CHAT:", "AWAY:", "BACK:")
#: How many times a lobby player tries to log in again after the server went (backing off).
COMEBACK_TRIES = 8


@dataclass
class Member:
    """A lobby or tic-tac-toe connection, logged in."""

    line: Wire
    name: str
    protocol: str
    game: tuple[int, int, Rules] | None = None  # what BEGIN said (the lobby's rooms)
    room: str = ""  # the lobby's room (QUICKPLAY's answer)

    async def ask(self, request: str, prefix: str) -> str:
        """Send ``request``; the answer, which starts with ``prefix`` (chat aside)."""
        await self.send(request)
        return await self.until(prefix)

    async def send(self, text: str) -> None:
        """One message: a line in the lobby, one write without an end in tic-tac-toe."""
        await self.line.send(text, "\n" if self.protocol == "lobby" else "")

    async def expect(self, wanted: str) -> None:
        """The next message (CHAT aside) must be ``wanted``."""
        got = await self.until("")
        if got != wanted:
            raise Unexpected(f"expected {wanted[:60]!r}, got {got[:80]!r}")

    async def until(self, prefix: str) -> str:
        """Skip room news (it comes any time) until a message that starts with ``prefix``."""
        while True:
            message = await self.line.next()
            if message.startswith(prefix) and not message.startswith(NEWS):
                return message
            if not message.startswith(NEWS):
                raise Unexpected(f"waiting for {prefix}, got {message[:80]!r}")


async def log_in(run: Run, rng: random.Random, protocol: str, name: str) -> Member:
    """A new connection logged in as ``name`` (registered first when it is new)."""
    port = run.port if protocol == "lobby" else run.tictactoe_port
    split = split_lines if protocol == "lobby" else ttt_wire.split_answers
    member = Member(await Wire.open(port, split), name, protocol)
    if name not in run.accounts:
        answer = await member.ask(f"REGISTER:{name}:{PASSWORD}", "REGISTER:")
        if answer == "REGISTER:ACKSTATUS:0":
            run.accounts[name] = PASSWORD
        elif answer != "REGISTER:ACKSTATUS:1":
            raise Unexpected(f"REGISTER answered {answer!r}")
    if rng.random() < 0.05:  # a typo first (a failure: slowed only from the third)
        await member.ask(f"LOGIN:{name}:typo", "LOGIN:ACKSTATUS:2")
    answer = await member.ask(f"LOGIN:{name}:{PASSWORD}", "LOGIN:")
    if answer != "LOGIN:ACKSTATUS:0":
        raise Unexpected(f"{name} could not log in: {answer!r}")
    if protocol == "lobby" and run.grace:
        await forfeit_a_game_left(run, member)
    return member


async def news_after_login(member: Member) -> list[str]:
    """What came between LOGIN's answer and HISTORY's (REJOIN… if we have a game going).

    HISTORY is asked only as a marker: its answer comes after everything the login
    sent. The room's news after REJOIN, INPROGRESS and BOARDSTATUS is put back to be read.
    """
    await member.send("HISTORY")
    before: list[str] = []
    while not (message := await member.line.next()).startswith("HISTORY:"):
        before.append(message)
    if not before or not before[0].startswith("REJOIN:"):
        return before
    member.line.messages.extendleft(reversed(before[3:]))
    return before[:3]


async def forfeit_a_game_left(run: Run, member: Member) -> None:
    """A game this name left earlier (a hang-up on purpose) is still waiting for it: give it up."""
    news = await news_after_login(member)
    if news and news[0].startswith("REJOIN:"):
        run.counts["lobby player: forfeits the game it had left"] += 1
        await member.send("FORFEIT")
        while not (await member.line.next()).startswith("GAMEEND:"):
            pass


ROOM_MISCHIEF = ("play", "play", "play", "play", "forfeit", "abandon", "illegal", "chat", "break")


async def room_player(run: Run, rng: random.Random, name: str, protocol: str, how: str) -> None:
    """Find a game (QUICKPLAY, or CREATE/JOIN for tic-tac-toe), play it out, behave as ``how``."""
    member = await log_in(run, rng, protocol, name)
    try:
        seated = await find_a_game(member, rng)
        if seated is None:
            return  # nobody came
        first, second = seated
        view = RoomView(protocol, member.game, first, second, me=name, room=member.room)
        if protocol == "lobby":
            view.epoch = len(run.restarts)
            run.seats.append(view)
        while True:
            try:
                await play_room_game(run, member, rng, view, how)
                return
            except (HungUp, ConnectionError):
                if protocol != "lobby" or not run.grace or view.outcome:
                    raise
                if not run.restarted_since(time.monotonic() - 5):
                    raise
                member.line.close()
                back = await come_back(run, view)
                if back is None:
                    return  # the game ended while we were away: GAME told us how
                member = back
                if view.forfeited:  # our FORFEIT was lost with the server: say it again
                    await member.send("FORFEIT")
    finally:
        member.line.close()


async def come_back(run: Run, view: RoomView) -> Member | None:
    """Log in again after the server went (a few tries, backing off); resume our game.

    None: the game is over (it ended while we were away); its GAME record is kept.
    """
    delay = 0.5
    for _ in range(COMEBACK_TRIES):
        await asyncio.sleep(delay)
        delay = min(delay * 2, 4.0)
        try:
            line = await Wire.open(run.port)
        except ConnectionError:
            continue  # the server is not back yet
        member = Member(line, view.me, "lobby", view.game, view.room)
        try:
            answer = await member.ask(f"LOGIN:{view.me}:{PASSWORD}", "LOGIN:")
            if answer != "LOGIN:ACKSTATUS:0":
                raise Unexpected(f"{view.me} could not log in again: {answer!r}")
            news = await news_after_login(member)
        except (HungUp, ConnectionError):
            line.close()
            continue  # the server went again
        except BaseException:
            line.close()
            raise
        run.counts["lobby player: back after the server went"] += 1
        if news and news[0].startswith("REJOIN:"):
            resume(view, news)
            return member
        await learn_the_end(member, view)
        member.line.close()
        return None
    raise HungUp(f"{view.me} could not log in again in {COMEBACK_TRIES} tries")


def resume(view: RoomView, news: list[str]) -> None:
    """Go on from REJOIN, INPROGRESS and BOARDSTATUS: the board and the turn the server says."""
    to_move = news[1].split(":")[1]
    board = news[2].split(":")[1]
    if board != (view.boards[-1] if view.boards else empty_board(view)):
        view.resumes.add(len(view.boards))
        view.boards.append(board)
    first_to_move = to_move == view.first
    view.skew = 0 if (len(view.boards) % 2 == 0) == first_to_move else 1
    view.comebacks += 1


async def learn_the_end(member: Member, view: RoomView) -> None:
    """Our game is no longer in progress: its record is our newest game."""
    answer = await member.ask("HISTORY", "HISTORY:")
    newest = answer.split(":", 3)[3].split(",")[0]
    record = await member.ask(f"GAME:{newest}", "GAME:")
    fields = record.split(":")
    if fields[4:6] != [view.first, view.second]:
        raise Unexpected(f"our newest game is not the one we left: {record[:80]!r}")
    view.record, view.outcome = record, "history"


LOBBY_GAMES = ((4, 4, "classic"), (5, 4, "popout"), (7, 6, "popout"))


async def find_a_game(member: Member, rng: random.Random) -> tuple[str, str] | None:
    """Seat ``member`` in a game; who moves first and second (None: nobody came in time)."""
    if member.protocol == "lobby":
        columns, rows, rules = rng.choice(LOBBY_GAMES)
        answer = await member.ask(f"QUICKPLAY:{columns}:{rows}:{rules}", "QUICKPLAY:")
        if not answer.startswith("QUICKPLAY:ACKSTATUS:0:"):
            raise Unexpected(f"QUICKPLAY answered {answer!r}")
        member.room = answer.split(":", 3)[3]
    else:
        answer = await member.ask("ROOMLIST:PLAYER", "ROOMLIST:ACKSTATUS:0:")
        rooms = [room for room in answer.split(":", 3)[3].split(",") if room]
        joined = False
        if rooms:
            joined = (
                await member.ask(f"JOIN:{rng.choice(rooms)}:PLAYER", "JOIN:")
            ) == "JOIN:ACKSTATUS:0"
        if not joined:
            room = f"t{member.name}"
            await member.ask(f"CREATE:{room}", "CREATE:ACKSTATUS:0")
    try:
        begin = await asyncio.wait_for(member.until("BEGIN:"), WAIT_FOR_OPPONENT)
    except TimeoutError:
        return None
    fields = begin.split(":")
    member.game = wire.parse_game(fields[3:]) if member.protocol == "lobby" else None
    return fields[1], fields[2]


async def play_room_game(
    run: Run, member: Member, rng: random.Random, view: RoomView, how: str
) -> None:
    """React to the room's messages until GAMEEND; move when it is our turn."""
    board = view.boards[-1] if view.boards else empty_board(view)
    awaiting_board = False  # our move is sent; its BOARDSTATUS has not come yet
    while True:
        if not awaiting_board and my_turn(view, member.name) and not view.forfeited:
            how = await take_turn(member, rng, view, board, how)
            if how == "gone":
                view.outcome = "left"
                return
            view.forfeited = how == "forfeited"
            awaiting_board = True
        message = await member.line.next(ANSWER_TIMEOUT + run.grace)  # the other may be away
        if message.startswith("GAMEEND:"):
            view.end, view.outcome = message, "ended"
            run.room_views.append(view)
            return
        if message.startswith("BOARDSTATUS:"):
            board = message.split(":")[1]
            view.boards.append(board)
            awaiting_board = False
        elif not message.startswith(NEWS):
            raise Unexpected(f"in a game, got {message[:80]!r}")


async def take_turn(
    member: Member, rng: random.Random, view: RoomView, board: str, how: str
) -> str:
    """Our move, or the mischief ``how`` asks for; what we do next ("gone": we left)."""
    await think(rng)
    if len(view.boards) > 4 and how in ("forfeit", "abandon", "break") and rng.random() < 0.3:
        await misbehave_in_a_room(member, how, rng)
        return "forfeited" if how == "forfeit" else "gone"  # GAMEEND comes, or we are gone
    if how == "illegal" and rng.random() < 0.3:
        await member.send(illegal_move(view))
        if member.protocol == "lobby":
            await member.until("INVALID:")
        else:  # tic-tac-toe has no word for it: the same board, to us alone
            await member.expect(f"BOARDSTATUS:{board}")
    elif how == "chat" and member.protocol == "lobby":
        await member.send("CHAT:good luck: have fun")
    await member.send(random_move(view, board, rng))
    return how


async def misbehave_in_a_room(member: Member, how: str, rng: random.Random) -> None:
    """Forfeit, hang up (in the middle of a message), or break the protocol mid-game."""
    if how == "forfeit":
        await member.send("FORFEIT")
    elif how == "abandon":
        await member.line.send(b"DROP:" if member.protocol == "lobby" else b"PLA")
        member.line.close()
    else:
        await member.line.send(breach(member.protocol, rng))
        with contextlib.suppress(HungUp, ConnectionResetError):
            while True:  # what was on its way still comes (the room's news); then the end
                await member.line.next()


def breach(protocol: str, rng: random.Random) -> bytes:
    """A message that breaks the protocol (the server closes without a word)."""
    if protocol == "lobby":
        # Latin-1's é is no UTF-8: a breach still now that chat may hold Unicode (§5.6).
        return rng.choice((b"HELLO:there\n", b"CHAT:caf\xe9\n", b"x" * 9000 + b"\n"))
    return rng.choice((b"CHAT:hello", b"x" * 9000))


def empty_board(view: RoomView) -> str:
    """The board before the first move."""
    return "0" * (9 if view.game is None else view.game[0] * view.game[1])


def state_of(view: RoomView, board: str) -> GameState | Board:
    """The position ``board`` shows (Connect Four or tic-tac-toe)."""
    if view.game is None:
        return Board.from_text(board)
    turn = Player.RED if view.moves_seen % 2 == 0 else Player.YELLOW
    return state_from_cells(view.game, board, turn)


def my_turn(view: RoomView, me: str) -> bool:
    """Whether ``me`` is to move: moves alternate from the first player (a player's view)."""
    return me == (view.first if view.moves_seen % 2 == 0 else view.second)


def random_move(view: RoomView, board: str, rng: random.Random) -> str:
    """A legal move on ``board`` in the room's protocol."""
    state = state_of(view, board)
    if isinstance(state, Board):
        free = [i for i, mark in enumerate(state.cells) if mark is None]
        index = rng.choice(free)
        return f"PLACE:{index % 3}:{index // 3}"
    move = rng.choice(state.legal_moves())
    return f"{move.kind.name}:{move.column + 1}"


def illegal_move(view: RoomView) -> str:
    """A move the rules refuse."""
    if view.game is None:
        return "PLACE:3:3"
    return f"DROP:{view.game[0] + 1}"


async def room_viewer(run: Run, rng: random.Random, name: str, protocol: str, how: str) -> None:
    """Watch a random room until its game ends (or stop reading, or leave early)."""
    member = await log_in(run, rng, protocol, name)
    try:
        answer = await member.ask("ROOMLIST:VIEWER", "ROOMLIST:ACKSTATUS:0:")
        rooms = [room for room in answer.split(":", 3)[3].split(",") if room]
        if not rooms:
            await asyncio.sleep(1)
            return
        room = rng.choice(rooms)
        red = ""
        if protocol == "lobby":  # who is red: INPROGRESS says only who is to move
            info = (await member.ask(f"ROOMINFO:{room}", "ROOMINFO:")).split(":")
            if info[2] != "0":
                return  # the game ended meanwhile
            red = info[6]
        if (await member.ask(f"JOIN:{room}:VIEWER", "JOIN:")) != "JOIN:ACKSTATUS:0":
            return  # the game ended meanwhile
        if how == "break":  # a viewer that stops reading: it must not slow the players
            await asyncio.sleep(rng.uniform(2, 20))
            return
        await watch(run, member, protocol, red)
    finally:
        member.line.close()


async def watch(run: Run, member: Member, protocol: str, red: str) -> None:
    """Record what a viewer sees, from BEGIN or INPROGRESS to GAMEEND."""
    view: RoomView | None = None
    while True:
        try:
            message = await member.line.next(
                ANSWER_TIMEOUT + run.grace if view else WAIT_FOR_OPPONENT + 5
            )
        except (TimeoutError, HungUp):
            if view is None:  # the creator gave up: the room went without a word, and
                return  # a viewer told nothing for the idle limit is hung up on
            raise
        fields = message.split(":")
        if fields[0] == "BEGIN":
            game = wire.parse_game(fields[3:]) if protocol == "lobby" else None
            view = RoomView(protocol, game, fields[1], fields[2], viewer=True)
        elif fields[0] == "INPROGRESS":
            board = (await member.until("BOARDSTATUS:")).split(":")[1]
            view = joined_midway(protocol, fields, board, red)
        elif fields[0] == "BOARDSTATUS" and view is not None:
            view.boards.append(fields[1])
        elif fields[0] == "GAMEEND":
            if view is not None:
                view.end = message
                run.room_views.append(view)
            return
        elif not message.startswith(NEWS):
            raise Unexpected(f"watching, got {message[:80]!r}")


def joined_midway(protocol: str, fields: list[str], board: str, red: str) -> RoomView:
    """A view that starts at ``board``, with INPROGRESS's ``fields[1]`` to move.

    Who moved first: red (ROOMINFO's) in Connect Four; in tic-tac-toe, X, whose
    turn it is when both have as many marks.
    """
    to_move, other = fields[1], fields[2]
    if protocol == "lobby":
        game = wire.parse_game(fields[3:])
        first_to_move = to_move == red
    else:
        game = None
        first_to_move = Board.from_text(board).turn is Mark.X
    first, second = (to_move, other) if first_to_move else (other, to_move)
    return RoomView(protocol, game, first, second, board, first_to_move, viewer=True)


# ----- the referee ---------------------------------------------------------------------


def referee_ai_game(game: AIGame) -> str | None:
    """Why ``game`` was not legal from start to end (None: it was)."""
    state = GameState.new(*game.game)
    for number, move in enumerate(game.moves):
        if state.is_over:
            return f"move {number + 1} after the end"
        reason = state.refusal(move)
        if reason is not None:
            return f"move {number + 1} ({move}) illegal: {reason}"
        state = state.play(move)
    if not state.is_over:
        return "announced the end of a game still going on"
    wanted = {
        "i32cfsp": i32cfsp.result_line(state) or "",
        "cfsp": "closed",
        "c4n": f"{c4n_outcome(state)} {c4n.format_board(state, Player.RED)}",
    }[game.protocol]
    return None if game.end == wanted else f"ended with {game.end!r}, the engine says {wanted!r}"


def c4n_outcome(state: GameState) -> int:
    """RESULT's number for the player (RED): 1 won, 2 the AI won, -1 a draw."""
    return {Player.RED: 1, Player.YELLOW: 2, None: -1}[state.winner]


def referee_room_view(view: RoomView) -> str | None:
    """Why a room game, as one member saw it, was not legal (None: it was)."""
    if view.game is None:
        return referee_tictactoe(view)
    return referee_connect_four(view, view.game)


def referee_connect_four(view: RoomView, game: tuple[int, int, Rules]) -> str | None:
    """Each BOARDSTATUS one legal move on from the last; GAMEEND true to the engine."""
    state = GameState.new(*game)
    if view.start:
        turn = Player.RED if view.first_to_move else Player.YELLOW
        state = state_from_cells(game, view.start, turn)
    for index, board in enumerate(view.boards):
        moves = moves_between(state, board, 2 if index in view.resumes else 1)
        if moves is None:
            return f"no legal move leads from {wire.cells(state)} to {board}"
        state = state.play_all(moves)
    _, cells, status, *winner = view.end.split(":")
    if status == "2":
        if cells != wire.cells(state):
            return f"a forfeit that changed the board: {view.end}"
        return forfeit_problem(view, winner)
    move = move_between(state, cells)
    if move is None:
        return f"GAMEEND's board is no legal move on: {view.end}"
    return judge_the_end(view, state.play(move), status, winner)


def moves_between(state: GameState, board: str, most: int) -> list[Move] | None:
    """One move (or, across a REJOIN, up to ``most``) that lead from ``state`` to ``board``."""
    move = move_between(state, board)
    if move is not None:
        return [move]
    if most < 2 or state.is_over:
        return None
    for first in state.legal_moves():
        after = state.play(first)
        second = None if after.is_over else move_between(after, board)
        if second is not None:
            return [first, second]
    return None


def judge_the_end(view: RoomView, state: GameState, status: str, winner: list[str]) -> str | None:
    """Whether GAMEEND's draw (1) or win (0) is what the engine sees in ``state``."""
    if status == "1" and not state.is_draw and view.start and state.rules is Rules.POPOUT:
        return f"{UNCHECKABLE}a Pop Out draw by repetition, maybe of positions before it joined"
    if status == "1":
        return None if state.is_draw else f"a draw the engine does not see: {view.end}"
    if status != "0":
        return f"no such status: {view.end}"
    if state.winner is None:
        return f"a win the engine does not see: {view.end}"
    names = [view.first, view.second]
    return None if winner == [names[state.winner is Player.YELLOW]] else f"wrong winner: {view.end}"


def forfeit_problem(view: RoomView, winner: list[str]) -> str | None:
    """What is wrong with a forfeit's winner: a player's view knows who gave up."""
    players = [view.first, view.second]
    if view.me:
        other = players[players.index(view.me) - 1]
        wanted = [other] if view.forfeited else [view.me]
    else:
        wanted = winner if winner and winner[0] in players else ["one of the players"]
    return None if winner == wanted else f"forfeit won by {winner}, not {wanted}: {view.end}"


def referee_tictactoe(view: RoomView) -> str | None:
    """The same for tic-tac-toe (X moves first)."""
    board = Board.from_text(view.start or "0" * 9)
    for text in view.boards:
        after = Board.from_text(text)
        if board.move_to(after) is None:
            return f"no legal move leads from {board.text()} to {text}"
        board = after
    _, cells, status, *winner = view.end.split(":")
    after = Board.from_text(cells)
    if status == "2":
        if after != board:
            return f"a forfeit that changed the board: {view.end}"
        return forfeit_problem(view, winner)
    if board.move_to(after) is None or not after.is_over:
        return f"GAMEEND's board is no legal, final move on: {view.end}"
    if status == "1":
        return None if after.winner is None and not winner else f"not a draw: {view.end}"
    names = {Mark.X: view.first, Mark.O: view.second}
    won = status == "0" and after.winner and winner == [names[after.winner]]
    return None if won else f"a wrong winner or status: {view.end}"


# ----- the clients' loop -------------------------------------------------------------------

ROLES: tuple[Role, ...] = (
    ("i32cfsp", i32cfsp_client, MISCHIEF),
    ("cfsp", cfsp_client, MISCHIEF),
    ("c4n", c4n_client, MISCHIEF),
    ("lobby player", room_player, ROOM_MISCHIEF),
    ("lobby player", room_player, ROOM_MISCHIEF),
    ("lobby viewer", room_viewer, ("watch", "watch", "break")),
    ("tictactoe player", room_player, ROOM_MISCHIEF),
    ("tictactoe player", room_player, ROOM_MISCHIEF),
    ("tictactoe viewer", room_viewer, ("watch", "watch", "break")),
)


async def client(run: Run, number: int, seed: int) -> None:
    """One client, over and over until the deadline: a role, a behaviour, a session."""
    rng = random.Random(seed * 100_003 + number)
    roles = run.roles or ROLES
    role, session, behaviours = roles[number % len(roles)]
    while time.monotonic() < run.deadline:
        how = rng.choice(behaviours)
        name = f"c{number}n{rng.randrange(3)}" if "player" in role else f"c{number}"
        run.counts[f"{role}: {how}"] += 1
        began = time.monotonic()
        try:
            if role.endswith(("player", "viewer")):
                await session(run, rng, name, role.split()[0], how)
            else:
                await session(run, rng, name, how)
        except (ConnectionRefusedError, ConnectionResetError, BrokenPipeError):
            run.counts["connections refused or reset"] += 1
            await asyncio.sleep(0.5)
        except HungUp as gone:
            if how in ("play", "watch", "illegal", "chat") and not run.restarted_since(began):
                run.problem(f"{role} {number} ({how})", str(gone))
        except Unexpected as error:
            if not run.restarted_since(began):
                run.problem(f"{role} {number} ({how})", str(error))
        except TimeoutError:
            run.problem(f"{role} {number} ({how})", "no answer within the time limit")
        except WeLeft:
            pass
        except Exception as error:  # what the server said broke the client: that is a finding
            if not run.restarted_since(began):
                run.problem(f"{role} {number} ({how})", f"{type(error).__name__}: {error}")
        await asyncio.sleep(rng.uniform(0, 0.2))


# ----- the server ----------------------------------------------------------------------------


@dataclass
class Server:
    """One ``c4tui serve`` process and what it started."""

    process: subprocess.Popen[str]
    port: int
    tictactoe_port: int
    family: set[int] = field(default_factory=set)  # every process it started, ever seen

    def look(self) -> None:
        """Note the processes it has started (the AI's workers)."""
        self.family |= descendants(self.process.pid)


def start(
    db: Path, log: TextIO, ai: str, port: int = 0, tictactoe_port: int = 0, *, grace: int = 0
) -> Server:
    """Start ``c4tui serve``; wait until it listens on both ports."""
    command = [sys.executable, "-m", "c4tui", "serve", "--port", str(port)]
    command += ["--tictactoe-port", str(tictactoe_port), "--db", str(db), "--ai", ai]
    command += ["--bcrypt-rounds", "4", "--idle-timeout", str(IDLE_TIMEOUT)]
    command += ["--max-connections", "4000", "--max-per-address", "4000"]
    # Every player registers and chats from this one machine: §7's limits are not tested here.
    command += ["--max-registrations", "0", "--chat-rate", "0"]
    # The lobby's players come back after the server went, within the grace (a name's
    # next session forfeits a game it left on purpose); 0: a player who leaves forfeits.
    command += ["--reconnect-grace", str(grace)]
    written_before = Path(log.name).stat().st_size
    process = subprocess.Popen(command, stderr=log, text=True)
    for _ in range(600):
        text = Path(log.name).read_bytes()[written_before:].decode(errors="replace")
        listening = re.search(r"listening on [0-9.]+:(\d+)", text)
        rooms = re.search(r"tic-tac-toe rooms on [0-9.]+:(\d+)", text)
        if listening and rooms:
            return Server(process, int(listening[1]), int(rooms[1]))
        if process.poll() is not None:
            break
        time.sleep(0.05)
    stop(Server(process, 0, 0))  # SIGTERM first: a SIGKILLed server leaves its AI's workers
    said = Path(log.name).read_bytes()[written_before:][-2000:].decode(errors="replace")
    raise RuntimeError(f"the server did not start; it said:\n{said}")


def stop(server: Server) -> tuple[int | str, float, set[int]]:
    """SIGTERM; the exit status, how long it took, and which of its processes outlived it."""
    server.look()
    began = time.monotonic()
    server.process.send_signal(signal.SIGTERM)
    try:
        status: int | str = server.process.wait(timeout=60)
    except subprocess.TimeoutExpired:
        server.process.kill()
        server.process.wait()
        status = "killed after 60 s"
    took = time.monotonic() - began
    for _ in range(50):
        left = {pid for pid in server.family if Path(f"/proc/{pid}").exists()}
        if not left:
            break
        time.sleep(0.1)
    return status, took, left


def kill(server: Server) -> tuple[float, set[int]]:
    """SIGKILL; how long until it was gone, and which of its processes outlived the cleanup.

    A killed server cannot end its AI's workers: what is left of them after a moment is
    sent SIGTERM by its process id.
    """
    server.look()
    began = time.monotonic()
    server.process.kill()
    server.process.wait()
    took = time.monotonic() - began
    for attempt in range(50):
        left = {pid for pid in server.family if Path(f"/proc/{pid}").exists()}
        if not left:
            break
        if attempt == 20:
            for pid in left:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGTERM)
        time.sleep(0.1)
    return took, left


def descendants(pid: int) -> set[int]:
    """Every living process below ``pid``."""
    children: dict[int, list[int]] = collections.defaultdict(list)
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError, IndexError, ValueError):
                stat = (entry / "stat").read_text()
                children[int(stat.rsplit(")", 1)[1].split()[1])].append(int(entry.name))
    found: set[int] = set()
    todo = [pid]
    while todo:
        for child in children[todo.pop()]:
            if child not in found:
                found.add(child)
                todo.append(child)
    return found


def rss_mib(pid: int) -> float:
    """Resident memory of ``pid`` in MiB (0 when it is gone)."""
    with contextlib.suppress(OSError):
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def open_files(pid: int) -> int:
    """How many files (sockets included) ``pid`` has open."""
    return len(os.listdir(f"/proc/{pid}/fd"))


async def settle(pid: int, seconds: float) -> tuple[float, int]:
    """Wait for ``seconds`` of quiet (stalled clients time out), then its memory and open files."""
    await asyncio.sleep(seconds)
    return rss_mib(pid), open_files(pid)


# ----- the run -----------------------------------------------------------------------------


@dataclass
class Figures:
    """What the report says."""

    baseline_mib: float = 0.0
    baseline_files: int = 0
    peak_mib: float = 0.0
    final_mib: float = 0.0
    final_files: int = 0
    stops: list[tuple[int | str, float, set[int]]] = field(default_factory=list)
    kills: list[tuple[float, set[int]]] = field(default_factory=list)
    games: collections.Counter[str] = field(default_factory=collections.Counter)
    lost_games: list[str] = field(default_factory=list)
    down_seconds: float = 0.0
    logins_failed: list[str] = field(default_factory=list)
    illegal_games: list[str] = field(default_factory=list)
    tracebacks: int = 0
    workers: int = 0
    uncheckable: int = 0  # viewers' draws by repetitions that may predate their joining
    stuck_clients: int = 0


async def load(run: Run, clients: int, seed: int, servers: list[Server], figures: Figures) -> None:
    """Run the clients until the deadline; watch the server's memory meanwhile."""
    tasks = [asyncio.create_task(client(run, n, seed)) for n in range(clients)]
    while time.monotonic() < run.deadline:
        figures.peak_mib = max(figures.peak_mib, rss_mib(servers[-1].process.pid))
        servers[-1].look()
        await asyncio.sleep(1)
    _, stuck = await asyncio.wait(tasks, timeout=ANSWER_TIMEOUT + IDLE_TIMEOUT + 30)
    figures.stuck_clients += len(stuck)
    for task in stuck:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)


async def restart_midway(
    run: Run,
    servers: list[Server],
    figures: Figures,
    *,
    db: Path,
    log: TextIO,
    ai: str,
    moments: list[tuple[float, str]],
) -> None:
    """At each moment, SIGTERM or SIGKILL the server; start it again (same ports and database)."""
    for at, how in moments:
        await asyncio.sleep(max(0.0, at - time.monotonic()))
        server = servers[-1]
        down = time.monotonic()
        run.restarts.append(down)
        if how == "SIGKILL":
            figures.kills.append(await asyncio.to_thread(kill, server))
            print(f"SIGKILL: gone after {figures.kills[-1][0]:.2f} s")
        else:
            figures.stops.append(await asyncio.to_thread(stop, server))
            status, took, left = figures.stops[-1]
            print(f"SIGTERM: exit status {status} after {took:.2f} s; processes left: {len(left)}")
        ports = (server.port, server.tictactoe_port)
        again = await asyncio.to_thread(start, db, log, ai, *ports, grace=run.grace)
        print(f"started again in {time.monotonic() - down:.2f} s")
        figures.down_seconds += time.monotonic() - down
        servers.append(again)


def restart_moments(
    args: argparse.Namespace, began: float, seconds: float
) -> list[tuple[float, str]]:
    """SIGTERM halfway; with --kill-server N, N SIGKILLs at random moments of the middle half."""
    if not args.kill_server:
        return [(began + seconds / 2, "SIGTERM")]
    rng = random.Random(args.seed)
    slot = seconds / 2 / args.kill_server
    starts = (began + seconds / 4 + n * slot for n in range(args.kill_server))
    return [(at + rng.uniform(0.2, 0.8) * slot, "SIGKILL") for at in starts]


async def check_accounts(run: Run, figures: Figures) -> None:
    """Every acknowledged account logs in."""
    names = list(run.accounts)
    semaphore = asyncio.Semaphore(20)

    async def one(name: str) -> None:
        async with semaphore:
            line = await Wire.open(run.port)
            try:
                await line.send(f"LOGIN:{name}:{run.accounts[name]}")
                if await line.next() != "LOGIN:ACKSTATUS:0":
                    figures.logins_failed.append(name)
            finally:
                line.close()

    await asyncio.gather(*(one(name) for name in names))


#: GAME:<id> asked at once while reading every kept game.
GAME_BATCH = 100


async def kept_games(port: int) -> dict[int, list[str]]:
    """Every game the server keeps, by id: GAME's fields from the id on (GAME:1, 2, …)."""
    line = await Wire.open(port)
    checker = Member(line, "chaos-checker", "lobby")
    try:
        await checker.ask(f"REGISTER:chaos-checker:{PASSWORD}", "REGISTER:")
        if (await checker.ask(f"LOGIN:chaos-checker:{PASSWORD}", "LOGIN:")) != "LOGIN:ACKSTATUS:0":
            raise Unexpected("the checker could not log in")
        games: dict[int, list[str]] = {}
        for first in range(1, 10_000_000, GAME_BATCH):
            numbers = range(first, first + GAME_BATCH)
            await line.send("".join(f"GAME:{number}\n" for number in numbers), "")
            for number in numbers:
                answer = await checker.until("GAME:")
                if answer.startswith("GAME:ACKSTATUS:0:"):
                    games[number] = answer.split(":")[3:]
            if numbers[0] not in games and numbers[-1] not in games:
                return games  # ids are given one after the other: past the last
        return games
    finally:
        line.close()


def judge_seats(seats: list[RoomView], games: dict[int, list[str]], figures: Figures) -> None:
    """No game lost: every lobby game that began ended as its players saw and GAME keeps it.

    Or it is still in progress, and both players came back to it after a restart.
    """
    together: dict[tuple[str, str, str, int], list[RoomView]] = collections.defaultdict(list)
    for seat in seats:
        together[(seat.room, seat.first, seat.second, seat.epoch)].append(seat)
    unused = dict(games)
    for (room, red, yellow, _), views in together.items():
        figures.games["begun"] += 1
        figures.games["resumed"] += any(view.comebacks for view in views)
        kind = judge_one_game(views, unused)
        if kind.startswith("lost: "):
            figures.lost_games.append(f"{room} {red} v {yellow}: {kind.removeprefix('lost: ')}")
        else:
            figures.games[kind] += 1
            figures.games["ended"] += kind != "in progress"


def judge_one_game(views: list[RoomView], unused: dict[int, list[str]]) -> str:
    """How one game came out: "both saw", "one left", "via GAME", "in progress" or "lost: why".

    The GAME record it matches is used up (each record stands for one game).
    """
    if any(not view.outcome for view in views):
        return still_in_progress(views, unused)
    ends = {seen_end(view) for view in views if view.outcome in ("ended", "history")}
    if not ends:
        return "lost: both players left it" if len(views) == 2 else "lost: its player left it"
    if len(ends) > 1:
        return f"lost: the players saw different ends: {sorted(ends)}"
    (cells, winner), view = ends.pop(), views[0]
    for number, fields in unused.items():
        positions = kept_positions(fields, view)
        seen_all = all(is_subsequence(seen.boards, positions) for seen in views)
        if positions and positions[-1] == cells and fields[6] == winner and seen_all:
            del unused[number]
            break
    else:
        return f"lost: GAME has no record of it ending {cells} won by {winner!r}"
    if any(view.outcome == "history" for view in views):
        return "via GAME"
    return (
        "both saw" if len(views) == 2 and all(v.outcome == "ended" for v in views) else "one left"
    )


def still_in_progress(views: list[RoomView], unused: dict[int, list[str]]) -> str:
    """A game a player did not see end: fine only if both came back and GAME says it goes on."""
    broken = " and ".join(view.me for view in views if not view.outcome)
    if len(views) < 2 or not all(view.comebacks for view in views):
        return f"lost: {broken} left it without seeing an end"
    for number, fields in unused.items():
        if kept_positions(fields, views[0]) and not fields[7]:
            del unused[number]
            return "in progress"
    return f"lost: {broken} did not see it end, and GAME has it over"


def seen_end(view: RoomView) -> tuple[str, str]:
    """The final board and the winner ("" for a draw) a player saw: GAMEEND, or GAME's record."""
    if view.outcome == "history":
        fields = view.record.split(":")[3:]
        return kept_positions(fields, view)[-1], fields[6]
    _, cells, _, *winner = view.end.split(":")
    return cells, (winner or [""])[0]


def kept_positions(fields: list[str], view: RoomView) -> list[str]:
    """The boards after each of a GAME record's moves ([] if it is not this view's game)."""
    game = wire.parse_game(fields[3:6])
    if fields[1:3] != [view.first, view.second] or game != view.game or game is None:
        return []
    state = GameState.new(*game)
    positions = [wire.cells(state)]
    for text in fields[8].split():
        state = state.play(parse_move(text))
        positions.append(wire.cells(state))
    return positions


def is_subsequence(boards: list[str], positions: list[str]) -> bool:
    """Whether ``boards`` come in ``positions``, in that order."""
    left = iter(positions)
    return all(board in left for board in boards)


def referee(run: Run, figures: Figures) -> None:
    """Replay every completed game; note each that was not legal from start to end."""
    for game in run.ai_games:
        verdict = unless_unreadable(referee_ai_game, game)
        if verdict is not None:
            figures.illegal_games.append(f"{game.protocol} {game.game}: {verdict}")
    for view in run.room_views:
        verdict = unless_unreadable(referee_room_view, view)
        if verdict is not None and verdict.startswith(UNCHECKABLE):
            figures.uncheckable += 1
        elif verdict is not None:
            figures.illegal_games.append(f"{view.protocol}: {verdict}")


Transcript = TypeVar("Transcript", AIGame, RoomView)


def unless_unreadable(
    judge: Callable[[Transcript], str | None], transcript: Transcript
) -> str | None:
    """The referee's verdict; a transcript it cannot even read is a finding too."""
    try:
        return judge(transcript)
    except (C4Error, ValueError, IndexError, KeyError) as error:  # TicTacToeError is a ValueError
        return f"unreadable: {type(error).__name__}: {error}"


async def chaos(args: argparse.Namespace, folder: Path) -> tuple[Run, Figures, Path]:
    """Warm up, measure the baseline, run the chaos with a restart, check everything."""
    db, log_path = folder / "accounts.sqlite3", folder / "server.log"
    figures = Figures()
    with log_path.open("w", encoding="utf-8") as log:
        servers = [start(db, log, args.ai, grace=args.reconnect_grace)]
        try:
            run = await warm_up_and_run(args, servers, figures, db, log)
        finally:  # a run that fails leaves no server behind (nor its AI's workers)
            for server in servers:
                if server.process.poll() is None:
                    stop(server)
    figures.tracebacks = log_path.read_bytes().count(b"Traceback")
    return run, figures, log_path


async def warm_up_and_run(
    args: argparse.Namespace, servers: list[Server], figures: Figures, db: Path, log: TextIO
) -> Run:
    """The warm-up, the baseline, the chaos and the restart, and the checks after them."""
    first = servers[0]
    grace = args.reconnect_grace
    roles = tuple(role for role in ROLES if args.only in role[0])
    warm = Run(first.port, first.tictactoe_port, time.monotonic() + args.warm_up, grace=grace)
    warm.roles = roles
    print(f"warming up for {args.warm_up:g} s on ports {first.port} and {first.tictactoe_port}")
    await load(warm, args.clients, args.seed + 1, servers, figures)
    figures.baseline_mib, figures.baseline_files = await settle(first.process.pid, args.quiet)
    print(f"baseline: {figures.baseline_mib:.1f} MiB, {figures.baseline_files} open files")
    seconds = args.minutes * 60
    began = time.monotonic()
    run = Run(
        first.port, first.tictactoe_port, began + seconds, accounts=warm.accounts, grace=grace
    )
    run.roles = roles
    figures.peak_mib = 0.0
    moments = restart_moments(args, began, seconds)
    said = ", ".join(f"{how} at {at - began:.1f} s" for at, how in moments)
    print(f"chaos for {seconds:g} s with {args.clients} clients; {said}; grace {grace} s")
    restart = asyncio.create_task(
        restart_midway(run, servers, figures, db=db, log=log, ai=args.ai, moments=moments)
    )
    await load(run, args.clients, args.seed, servers, figures)
    await restart
    last = servers[-1]
    figures.final_mib, figures.final_files = await settle(last.process.pid, args.quiet)
    await check_accounts(run, figures)
    if run.grace:  # with no grace a player who loses the server loses its game, as designed
        judge_seats(run.seats, await kept_games(run.port), figures)
    for checked in (warm, run):  # the warm-up's games and problems count too
        referee(checked, figures)
    run.problems[:0] = warm.problems
    figures.stops.append(await asyncio.to_thread(stop, last))
    figures.workers = sum(len(server.family) for server in servers)
    return run


def report(run: Run, figures: Figures, log_path: Path) -> bool:
    """Print the figures and the verdicts; True if every verdict passed."""
    print("\nsessions by role and behaviour:")
    for key, count in sorted(run.counts.items()):
        print(f"  {key:40} {count:7,}")
    completed = collections.Counter(game.protocol for game in run.ai_games)
    completed.update(
        f"{v.protocol} (a {'viewer' if v.viewer else 'player'}'s view)" for v in run.room_views
    )
    print("completed games, each refereed:")
    for key, count in sorted(completed.items()):
        print(f"  {key:40} {count:7,}")
    print(f"  of which viewers' Pop Out draws the referee cannot check: {figures.uncheckable}")
    trips = sorted(run.round_trips)
    if trips:
        p50, p99 = trips[len(trips) // 2] * 1000, trips[len(trips) * 99 // 100] * 1000
        print(f"well-behaved moves: {len(trips):,}, round trip p50 {p50:.1f} ms, p99 {p99:.1f} ms")
    print(f"server down for the restart: {figures.down_seconds:.2f} s")
    for status, took, left in figures.stops:
        print(f"SIGTERM: exit status {status} after {took:.2f} s, {len(left)} processes left")
    for took, left in figures.kills:
        print(f"SIGKILL: gone after {took:.2f} s, {len(left)} processes left")
    games = figures.games
    print(
        f"lobby games begun: {games['begun']:,}; ended and kept: {games['ended']:,} "
        f"(seen by both players: {games['both saw']:,}, one had left: {games['one left']:,}, "
        f"the end learnt from GAME after a restart: {games['via GAME']:,}); "
        f"resumed after a restart: {games['resumed']:,}; still in progress, resumed: "
        f"{games['in progress']:,}; lost: {len(figures.lost_games):,}"
    )
    print(f"processes the servers started (the AI's workers): {figures.workers}")
    print(  # baseline: the first server idle after the warm-up; after: the restarted one, idle
        f"memory: baseline {figures.baseline_mib:.1f} MiB, peak {figures.peak_mib:.1f} MiB, "
        f"after {figures.final_mib:.1f} MiB; open files {figures.baseline_files} → "
        f"{figures.final_files}"
    )
    verdicts = {
        f"all {len(run.accounts):,} acknowledged accounts log in": not figures.logins_failed,
        "no process left behind": all(s == 0 and not left for s, _, left in figures.stops)
        and not any(left for _, left in figures.kills),
        f"no game lost ({games['begun']:,} begun, {games['resumed']:,} resumed after a "
        f"restart, {len(figures.lost_games):,} lost)": not figures.lost_games,
        "no connection left open": figures.final_files <= figures.baseline_files,
        f"memory back within {MEMORY_SLACK:.0%} of its baseline": figures.final_mib
        <= figures.baseline_mib * MEMORY_SLACK,
        "every completed game legal": not figures.illegal_games,
        "no traceback in the server's log": not figures.tracebacks,
        "no client told anything wrong, none broken by what it was told": not run.problems,
        "no client stuck": not figures.stuck_clients,
    }
    for problem in (
        run.problems[:20]
        + figures.illegal_games[:20]
        + figures.logins_failed[:5]
        + figures.lost_games[:20]
    ):
        print(f"  ! {problem}")
    print(f"server log: {log_path}")
    for verdict, passed in verdicts.items():
        print(f"{'PASS' if passed else 'FAIL'}  {verdict}")
    return all(verdicts.values())


def main() -> None:
    """Parse the options, run, report; exit 1 if any verdict failed."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, default=10.0, help="the chaos itself (default 10)")
    parser.add_argument("--clients", type=int, default=300, help="clients at once (default 300)")
    parser.add_argument(
        "--warm-up",
        type=float,
        default=30.0,
        help="seconds of the same load before the baseline (default 30)",
    )
    parser.add_argument("--ai", default="easy", help="the server's AI level (default easy)")
    parser.add_argument("--seed", type=int, default=1, help="the clients' randomness (default 1)")
    parser.add_argument(
        "--kill-server",
        type=int,
        default=0,
        metavar="N",
        help="SIGKILL the server N times at random moments mid-games instead of the SIGTERM "
        "halfway, starting it again on the same ports and database (default 0)",
    )
    parser.add_argument(
        "--reconnect-grace",
        type=int,
        default=20,
        help="the server's grace for players to come back (default 20); 0: a drop forfeits "
        "at once, nobody comes back, and 'no game lost' is not judged",
    )
    parser.add_argument(
        "--only",
        default="",
        metavar="WORD",
        help="only the clients whose role has WORD in it (e.g. 'lobby player'; default all)",
    )
    parser.add_argument(
        "--quiet",
        type=float,
        default=IDLE_TIMEOUT + 4,
        help="seconds of quiet before memory and open files are measured (default "
        f"{IDLE_TIMEOUT + 4}: past the idle limit, so stalled clients are gone by then)",
    )
    args = parser.parse_args()
    raise_open_file_limit()
    with tempfile.TemporaryDirectory(prefix="c4tui-chaos-") as folder:
        run, figures, log_path = asyncio.run(chaos(args, Path(folder)))
        handle, name = tempfile.mkstemp(prefix="c4tui-chaos-", suffix=".log")
        os.close(handle)
        kept = Path(name)  # outlives the run's folder
        kept.write_bytes(log_path.read_bytes())
        passed = report(run, figures, kept)
    sys.exit(0 if passed else 1)


if __name__ == "__main__":
    main()
