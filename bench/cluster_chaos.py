"""The cluster's chaos run: kill -9 one of two nodes mid-games, then count the games lost.

Run through ``python bench/cluster.py --chaos --kill leader|other``. R rooms of two
players, red on one node and yellow on the other, play 7 × 6 games back to back,
each move after a pause (so that games are under way when the node dies). A player
whose connection drops (or hears BYE) logs in again on the other node first, then on
its own, until one serves it; it expects REJOIN, INPROGRESS and the board, and plays on
from the board the server sent. Every player writes down each move it saw (the one
that turns its last board into the new one); a room keeps both players' moves by ply.
Afterwards ``judge`` reads PostgreSQL: every game that began must have ended by four
in a row or a full board, and its stored moves must be the moves its players saw.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

import psycopg
from chaos import NEWS, HungUp, Member, Unexpected, Wire, news_after_login
from lobby_load import PASSWORD

from c4tui.engine import GameState, Player, Rules, format_move
from c4tui.protocols import lobby as wire
from c4tui.protocols.lobby_boards import move_between, state_from_cells

GAME = (7, 6, Rules.CLASSIC)
#: How long a read may wait: a takeover and the players' return included.
ANSWER_SECONDS = 45.0
#: How long a player keeps trying to log in again after its connection dropped.
COMEBACK_SECONDS = 60.0


@dataclass
class GameSeen:
    """One game as its two players saw it: moves by ply, when it began and ended, how."""

    room: str
    began: float
    moves: dict[int, str] = field(default_factory=dict)
    conflicts: list[str] = field(default_factory=list)
    end: str = ""  # GAMEEND's line, as the first player to see it got it
    ended_at: float = 0.0
    over: asyncio.Event = field(default_factory=asyncio.Event)

    def saw(self, state: GameState, board: str) -> GameState:
        """The position ``board`` shows (the server's), the move from ``state`` written down.

        A board more than one move on (both players away meanwhile) leaves a gap that
        the other player's moves fill, or the judge finds.
        """
        move = move_between(state, board)
        if move is not None:
            ply, text = discs(wire.cells(state)), format_move(move)
            if self.moves.setdefault(ply, text) != text:
                self.conflicts.append(f"ply {ply}: {self.moves[ply]} and {text}")
        return position(board)

    def ended(self, line: str) -> None:
        """GAMEEND came (to the first of the two: its line and time are kept)."""
        if not self.end:
            self.end, self.ended_at = line, time.monotonic()
        self.over.set()


@dataclass
class ChaosTally:
    """Every game that began, and what went wrong on the players' side."""

    games: list[GameSeen] = field(default_factory=list)
    comebacks: list[float] = field(default_factory=list)  # seconds from a drop to back
    problems: list[str] = field(default_factory=list)


@dataclass
class Seat:
    """A player: its name, its connection, the nodes it knows (the one it is on first)."""

    name: str
    ports: list[int]
    member: Member | None = None

    async def log_in(self, register: bool) -> list[str]:
        """Connect to the first node that serves us (the others next); what came after login."""
        deadline = time.monotonic() + COMEBACK_SECONDS
        while True:
            for port in list(self.ports):
                with contextlib.suppress(OSError, HungUp, Unexpected, TimeoutError):
                    return await self._log_in_at(port, register)
            if time.monotonic() > deadline:
                raise HungUp(f"{self.name} could not log in again on {self.ports}")
            await asyncio.sleep(0.2)

    async def _log_in_at(self, port: int, register: bool) -> list[str]:
        member = Member(await Wire.open(port), self.name, "lobby")
        try:
            if register:
                await member.ask(f"REGISTER:{self.name}:{PASSWORD}", "REGISTER:")
            answer = await member.ask(f"LOGIN:{self.name}:{PASSWORD}", "LOGIN:")
            if answer != "LOGIN:ACKSTATUS:0":
                raise Unexpected(f"{self.name} could not log in: {answer!r}")
            news = await news_after_login(member)
        except BaseException:
            member.line.close()
            raise
        self.member = member
        self.ports.sort(key=lambda known: known != port)  # the node we are on, first
        return news

    async def come_back(self, tally: ChaosTally) -> list[str]:
        """Hang up and log in again, another node first; what came after the login."""
        dropped = time.monotonic()
        self.drop()
        news = await self.log_in(register=False)
        tally.comebacks.append(time.monotonic() - dropped)
        return news

    def drop(self) -> None:
        """Hang up (the node went, or the room's set-up broke); the next login tries another."""
        if self.member is not None:
            self.member.line.close()
            self.member = None
        self.ports.append(self.ports.pop(0))  # "the other node" first

    @property
    def on(self) -> Member:
        """The connection (only while logged in)."""
        assert self.member is not None, "a seat plays only once logged in"
        return self.member


@dataclass(frozen=True)
class Pace:
    """How the players play: the pause before each move, and until when games begin."""

    think: float
    deadline: float


async def chaos_room(number: int, ports: Sequence[int], pace: Pace, tally: ChaosTally) -> None:
    """Room ``number``'s two players, games back to back until the deadline, each to its end."""
    red = Seat(f"cr{number}", [ports[number % 2], ports[(number + 1) % 2]])
    yellow = Seat(f"cy{number}", [ports[(number + 1) % 2], ports[number % 2]])
    for seat in (red, yellow):
        await seat.log_in(register=True)
    attempt = 0
    try:
        while time.monotonic() < pace.deadline:
            attempt += 1
            begun = await set_up(red, yellow, f"c{number}g{attempt}", tally)
            if begun is not None:
                game, news = begun
                await asyncio.gather(
                    play(red, Player.RED, game, news[0], pace, tally),
                    play(yellow, Player.YELLOW, game, news[1], pace, tally),
                )
    finally:
        for seat in (red, yellow):
            seat.drop()


async def set_up(
    red: Seat, yellow: Seat, room: str, tally: ChaosTally
) -> tuple[GameSeen, list[list[str]]] | None:
    """Red creates ``room``, yellow joins, both see BEGIN; None if a node went meanwhile.

    After a drop both players log in again: if the game had begun they are back in it
    (REJOIN: what each was told comes with the game), else the next attempt starts afresh.
    """
    news: list[list[str]] = [[], []]
    try:
        await red.on.ask(":".join(["CREATE", room, *wire.game_fields(GAME)]), "CREATE:")
        if await yellow.on.ask(f"JOIN:{room}:PLAYER", "JOIN:") != "JOIN:ACKSTATUS:0":
            raise HungUp(f"{room}: yellow could not join")
        for seat in (red, yellow):
            await seat.on.until("BEGIN:")
    except (HungUp, OSError, TimeoutError):
        news = [await seat.come_back(tally) for seat in (red, yellow)]
        if not any(told[:1] == [f"REJOIN:{room}"] for told in news):
            return None
    game = GameSeen(room, time.monotonic())
    tally.games.append(game)
    return game, news


def discs(board: str) -> int:
    """How many moves made ``board`` (7 × 6 classic: a disc a move)."""
    return sum(cell != "0" for cell in board)


def position(board: str) -> GameState:
    """The position ``board`` shows, with its player to move (red moves first)."""
    turn = Player.RED if discs(board) % 2 == 0 else Player.YELLOW
    return state_from_cells(GAME, board, turn)


async def play(  # noqa: PLR0917 (one player's whole setting)
    seat: Seat,
    colour: Player,
    game: GameSeen,
    news: list[str],
    pace: Pace,
    tally: ChaosTally,
) -> None:
    """Play ``colour`` from the boards the server sends until GAMEEND; come back after drops.

    ``news``: REJOIN, INPROGRESS and the board when the game was rejoined before it is played.
    """
    rng = random.Random(seat.name)
    state = GameState.new(*GAME)
    if news:
        state = resumed(news, state, game)
    waiting = False  # our move is sent, its board has not come
    while True:
        try:
            if state.turn is colour and not waiting:
                await asyncio.sleep(pace.think)
                move = rng.choice(state.legal_moves())
                await seat.on.send(f"{move.kind.name}:{move.column + 1}")
                waiting = True
            message = await next_in_game(seat)
        except (HungUp, OSError):
            news = await seat.come_back(tally)
            if news[:1] != [f"REJOIN:{game.room}"]:
                await wait_for_the_end(game, tally, seat.name)
                return
            state, waiting = resumed(news, state, game), False
            continue
        except TimeoutError:
            tally.problems.append(f"{seat.name} in {game.room}: no word in {ANSWER_SECONDS:g} s")
            return
        fields = message.split(":")
        if fields[0] == "GAMEEND":
            game.saw(state, fields[1])
            game.ended(message)
            return
        if fields[0] == "BOARDSTATUS":
            state = game.saw(state, fields[1])
        else:
            tally.problems.append(f"{seat.name} in {game.room}: {message[:80]!r}")
        waiting = False


async def next_in_game(seat: Seat) -> str:
    """The next message of the game (the room's news skipped)."""
    while (message := await seat.on.line.next(ANSWER_SECONDS)).startswith(NEWS):
        pass
    return message


def resumed(news: list[str], state: GameState, game: GameSeen) -> GameState:
    """Back in the game: the board REJOIN's INPROGRESS came with (the move missed, noted)."""
    if len(news) < 3 or not news[1].startswith("INPROGRESS:"):
        raise Unexpected(f"REJOIN without INPROGRESS and the board: {news!r}")
    fields = news[2].split(":")
    if fields[0] != "BOARDSTATUS":
        raise Unexpected(f"REJOIN's board: {news[2][:80]!r}")
    return game.saw(state, fields[1])


async def wait_for_the_end(game: GameSeen, tally: ChaosTally, who: str) -> None:
    """Back, but not in the game: it ended while we were away (the other player saw how)."""
    try:
        await asyncio.wait_for(game.over.wait(), ANSWER_SECONDS)
    except TimeoutError:
        tally.problems.append(f"{who}: {game.room} is not ours after coming back, nor ended")
        game.ended("")


def moves_of(game: GameSeen) -> list[str]:
    """The moves in ply order (a gap is left as '?')."""
    return [game.moves.get(ply, "?") for ply in range(max(game.moves, default=-1) + 1)]


@dataclass
class Verdict:
    """What the database says about the games the players saw."""

    games: int
    in_progress_at_kill: int
    lost: list[str]
    comebacks: int  # logins again after a drop
    slowest_comeback: float  # seconds from the drop to the login again

    def line(self) -> str:
        """The run's verdict line."""
        head = f"chaos: {self.games} games, {self.in_progress_at_kill} in progress at the kill"
        if not self.lost:
            return f"{head}, 0 lost — no game lost"
        return f"{head}, {len(self.lost)} lost: " + "; ".join(self.lost[:10])


def judge(database: str, tally: ChaosTally, killed_at: float) -> Verdict:
    """Each game seen against PostgreSQL's games and moves; the games lost (and why)."""
    with psycopg.connect(database) as connection:
        rows = connection.execute("SELECT id, room, winner, reason FROM games").fetchall()
        stored: dict[int, list[str]] = {}
        for game_id, move in connection.execute("SELECT game, move FROM moves ORDER BY game, ply"):
            stored.setdefault(game_id, []).append(move)
    by_room = {room: (game_id, winner, reason) for game_id, room, winner, reason in rows}
    lost = [f"{problem}" for problem in tally.problems]
    for game in tally.games:
        lost += [f"{game.room}: {why}" for why in what_went_wrong(game, by_room, stored)]
    unseen = set(by_room) - {game.room for game in tally.games}
    lost += [f"{room}: stored, never seen by its players" for room in sorted(unseen)]
    at_kill = sum(1 for game in tally.games if game.began < killed_at < (game.ended_at or 1e18))
    slowest = max(tally.comebacks, default=0.0)
    return Verdict(len(tally.games), at_kill, lost, len(tally.comebacks), slowest)


def what_went_wrong(
    game: GameSeen,
    by_room: dict[str, tuple[int, str | None, str | None]],
    stored: dict[int, list[str]],
) -> list[str]:
    """Why ``game`` counts as lost (nothing: it is kept as its players saw it)."""
    if game.room not in by_room:
        return ["began, not stored"]
    game_id, winner, reason = by_room[game.room]
    problems = list(game.conflicts)
    if reason not in ("four", "full"):
        problems.append(f"ended by {reason}")
    fields = game.end.split(":")
    if not game.end or (fields[2] == "0" and fields[3] != winner):
        problems.append(f"seen end {game.end[-30:]!r}, stored winner {winner!r}")
    if moves_of(game) != stored.get(game_id, []):
        problems.append(f"moves seen {moves_of(game)} != stored {stored.get(game_id, [])}")
    return problems
