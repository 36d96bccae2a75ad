"""What the server's game loop does with one client message, with the engine for the driver.

The protocol tests drive a server session through a game without sockets; the
AI's move is given.
"""

from __future__ import annotations

from dataclasses import dataclass

from c4tui.engine import GameState, Move
from c4tui.protocols.common import AIGameSession, Reply


@dataclass(frozen=True)
class Served:
    """What one message brought: the messages sent back, a close, the new position."""

    messages: list[str]
    close: bool
    state: GameState


def serve_one(session: AIGameSession, state: GameState, message: str, ai: Move) -> Served:
    """Feed ``message`` to ``session``; if it is a legal move, the AI answers with ``ai``."""
    move = session.read_move(message)
    if isinstance(move, Reply):
        return Served(move.messages, move.close, state)
    if not state.is_legal(move):
        refusal = session.refused()
        return Served(refusal.messages, refusal.close, state)
    state = state.play(move)
    reply = session.client_moved(state)
    if reply.close:
        return Served(reply.messages, True, state)
    state = state.play(ai)
    answer = session.ai_moved(ai, state)
    return Served(reply.messages + answer.messages, answer.close, state)
