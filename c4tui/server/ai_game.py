"""Serving one client a game against the server's AI, in whichever protocol it speaks.

The game itself runs in a MatchDriver (the client's seat submits, the AI's seat
thinks in the search pool); this loop only turns the driver's events into the
protocol's messages and the client's messages into submissions, through the
protocol's pure session (``c4tui.protocols.common.AIGameSession``).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field

from c4tui.ai.levels import ai_level
from c4tui.engine import GameState, Rules
from c4tui.match.backends import Backend, ComputerBackend, PersonBackend, ProgramBackend
from c4tui.match.backends.program import DEFAULT_MOVE_SECONDS
from c4tui.match.driver import MatchDriver
from c4tui.match.events import (
    MatchEvent,
    MatchFailed,
    MovePlayed,
    MoveRefused,
    SeatLeft,
    TurnStarted,
)
from c4tui.match.pool import SearchPool
from c4tui.net.framing import MessageStream
from c4tui.outside.program import Limits
from c4tui.outside.spec import chooser_for
from c4tui.protocols.common import AIGameSession, Reply
from c4tui.server.context import Client, Handler
from c4tui.server.limits import DEFAULT_MAX_PROGRAMS
from c4tui.server.program_ai import (
    BUSY,
    SERVER_AI_LIMITS,
    ProgramSlots,
    announce_program,
    is_program,
)


@dataclass
class ServerAI:
    """The server's AI: a level or an outside program, and where it thinks.

    Attributes:
        level: the AI (``c4tui serve --ai``): a level's name, ``engine:CMD`` or
            ``kaggle:FILE.py``.
        pool: the worker processes every client's searches share fairly (a level's).
        seconds: a program's time for each move.
        max_programs: how many of a program's processes may run at once.
        limits: a program's bounds and sandbox.
    """

    level: str
    pool: SearchPool
    seconds: float = DEFAULT_MOVE_SECONDS
    max_programs: int = DEFAULT_MAX_PROGRAMS
    limits: Limits = SERVER_AI_LIMITS
    slots: ProgramSlots = field(init=False)

    def __post_init__(self) -> None:
        self.slots = ProgramSlots(self.max_programs)

    @property
    def searches(self) -> bool:
        """True when the AI searches in the pool (a level above random: warm it up)."""
        return not is_program(self.level) and self.level != "random"

    async def check(self) -> None:
        """A program is tried once and logged (ProgramCheckFailed); a level needs nothing."""
        if is_program(self.level):
            await announce_program(self.level, self.seconds, self.slots, self.limits)

    def refusal(self, columns: int, rows: int, rules: Rules) -> str | None:
        """Why a game of this kind cannot be served now (a Kaggle agent: classic only)."""
        if not is_program(self.level):
            return None
        try:
            return chooser_for(self.level, limits=self.limits).refusal(columns, rows, rules)
        except ValueError as error:  # its Kaggle file gone since the start
            return str(error)

    def opponent(self, client: Client) -> Backend | None:
        """The AI for ``client``'s game; None when every program process is taken.

        A level's searches queue as this client's; a program gets a process of its own
        (its slot given back by ``release``).
        """
        if not is_program(self.level):
            return ComputerBackend(ai_level(self.level), pool=self.pool, owner=client.number)
        if not self.slots.take():
            return None
        chooser = chooser_for(self.level, limits=self.limits)
        return ProgramBackend(chooser, move_seconds=self.seconds)

    def release(self, opponent: Backend) -> None:
        """``opponent``'s game is over and its process ended: a program's slot is free."""
        if isinstance(opponent, ProgramBackend):
            self.slots.give_back()


def ai_game_handler(new_session: Callable[[], AIGameSession], ai: ServerAI) -> Handler:
    """The server's handler for a protocol whose conversations ``new_session`` starts."""

    async def serve(stream: MessageStream, client: Client) -> str:
        return await serve_ai_game(stream, client, new_session(), ai)

    return serve


class Inbox:
    """The driver's events for one conversation, in order: an asyncio.Queue for one reader, lighter.

    Refusals are left out: ``_client_turn`` answers them as the driver refuses.
    """

    def __init__(self) -> None:
        self._events: list[MatchEvent] = []  # a few at a time
        self._waiter: asyncio.Future[None] | None = None

    def put(self, event: MatchEvent) -> None:
        """Keep ``event`` for ``get`` (a driver listener)."""
        if isinstance(event, MoveRefused):
            return
        self._events.append(event)
        if self._waiter is not None and not self._waiter.done():
            self._waiter.set_result(None)

    def empty(self) -> bool:
        """True when no event is waiting."""
        return not self._events

    def get_nowait(self) -> MatchEvent:
        """The oldest waiting event (there must be one)."""
        return self._events.pop(0)

    async def get(self) -> MatchEvent:
        """The oldest event, once there is one. Cancelling it loses nothing."""
        while not self._events:
            self._waiter = asyncio.get_running_loop().create_future()
            try:
                await self._waiter
            finally:
                self._waiter = None
        return self._events.pop(0)


