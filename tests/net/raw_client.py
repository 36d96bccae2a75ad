"""A bare-sockets I32CFSP client for tests: says exactly what it is told to."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Self

from c4tui.engine import GameState, Player, Rules
from c4tui.protocols import c4n, i32cfsp

TIMEOUT = 10
RED = Player.RED


class RawClient:
    """Lines in, lines out, over a real socket."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer

    @classmethod
    async def connect(cls, port: int) -> Self:
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


class RawC4NClient(RawClient):
    """A C4N client as the reference ones are: one write per message, one ``recv`` per read.

    ``recvs`` keeps what each read returned, so a test can see whether two
    messages ever arrived in one.
    """

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        super().__init__(reader, writer)
        self.recvs: list[bytes] = []
        self._pending: list[str] = []

    async def send(self, text: str | bytes) -> None:
        """One message in one write, without a terminator."""
        self.writer.write(text if isinstance(text, bytes) else text.encode())
        await self.writer.drain()

    async def message(self) -> str:
        """The next message; what one read returned is split at C4N headers if it holds more."""
        while not self._pending:
            data = await asyncio.wait_for(self.reader.read(65536), TIMEOUT)
            if not data:
                raise ConnectionError("the server hung up")
            self.recvs.append(data)
            messages, rest = c4n.split_messages(data.decode())
            assert rest == "", f"an unfinished message: {rest!r}"
            self._pending.extend(messages)
        return self._pending.pop(0)


async def play_whole_c4n_game(port: int, *, pause: float = 0.0) -> tuple[str, RawC4NClient]:
    """Play the lowest legal column each turn, checking every BOARD; the RESULT and the client."""
    client = await RawC4NClient.connect(port)
    await client.send("C4N 1.0 START")
    state = GameState.new(*c4n.GAME)
    assert await client.message() == c4n.message(c4n.Kind.BOARD, c4n.format_board(state, RED))
    while True:
        await asyncio.sleep(pause)
        move = state.legal_moves()[0]
        await client.send(c4n.message(c4n.Kind.MOVE, move.column))
        state = state.play(move)
        answer = c4n.decode(await client.message())
        if answer.kind is c4n.Kind.RESULT:
            final = c4n.decode(await client.message())
            assert final.kind is c4n.Kind.BOARD
            cells = c4n.parse_board(final.payload)
            if cells != c4n.board_cells(state, RED):  # the AI's winning disc
                state = next(
                    state.play(m)
                    for m in state.legal_moves()
                    if c4n.board_cells(state.play(m), RED) == cells
                )
            outcome = c4n.outcome_of(state, RED)
            assert outcome is not None and answer.number() == outcome.value
            assert await client.closed()
            return answer.payload, client
        assert answer.kind is c4n.Kind.BOARD, answer
        cells = c4n.parse_board(answer.payload)
        state = next(
            state.play(m)
            for m in state.legal_moves()
            if c4n.board_cells(state.play(m), RED) == cells
        )
