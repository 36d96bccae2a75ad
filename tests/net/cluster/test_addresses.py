"""A client knows a lobby's nodes: ``a,b:4445`` tries ``a``, then ``b``."""

from __future__ import annotations

import asyncio

import pytest

from c4tui.net.address import known_addresses, parse_host
from c4tui.net.connection import open_connection


def test_each_node_with_its_own_port_or_the_default() -> None:
    assert known_addresses("a,b:4445", 4444) == [("a", 4444), ("b", 4445)]
    assert known_addresses("[::1]:5,::1", 7) == [("::1", 5), ("::1", 7)]
    assert known_addresses("localhost", 1) == [("localhost", 1)]


@pytest.mark.parametrize("text", ["a,,b", "a,b:port", "a,b:70000"])
def test_a_list_that_does_not_read_is_refused_when_typed(text: str) -> None:
    with pytest.raises(ValueError, match=r"\w"):
        parse_host(text)


async def test_a_node_that_does_not_answer_is_passed_over() -> None:
    async def greet(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        writer.write(b"hello\r\n")
        await writer.drain()
        writer.close()

    server = await asyncio.start_server(greet, "127.0.0.1", 0)
    closed = await asyncio.start_server(greet, "127.0.0.1", 0)
    dead_port = closed.sockets[0].getsockname()[1]
    closed.close()
    await closed.wait_closed()
    live_port = server.sockets[0].getsockname()[1]
    async with server:
        connection = await open_connection(f"127.0.0.1:{dead_port},127.0.0.1:{live_port}", 1, 5)
        assert await connection.read_line(5) == "hello"
        await connection.close()
        with pytest.raises(OSError):  # none answers: the last one's failure
            await open_connection(f"127.0.0.1:{dead_port},127.0.0.1:{dead_port}", 1, 5)
