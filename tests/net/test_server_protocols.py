"""CFSP and C4N served by c4tui serve, beside I32CFSP, on one port (real sockets)."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator

import pytest

from c4tui.engine import GameState, Move, Rules
from c4tui.protocols import c4n, cfsp
from c4tui.server.core import C4Server, ServerConfig
from tests.net.raw_client import (
    RawC4NClient,
    RawClient,
    play_whole_c4n_game,
    play_whole_game,
)


@contextlib.asynccontextmanager
async def running(**settings: object) -> AsyncIterator[C4Server]:
    server = C4Server(ServerConfig(port=0, **settings))  # type: ignore[arg-type]
    await server.start()
    try:
        yield server
    finally:
        await server.stop()


# ----- CFSP --------------------------------------------------------------------------


async def play_whole_cfsp_game(port: int, columns: int, rows: int, pause: float = 0.0) -> str:
    """Spread moves over the board to the end; who ended it ("client" or "server")."""
    client = await RawClient.connect(port)
    await client.send(f"Game {rows} {columns}")
    assert await client.line() == "START"
    state = GameState.new(columns, rows, Rules.POPOUT)
    turn = 0
    while True:
        await asyncio.sleep(pause)
        legal = state.legal_moves()
        move = legal[turn % len(legal)]
        turn += 1
        await client.send(cfsp.format_user_move(move))
        assert await client.line() == "RECEIVED"
        state = state.play(move)
        if state.is_over:
            assert await client.closed()
            return "client"
        await client.send("MOVE")
        kind = await client.line()
        await client.send("COLUMN")
        column = await client.line()
        ai = Move(cfsp.parse_user_move(f"USER {kind} {column}").kind, int(column) - 1)
        assert state.is_legal(ai), (kind, column)
        state = state.play(ai)
        if state.is_over:
            assert await client.closed()
            return "server"


@pytest.mark.parametrize(("columns", "rows"), [(7, 6), (4, 4), (9, 5), (20, 20)])
async def test_cfsp_whole_games_at_several_sizes(server: C4Server, columns: int, rows: int) -> None:
    assert await play_whole_cfsp_game(server.port, columns, rows) in ("client", "server")


async def test_cfsp_questions_can_be_repeated_and_a_bad_move_closes(server: C4Server) -> None:
    client = await RawClient.connect(server.port)
    await client.send("GAME 6 7")
    assert await client.line() == "START"
    await client.send("MOVE")  # before any AI move: nothing to tell
    assert await client.line() == "ERROR"
    assert await client.closed()
    client = await RawClient.connect(server.port)
    await client.send("GAME 6 7")
    await client.line()
    await client.send("USER 0 4")
    assert await client.line() == "RECEIVED"
    answers = []
    for question in ["MOVE", "COLUMN", "MOVE", "COLUMN"]:
        await client.send(question)
        answers.append(await client.line())
    assert answers[:2] == answers[2:] and answers[0] in ("0", "1")
    await client.send("USER 1 1")  # pop from a column red has no disc in (or none at all)
    assert await client.line() == "ERROR"
    assert await client.closed()


@pytest.mark.parametrize(
    "lines",
    [
        ["GAME 3 7"],
        ["GAME 6 7", "USER 0 99"],
        ["GAME 6 7", "USER 2 1"],
        ["GAME 6 7", "DROP 3"],
        ["GAME 6 7", "COLUMN"],
        ["GAME 6 7", "USER 0 1", "MOVE", "ROW"],
        ["GAME 6 7", "x" * 9000],
    ],
)
async def test_cfsp_malformed_input_is_error_and_close(server: C4Server, lines: list[str]) -> None:
    client = await RawClient.connect(server.port)
    replies = []
    for line in lines:
        await client.send(line)
        replies.append(await client.line())
    assert replies[-1] == "ERROR"
    assert await client.closed()


# ----- C4N ---------------------------------------------------------------------------


async def test_c4n_whole_game_one_message_per_recv(server: C4Server) -> None:
    result, client = await play_whole_c4n_game(server.port)
    assert result in ("1", "2", "-1")
    # Each message was a write of its own, RESULT and the final BOARD too.
    assert all(recv.count(b"C4N ") == 1 for recv in client.recvs), client.recvs


async def c4n_started(port: int) -> RawC4NClient:
    client = await RawC4NClient.connect(port)
    await client.send("C4N 1.0 START")
    assert (await client.message()).startswith("C4N 1.0 BOARD\n6 7 0 0")
    return client


async def test_c4n_bad_columns_are_error_2_and_another_try(server: C4Server) -> None:
    client = await c4n_started(server.port)
    # Any whole number is a column the rules refuse, however long (ten digits were garbage).
    for bad in ["-1", "7", "100", "-999999999", "9999999999", "-" + "9" * 5000]:
        await client.send(f"C4N 1.0 MOVE\n{bad}")
        assert await client.message() == "C4N 1.0 ERROR\n2"
    await client.send("C4N 1.0 MOVE\n3")
    assert (await client.message()).startswith("C4N 1.0 BOARD\n6 7 ")
    for _ in range(5):  # fill column 4 (the AI may have filled it already)
        await client.send("C4N 1.0 MOVE\n3")
        answer = await client.message()
        if answer == "C4N 1.0 ERROR\n2":
            break
        if answer.startswith("C4N 1.0 RESULT"):
            return
    await client.send("C4N 1.0 STOP")
    assert await client.closed()


@pytest.mark.parametrize(
    "messages",
    [
        [b"C4N 1.0 BOARD\n6 7"],
        [b"C4N 9.9 START"],
        [b"C4N 1.0 START", b"C4N 1.0 MOVE\nthree"],
        [b"C4N 1.0 START", b"C4N 1.0 JUMP"],
        [b"C4N 1.0 START", b"\xff\xfe garbage"],
        [b"C4N 1.0 START", b"C4N 1.0 MOVE\n" + b"9" * 9000],
        [b"C4N 1.0 START", b"C4N 1.0 START"],
    ],
)
async def test_c4n_garbage_is_error_1_and_close(server: C4Server, messages: list[bytes]) -> None:
    client = await RawC4NClient.connect(server.port)
    answers = []
    for message in messages:
        await client.send(message)
        answers.append(await client.message())
    assert answers[-1] == "C4N 1.0 ERROR\n1"
    assert await client.closed()


async def test_c4n_stop_ends_the_game(server: C4Server) -> None:
    client = await c4n_started(server.port)
    await client.send("C4N 1.0 STOP")
    assert await client.closed()


async def test_c4n_a_message_split_across_packets_is_put_together(server: C4Server) -> None:
    client = await RawC4NClient.connect(server.port)
    for part in [b"C4N 1.", b"0 STA", b"RT"]:
        await client.send(part)
        await asyncio.sleep(0.05)
    assert (await client.message()).startswith("C4N 1.0 BOARD")
    await client.send(b"C4N 1.0 MOVE\n")
    await asyncio.sleep(0.05)
    await client.send(b"3")
    assert (await client.message()).startswith("C4N 1.0 BOARD")


async def test_full_server_refuses_c4n_with_error_3_and_cfsp_with_error() -> None:
    async with running(max_connections=1) as server:
        holder = await c4n_started(server.port)
        late = await RawC4NClient.connect(server.port)
        await late.send("C4N 1.0 START")
        assert await late.message() == c4n.ERROR_SERVER_FULL
        assert await late.closed()
        late_cfsp = await RawClient.connect(server.port)
        await late_cfsp.send("GAME 6 7")
        assert await late_cfsp.line() == "ERROR"
        assert await late_cfsp.closed()
        await holder.close()


# ----- all at once -------------------------------------------------------------------


async def hostile(port: int) -> None:
    """Garbage in every protocol's clothes, and a flood of bytes."""
    for opening in [
        b"C4N 1.0 \x00\x01",
        b"GAME -1 -1\r\n",
        b"I32CFSP_HELLO \r\n",
        b"GET / HTTP/1.0\r\n",
    ]:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(opening + b"A" * 20_000)
        with contextlib.suppress(OSError):
            await writer.drain()
            await asyncio.wait_for(reader.read(), 10)
        writer.close()


async def test_three_protocols_at_once_on_one_port_beside_a_hostile_client() -> None:
    async with running(ai="easy", max_connections=20) as server:
        results = await asyncio.wait_for(
            asyncio.gather(
                play_whole_game(server.port, columns=7, rows=6, pause=0.02),
                play_whole_cfsp_game(server.port, 7, 6, pause=0.02),
                play_whole_c4n_game(server.port, pause=0.02),
                hostile(server.port),
            ),
            60,
        )
        assert results[0] in ("WINNER_RED", "WINNER_YELLOW", "DRAW")
        assert results[1] in ("client", "server")
        assert results[2][0] in ("1", "2", "-1")
        assert server.connections == 0 or await_until_empty(server)


def await_until_empty(server: C4Server) -> bool:
    return server.connections <= 1  # the last close may still be in progress
