"""Serving one I32CFSP client: the session's state machine, the AI, and the socket."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from c4tui.match.settings import MovePicker
from c4tui.net.lines import LineChannel
from c4tui.protocols.i32cfsp import HELLO, ServerSession


def speaks_i32cfsp(first_line: str) -> bool:
    """Whether a client's first line opens an I32CFSP conversation."""
    return first_line.split(" ", 1)[0] == HELLO


async def serve_i32cfsp(
    channel: LineChannel,
    first_line: str,
    make_ai: Callable[[], MovePicker],
    idle_timeout: float,
) -> str:
    """Run the conversation to its end; returns why it ended (for the log).

    Raises ConnectionClosed, TimeoutError or ProtocolError (from the transport)
    for the caller to log; protocol mistakes in well-formed lines are answered
    with ERROR here.
    """
    session = ServerSession()
    ai = make_ai()
    reply = session.receive(first_line)
    while True:
        for line in reply.lines:
            await channel.send(line)
        if reply.ai_to_move:
            assert session.state is not None
            move = await asyncio.to_thread(ai.choose_move, session.state)
            reply = session.ai_moved(move)
            continue
        if reply.close:
            return reply.reason
        reply = session.receive(await channel.read_line(idle_timeout))


__all__ = ["serve_i32cfsp", "speaks_i32cfsp"]