async def serve_ai_game(
    stream: MessageStream, client: Client, session: AIGameSession, ai: ServerAI
) -> str:
    """Run the conversation to its end; returns why it ended (for the log).

    Raises ConnectionClosed, TimeoutError, WriteTimeout or ProtocolError (from the
    transport) for the caller to log; protocol mistakes in well-formed messages
    are answered by the session (its error message, and a close) here.
    """
    while True:
        reply = session.receive(await stream.read(client.idle_timeout))
        if session.game is not None:
            break  # its answer (READY, START, the first BOARD) waits for the AI to be there
        if await send_reply(stream, reply):
            return reply.reason
    refusal = ai.refusal(*session.game)
    opponent = ai.opponent(client) if refusal is None else None
    if opponent is None:
        return await _send_and_close(stream, session.cannot_serve(refusal or BUSY))
    try:
        if await send_reply(stream, reply):
            return reply.reason
        return await _play_against(stream, client, session, opponent, ai.pool)
    finally:
        ai.release(opponent)


async def _play_against(
    stream: MessageStream,
    client: Client,
    session: AIGameSession,
    opponent: Backend,
    pool: SearchPool,
) -> str:
    """The game itself, ``opponent`` the AI; ended (its search, its program) however it ends."""
    assert session.game is not None
    seats = {
        session.client: PersonBackend(session.username or "client"),
        session.client.other: opponent,
    }
    driver = MatchDriver(GameState.new(*session.game), seats, pool=pool)
    events = Inbox()
    driver.subscribe(events.put)
    driver.start()
    try:
        return await _play(stream, session, driver, events, client)
    finally:
        await driver.close()  # a client gone mid-thought cancels the AI's search, ends a program


async def _play(
    stream: MessageStream,
    session: AIGameSession,
    driver: MatchDriver,
    events: Inbox,
    client: Client,
) -> str:
    """Answer the driver's events until the game or the connection ends."""
    pending: MatchEvent | None = None
    while True:
        event, pending = pending or await events.get(), None
        if isinstance(event, TurnStarted) and event.submits:
            reason = await _client_turn(stream, session, driver, client)
        elif isinstance(event, TurnStarted):
            if not events.empty():  # a quick AI has moved already: no need to watch
                pending = events.get_nowait()
                continue
            reason, pending = await _while_the_ai_thinks(stream, events)
        elif isinstance(event, MovePlayed):
            reason = await _announce(stream, session, event)
            if not reason and event.after.is_over:
                reason = await _answer_after_the_end(stream, session, client)
        elif isinstance(event, SeatLeft):  # the AI's program failed: the client wins
            reason = await _send_and_close(stream, session.ai_failed(driver.state, event.reason))
        elif isinstance(event, MatchFailed):
            raise RuntimeError(event.problem)
        else:
            continue
        if reason:
            return reason


async def _client_turn(
    stream: MessageStream, session: AIGameSession, driver: MatchDriver, client: Client
) -> str:
    """Read the client's messages until a move is played ("") or the conversation ends.

    Messages that are not moves (CFSP's questions about the AI's move) are answered.
    """
    while True:
        move = session.read_move(await stream.read(client.idle_timeout))
        if isinstance(move, Reply):
            if await send_reply(stream, move):
                return move.reason
            continue
        if driver.submit(move) is None:
            return ""
        refusal = session.refused()
        if await send_reply(stream, refusal):
            return refusal.reason


async def _answer_after_the_end(
    stream: MessageStream, session: AIGameSession, client: Client
) -> str:
    """The game is over but the protocol goes on (CFSP's client asks for the last move)."""
    while True:
        reply = session.read_move(await stream.read(client.idle_timeout))
        if isinstance(reply, Reply) and await send_reply(stream, reply):
            return reply.reason
        if not isinstance(reply, Reply):
            return "protocol error: a move after the end of the game"


async def _while_the_ai_thinks(
    stream: MessageStream, events: Inbox
) -> tuple[str, MatchEvent | None]:
    """Wait for the driver's next event, but notice a client that hangs up meanwhile.

    Returns why the conversation ended ("" if it goes on) and the event.
    """
    hangup = asyncio.create_task(stream.connection.wait_for_hangup())
    news = asyncio.create_task(events.get())
    try:
        await asyncio.wait({hangup, news}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for task in (hangup, news):
            task.cancel()
        await asyncio.wait({hangup, news})  # the watch must stop reading before anyone else
    if hangup.done() and not hangup.cancelled():
        hangup.result()  # raises ProtocolError if it sent too much meanwhile
        return "client hung up while the AI was thinking", None
    return "", news.result()


async def _announce(stream: MessageStream, session: AIGameSession, event: MovePlayed) -> str:
    """Tell the client about a move: its own acknowledged, the AI's announced."""
    if event.player is session.client:
        reply = session.client_moved(event.after)
    else:
        reply = session.ai_moved(event.move, event.after)
    await send_reply(stream, reply)
    return reply.reason if reply.close else ""


async def _send_and_close(stream: MessageStream, reply: Reply) -> str:
    """Send ``reply``, which ends the conversation: why it ended."""
    await send_reply(stream, reply)
    return reply.reason


async def send_reply(stream: MessageStream, reply: Reply) -> bool:
    """Send each message of ``reply`` in its own write; True when the conversation ends."""
    await stream.send_all(reply.messages)
    return reply.close
