"""The client backend against a real server and against servers that misbehave."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

import pytest

from c4tui.engine import GameState, Move, Player, Rules
from c4tui.match.backends.network import NetworkBackend, ServerAddress
from c4tui.net.errors import NetworkError
from c4tui.server.core import C4Server

Script = Callable[[asyncio.StreamReader, asyncio.StreamWriter], Awaitable[None]]


class FakeServer:
    """A server that follows a test's script, and notes whether the client hung up."""

    def __init__(self, script: Script) -> None:
        self.script = script
        self.client_hung_up = asyncio.Event()
        self._server: asyncio.Server | None = None

    async def __aenter__(self) -> FakeServer:
        self._server = await asyncio.start_server(self._handle, "127.0.0.1", 0)
        return self

    async def __aexit__(self, *exc: object) -> None:
        assert self._server is not None
        self._server.close()

    @property
    def port(self) -> int:
        assert self._server is not None
        return self._server.sockets[0].getsockname()[1]

    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            await self.script(reader, writer)
            while await reader.read(1024):  # wait for the client to hang up
                pass
            self.client_hung_up.set()
        except (ConnectionError, asyncio.CancelledError):
            self.client_hung_up.set()
        finally:
            writer.close()


async def say(writer: asyncio.StreamWriter, *lines: str) -> None:
    for line in lines:
        writer.write(line.encode() + b"\r\n")
        await writer.drain()


async def greet(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    """The normal opening: WELCOME the hello, READY the game request."""
    hello = (await reader.readline()).decode().strip()
    await say(writer, "WELCOME " + hello.split(" ")[1])
    await reader.readline()
    await say(writer, "READY")


def backend_for(port: int, reply_timeout: float = 5.0) -> NetworkBackend:
    return NetworkBackend(
        ServerAddress("127.0.0.1", port, "tester"), connect_timeout=5, reply_timeout=reply_timeout
    )


async def play_red(backend: NetworkBackend, state: GameState, move: Move) -> GameState:
    """What the app does for the person's move: tell the backend, then ask for the reply."""
    after = state.play(move)
    await backend.move_played(state, move)
    if after.is_over:
        return after
    reply = await backend.choose_move(after)
    return after.play(reply)


async def test_whole_games_against_the_real_server(server: C4Server) -> None:
    for columns, rows, rules in [
        (7, 6, Rules.POPOUT),
        (5, 4, Rules.CLASSIC),
        (20, 20, Rules.POPOUT),
    ]:
        backend = backend_for(server.port)
        state = GameState.new(columns, rows, rules)
        await backend.start(state)
        moves = 0
        while not state.is_over:
            state = await play_red(
                backend, state, state.legal_moves()[moves % 3 % len(state.legal_moves())]
            )
            moves += 1
        assert state.is_over
        await backend.close()


async def run_until_error(script: Script, moves: list[Move], reply_timeout: float = 5.0) -> str:
    """Play ``moves`` as RED against the scripted server; the NetworkError's message."""
    async with FakeServer(script) as fake:
        backend = backend_for(fake.port, reply_timeout)
        state = GameState.new(7, 6, Rules.POPOUT)
        with pytest.raises(NetworkError) as caught:
            await backend.start(state)
            for move in moves:
                state = await play_red(backend, state, move)
        await asyncio.wait_for(fake.client_hung_up.wait(), 5)
        return str(caught.value)


async def test_garbage_instead_of_ready() -> None:
    async def script(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await reader.readline()
        await say(writer, "WELCOME tester")
        await reader.readline()
        await say(writer, "GARBAGE!!")

    message = await run_until_error(script, [])
    assert "broke the protocol" in message and "'GARBAGE!!'" in message


async def test_wrong_welcome() -> None:
    async def script(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await reader.readline()
        await say(writer, "WELCOME somebody_else")

    assert "'WELCOME somebody_else'" in await run_until_error(script, [])


async def test_illegal_server_move() -> None:
    async def script(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await greet(reader, writer)
        await reader.readline()
        await say(writer, "OKAY", "DROP 99", "READY")

    message = await run_until_error(script, [Move.drop(3)])
    assert "illegal move 'DROP 99'" in message and "column 99 does not exist" in message


async def test_server_pops_a_disc_that_is_not_its_own() -> None:
    async def script(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await greet(reader, writer)
        await reader.readline()  # DROP 1: red's disc at the bottom of column 1
        await say(writer, "OKAY", "POP 1", "READY")

    message = await run_until_error(script, [Move.drop(0)])
    assert "'POP 1'" in message and "the bottom disc of column 1 is not yours" in message


async def test_server_claims_a_win_that_is_not_on_the_board() -> None:
    async def script(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await greet(reader, writer)
        await reader.readline()
        await say(writer, "WINNER_RED")

    message = await run_until_error(script, [Move.drop(0)])
    assert "'WINNER_RED'" in message


async def test_server_hangs_up_mid_game() -> None:
    async def script(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await greet(reader, writer)
        await reader.readline()
        writer.close()

    assert "closed the connection" in await run_until_error(script, [Move.drop(3)])


async def test_never_ending_line() -> None:
    async def script(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await greet(reader, writer)
        await reader.readline()
        for _ in range(50):  # 500 kB and no line end
            writer.write(b"x" * 10_000)
            await writer.drain()

    message = await asyncio.wait_for(run_until_error(script, [Move.drop(3)]), 20)
    assert "longer than 8192 bytes" in message


async def test_silent_server_times_out() -> None:
    async def script(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await greet(reader, writer)
        await reader.readline()
        await reader.read()  # say nothing until the client gives up and hangs up

    message = await run_until_error(script, [Move.drop(3)], reply_timeout=0.5)
    assert "No answer" in message


async def test_connection_refused() -> None:
    probe = await asyncio.start_server(lambda r, w: None, "127.0.0.1", 0)
    port = probe.sockets[0].getsockname()[1]
    probe.close()
    await probe.wait_closed()
    with pytest.raises(NetworkError, match="Connection refused"):
        await backend_for(port).start(GameState.new())


async def test_unknown_host() -> None:
    backend = NetworkBackend(ServerAddress("no-such-host.invalid", 4444, "tester"), 5)
    with pytest.raises(NetworkError, match=r"Unknown host 'no-such-host\.invalid'"):
        await asyncio.wait_for(backend.start(GameState.new()), 20)


def test_only_reds_moves_are_sent() -> None:
    backend = backend_for(1)
    state = GameState.new().drop(0)
    assert state.turn is Player.YELLOW
    # A yellow move (the server's own) is not sent back: no connection is needed.
    asyncio.run(backend.move_played(state, Move.drop(1)))
