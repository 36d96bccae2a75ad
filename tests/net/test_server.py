"""The server against well-behaved and hostile clients, over real sockets."""

from __future__ import annotations

import asyncio
import logging

import pytest

from c4tui.engine import Rules
from c4tui.server.core import C4Server, ServerConfig
from tests.net.conftest import IDLE_TIMEOUT
from tests.net.raw_client import RawClient, play_whole_game


async def test_the_spec_example_opening(server: C4Server) -> None:
    client = await RawClient.connect(server.port)
    await client.send("I32CFSP_HELLO boo")
    assert await client.line() == "WELCOME boo"
    await client.send("AI_GAME")
    assert await client.line() == "READY"
    await client.send("DROP 3")
    assert await client.line() == "OKAY"
    assert (await client.line()).split(" ")[0] in ("DROP", "POP")
    assert await client.line() == "READY"
    await client.send("DROP 8")
    assert await client.line() == "INVALID"
    assert await client.line() == "READY"
    await client.close()


async def test_a_column_of_any_length_is_an_invalid_move_not_a_protocol_error(
    server: C4Server,
) -> None:
    client = await RawClient.connect(server.port)
    await client.send("I32CFSP_HELLO boo")
    assert await client.line() == "WELCOME boo"
    await client.send("AI_GAME")
    assert await client.line() == "READY"
    for column in ("1234567890123456789", "-" + "9" * 5000, "0"):
        await client.send(f"DROP {column}")
        assert await client.line() == "INVALID"
        assert await client.line() == "READY"
    await client.close()


@pytest.mark.parametrize(
    ("columns", "rows", "rules"),
    [(7, 6, Rules.POPOUT), (4, 4, Rules.CLASSIC), (20, 20, Rules.CLASSIC), (9, 5, Rules.POPOUT)],
)
async def test_whole_games_at_any_size(
    server: C4Server, columns: int, rows: int, rules: Rules
) -> None:
    result = await play_whole_game(server.port, columns=columns, rows=rows, rules=rules)
    assert result in ("WINNER_RED", "WINNER_YELLOW", "DRAW")


async def test_a_bare_lf_is_accepted(server: C4Server) -> None:
    client = await RawClient.connect(server.port)
    await client.send(b"I32CFSP_HELLO lf\n")
    assert await client.line() == "WELCOME lf"
    await client.close()


async def expect_error_and_close(client: RawClient) -> None:
    assert await client.line() == "ERROR"
    assert await client.closed()
    await client.close()


async def bad_hello(port: int) -> None:
    client = await RawClient.connect(port)
    await client.send("HELLO there")
    await expect_error_and_close(client)


async def username_with_a_space(port: int) -> None:
    client = await RawClient.connect(port)
    await client.send("I32CFSP_HELLO two words")
    await expect_error_and_close(client)


async def unknown_command(port: int) -> None:
    client = await RawClient.connect(port)
    await client.send("I32CFSP_HELLO ok")
    assert await client.line() == "WELCOME ok"
    await client.send("AI_GAME")
    assert await client.line() == "READY"
    await client.send("JUMP 3")
    await expect_error_and_close(client)


async def column_that_is_not_a_number(port: int) -> None:
    client = await RawClient.connect(port)
    await client.send("I32CFSP_HELLO ok")
    await client.line()
    await client.send("AI_GAME 30 4")  # out of range: not a game this protocol allows
    await expect_error_and_close(client)


async def line_over_8192_bytes(port: int) -> None:
    client = await RawClient.connect(port)
    await client.send(b"I32CFSP_HELLO " + b"x" * 9000 + b"\r\n")
    await expect_error_and_close(client)


async def silent_past_the_idle_timeout(port: int) -> None:
    client = await RawClient.connect(port)
    await client.send("I32CFSP_HELLO sleepy")
    assert await client.line() == "WELCOME sleepy"
    began = asyncio.get_running_loop().time()
    assert await client.closed()
    waited = asyncio.get_running_loop().time() - began
    assert IDLE_TIMEOUT * 0.8 <= waited < IDLE_TIMEOUT + 5
    await client.close()


async def abrupt_disconnect(port: int) -> None:
    client = await RawClient.connect(port)
    await client.send("I32CFSP_HELLO gone")
    await client.line()
    await client.send("AI_GAME")
    await client.line()
    await client.send(b"DROP")  # half a line, then vanish
    client.writer.transport.abort()


async def binary_garbage(port: int) -> None:
    client = await RawClient.connect(port)
    await client.send(b"\xff\xfe\x00garbage\r\n")
    await expect_error_and_close(client)


HOSTILE = [
    bad_hello,
    username_with_a_space,
    unknown_command,
    column_that_is_not_a_number,
    line_over_8192_bytes,
    silent_past_the_idle_timeout,
    abrupt_disconnect,
    binary_garbage,
]


async def test_hostile_clients_are_dropped_while_another_game_goes_on(
    server: C4Server, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="c4tui.server")
    # A long game (20 x 20, a pause between moves) that outlives every hostile client.
    # The steady game pauses 0.15 s before each move, so it cannot end (four discs
    # at least) before the quick attacks are over.
    steady = asyncio.create_task(
        play_whole_game(
            server.port, columns=20, rows=20, rules=Rules.CLASSIC, pause=0.15, spread=True
        )
    )
    await asyncio.sleep(0.05)
    sleepy = asyncio.create_task(silent_past_the_idle_timeout(server.port))
    await asyncio.gather(
        *(attack(server.port) for attack in HOSTILE if attack is not silent_past_the_idle_timeout)
    )
    assert not steady.done(), "the steady game should still be going on"
    await asyncio.wait_for(sleepy, 30)
    assert await asyncio.wait_for(steady, 60) in ("WINNER_RED", "WINNER_YELLOW", "DRAW")
    # Each of these reasons must be logged (an abrupt reset may read as either of two).
    expected = [
        ("protocol error",),
        ("idle for",),
        ("inside a line", "network error", "client hung up"),
        ("game over",),
    ]

    def logged(reasons: tuple[str, ...]) -> bool:
        closed = [r.getMessage() for r in caplog.records if "closed" in r.getMessage()]
        return any(reason in line for line in closed for reason in reasons)

    for _ in range(100):  # the server logs a close just after the socket is shut
        if all(logged(reasons) for reasons in expected):
            break
        await asyncio.sleep(0.05)
    for reasons in expected:
        assert logged(reasons), reasons


async def test_too_many_connections_are_refused_politely(server: C4Server) -> None:
    clients = [await RawClient.connect(server.port) for _ in range(50)]
    await asyncio.sleep(0.2)
    extra = await RawClient.connect(server.port)
    await expect_error_and_close(extra)
    for client in clients:
        await client.close()
    assert server.peak_connections >= 50


@pytest.mark.parametrize("level", ["easy", "hard"])
async def test_the_server_plays_with_the_level_it_was_given(level: str) -> None:
    c4_server = C4Server(ServerConfig(port=0, ai=level))
    await c4_server.start()
    try:
        result = await play_whole_game(c4_server.port, columns=5, rows=4, rules=Rules.CLASSIC)
    finally:
        await c4_server.stop()
    assert result in ("WINNER_RED", "WINNER_YELLOW", "DRAW")
    if level == "hard":
        # Red plays the first legal move every time: Hard never loses to that.
        assert result in ("WINNER_YELLOW", "DRAW")
