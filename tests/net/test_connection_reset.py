"""A peer that resets the connection (closes with our bytes unread) has hung up, no more:
the clients say "the server closed the connection", never that it broke a protocol."""

from __future__ import annotations

import asyncio
import socket
import struct

import pytest

from c4tui.net.connection import Connection
from c4tui.net.errors import ConnectionClosed


async def test_a_reset_reads_as_a_hang_up() -> None:
    listener = socket.create_server(("127.0.0.1", 0))
    listener.setblocking(False)
    port = listener.getsockname()[1]
    loop = asyncio.get_running_loop()
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    theirs, _ = await loop.sock_accept(listener)
    connection = Connection(reader, writer, 5.0)
    await connection.send_line("LOGIN:ann:pw")  # left unread: the close below resets
    await asyncio.sleep(0.1)
    theirs.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    theirs.close()  # RST, not FIN
    listener.close()
    with pytest.raises(ConnectionClosed):
        await connection.read_line(timeout=10)
    writer.close()
