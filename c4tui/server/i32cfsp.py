"""Serving one I32CFSP client: the greeting, then a match between the client and the AI.

The game itself runs in a MatchDriver (the client's seat submits, the AI's seat
thinks in the search pool); this module only turns the driver's events into
I32CFSP lines and the client's lines into submissions.
"""

from __future__ import annotations

import asyncio

from c4tui.engine import GameState, Player
from c4tui.match import MatchDriver, PersonBackend
from c4tui.match.events import MatchEvent, MatchFailed, MovePlayed, MoveRefused, TurnStarted
from c4tui.net.framing import MessageStream
from c4tui.protocols.i32cfsp import Reply, ServerPhase, ServerSession
from c4tui.server.context import ClientContext


async def serve_i32cfsp(stream: MessageStream, client: ClientContext) -> str:
    """Run the conversation to its end; returns why it ended (for the log).

    Raises ConnectionClosed, TimeoutError, WriteTimeout or ProtocolError (from the
    transport) for the caller to log; protocol mistakes in well-formed lines are
    answered with ERROR here.
    """
    session = ServerSession()
    while session.phase is not ServerPhase.PLAYING:
        reply = session.receive(await stream.read(client.idle_timeout))
        if await send_reply(stream, reply):
            return reply.reason
    assert session.game is not None
    seats = {Player.RED: PersonBackend(session.username), Player.YELLOW: client.computer()}
    driver = MatchDriver(GameState.new(*session.game), seats, pool=client.pool)
    events = driver.listen(ignore=(MoveRefused,))  # refusals are answered in _client_turn
    driver.start()
    try:
        return await _play(stream, session, driver, events, client)
    finally:
        await driver.close()  # a client gone mid-thought cancels the AI's search


async def _play(
    stream: MessageStream,
    session: ServerSession,
    driver: MatchDriver,
    events: asyncio.Queue[MatchEvent],
    client: ClientContext,
) -> str:
    """Answer the driver's events until the game or the connection ends."""
    pending: MatchEvent | None = None
    while True:
        event, pending = pending or await events.get(), None
        if isinstance(event, TurnStarted) and event.submits:
            reason = await _client_turn(stream, session, driver, client)
        elif isinstance(event, TurnStarted):
            reason, pending = await _while_the_ai_thinks(stream, events)
        elif isinstance(event, MovePlayed):
            reason = await _announce(stream, session, event)
        elif isinstance(event, MatchFailed):
            raise RuntimeError(event.problem)
        else:
            continue
        if reason:
            return reason


async def _client_turn(
    stream: MessageStream, session: ServerSession, driver: MatchDriver, client: ClientContext
) -> str:
    """Read the client's move lines until one is played ("") or the conversation ends."""
    while True:
        move = session.read_move(await stream.read(client.idle_timeout))
        if isinstance(move, Reply):
            await send_reply(stream, move)
            return move.reason
        if driver.submit(move) is None:
            return ""
        await send_reply(stream, session.refused())


async def _while_the_ai_thinks(
    stream: MessageStream, events: asyncio.Queue[MatchEvent]
) -> tuple[str, MatchEvent | None]:
    """Wait for the driver's next event, but notice a client that hangs up meanwhile.

    Returns why the conversation ended ("" if it goes on) and the event.
    """
    if not events.empty():  # a quick AI has moved already: no need to watch
        return "", events.get_nowait()
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


async def _announce(stream: MessageStream, session: ServerSession, event: MovePlayed) -> str:
    """Tell the client about a move: OKAY for its own, the move itself for the AI's."""
    if event.player is Player.RED:
        reply = session.client_moved(event.after)
    else:
        reply = session.ai_moved(event.move, event.after)
    await send_reply(stream, reply)
    return reply.reason if reply.close else ""


async def send_reply(stream: MessageStream, reply: Reply) -> bool:
    """Send each line of ``reply`` in its own write; True when the conversation ends."""
    for line in reply.lines:
        await stream.send(line)
    return reply.close


__all__ = ["serve_i32cfsp"]
