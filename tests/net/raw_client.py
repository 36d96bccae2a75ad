"""A bare-sockets I32CFSP client for tests: says exactly what it is told to."""

from __future__ import annotations

import asyncio
import contextlib

from c4tui.engine import GameState, Rules
from c4tui.protocols import i32cfsp

TIMEOUT = 10


class RawClient:
    """Lines in, lines out, over a real socket."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer

    @classmethod
    async def connect(cls, port: int) -> RawClient:
        reader, writer = await asyncio.open_connection("127.0.0.1", port, limit=2**20)
        return cls(reader, writer)

    async def send(self, text: str | bytes) -> None:
        data = text if isinstance(text, bytes) else (text + "\r\n").encode()
        self.writer.write(data)
        await self.writer.drain()

    async def line(self) -> str:
        raw = await asyncio.wait_for(self.reader.readline(), TIMEOUT)
        return raw.decode().rstrip("\r\n")

    async def closed(self) -> bool:
        """True once the server has hung up (end of stream)."""
        return await asyncio.wait_for(self.reader.read(), TIMEOUT) == b""

    async def close(self) -> None:
        self.writer.close()
        with contextlib.suppress(OSError):
            await self.writer.wait_closed()


async def play_whole_game(
    port: int,
    *,
    columns: int = 7,
    rows: int = 6,
    rules: Rules = Rules.POPOUT,
    pause: float = 0.0,
    spread: bool = False,
) -> str:
    """Play legal moves to the end; returns the server's last word.

    Each move is the first legal one, or with ``spread`` the next column along, so
    the game lasts (about 80 moves on a 20-wide board).
    """
    client = await RawClient.connect(port)
    await client.send("I32CFSP_HELLO steady")
    assert await client.line() == "WELCOME steady"
    await client.send(i32cfsp.format_ai_game(columns, rows, rules))
    assert await client.line() == "READY"
    state = GameState.new(columns, rows, rules)
    turn = 0
    while True:
        await asyncio.sleep(pause)
        legal = state.legal_moves()
        move = legal[turn % len(legal)] if spread else legal[0]
        turn += 1
        await client.send(i32cfsp.format_move(move))
        state = state.play(move)
        answer = await client.line()
        if answer != "OKAY":
            assert answer == i32cfsp.result_line(state), answer
            break
        server_move = i32cfsp.parse_move(await client.line())
        assert server_move is not None and state.is_legal(server_move)
        state = state.play(server_move)
        after = await client.line()
        if after != "READY":
            assert after == i32cfsp.result_line(state), after
            answer = after
            break
    assert await client.closed()
    await client.close()
    return answer
