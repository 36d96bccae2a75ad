"""The CFSP and C4N clients against our server, and against servers that misbehave."""

from __future__ import annotations

import asyncio

import pytest

from c4tui.engine import GameState, Move, Player, Rules
from c4tui.match.backends import PersonBackend
from c4tui.match.backends.network import CLIENT_PROTOCOLS, NetworkBackend, ServerAddress
from c4tui.match.driver import MatchDriver
from c4tui.match.events import GameOver, MatchEvent, MatchFailed, TurnStarted
from c4tui.protocols import c4n
from c4tui.server.core import C4Server, ServerConfig
from tests.net.test_client import FakeServer, Script, say

RED, YELLOW = Player.RED, Player.YELLOW


def backend(port: int, protocol: str, reply_timeout: float = 5.0) -> NetworkBackend:
    return NetworkBackend(
        ServerAddress("127.0.0.1", port, "tester"),
        CLIENT_PROTOCOLS[protocol],
        connect_timeout=3,
        reply_timeout=reply_timeout,
    )


async def play(
    seat: NetworkBackend,
    columns: int = 7,
    rows: int = 6,
    rules: Rules = Rules.CLASSIC,
    person: list[int] | None = None,
):
    """A whole game through the driver; (driver, last event).

    The person spreads its moves over the board, or plays the ``person`` columns in turn.
    """
    driver = MatchDriver(GameState.new(columns, rows, rules), {RED: PersonBackend(), YELLOW: seat})
    events: asyncio.Queue[MatchEvent] = driver.listen()
    driver.start()
    turn = 0
    try:
        while True:
            event = await asyncio.wait_for(events.get(), 30)
            if isinstance(event, TurnStarted) and event.submits:
                legal = driver.state.legal_moves()
                move = Move.drop(person[turn % len(person)]) if person else legal[turn % len(legal)]
                assert driver.submit(move) is None
                turn += 1
            if isinstance(event, GameOver | MatchFailed):
                return driver, event
    finally:
        await driver.close()


# ----- against our own server --------------------------------------------------------


@pytest.mark.parametrize(("columns", "rows"), [(7, 6), (5, 4), (12, 9)])
async def test_cfsp_whole_games_against_our_server(
    server: C4Server, columns: int, rows: int
) -> None:
    driver, end = await play(backend(server.port, "cfsp"), columns, rows, Rules.POPOUT)
    assert isinstance(end, GameOver), end
    assert driver.state.is_over and len(driver.moves) >= 7


async def test_c4n_whole_game_against_our_server(server: C4Server) -> None:
    driver, end = await play(backend(server.port, "c4n"))
    assert isinstance(end, GameOver), end
    assert driver.seats[RED].submits  # our server lets the person move first


# ----- a C4N server whose AI drops first, like the reference one ---------------------


def c4n_server(
    first_ai_column: int | None,
    ai_columns: list[int],
    *,
    merge_end: bool = False,
    announces: bool = True,
) -> Script:
    """A small C4N server: its AI drops in ``ai_columns`` in turn (skipping full ones).

    With ``announces`` False it never sends RESULT, like a reference server that misses wins.
    """

    async def script(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        assert await reader.read(100) == b"C4N 1.0 START"
        state = GameState.new(*c4n.GAME)
        person = RED
        if first_ai_column is not None:
            state, person = state.drop(first_ai_column), YELLOW
        writer.write(c4n.message(c4n.Kind.BOARD, c4n.format_board(state, person)).encode())
        turn = 0
        while not state.is_over:
            received = c4n.decode((await reader.read(100)).decode())
            if received.kind is c4n.Kind.STOP:
                return
            state = state.drop(received.number())
            if not state.is_over:
                legal = [m.column for m in state.legal_moves()]
                column = next(c for c in ai_columns[turn:] + legal if c in legal)
                turn += 1
                state = state.drop(column)
            outcome = c4n.outcome_of(state, person)
            board = c4n.message(c4n.Kind.BOARD, c4n.format_board(state, person)).encode()
            if outcome is None or not announces:
                writer.write(board)
            else:
                result = c4n.message(c4n.Kind.RESULT, outcome.value).encode()
                writer.write(result + board if merge_end else result)
                if not merge_end:
                    await writer.drain()
                    await asyncio.sleep(0.05)
                    writer.write(board)
            await writer.drain()

    return script


async def test_c4n_server_that_drops_first_makes_the_person_yellow() -> None:
    async with FakeServer(c4n_server(3, [3, 3, 3, 3, 3, 0, 0, 0, 0])) as fake:
        seat = backend(fake.port, "c4n")
        driver, end = await play(seat)
    assert isinstance(end, GameOver), end
    assert driver.seats[RED] is seat and driver.seats[YELLOW].submits
    assert driver.moves[0] == Move.drop(3)


@pytest.mark.parametrize("merge_end", [False, True])
async def test_c4n_result_and_board_together_or_apart(merge_end: bool) -> None:
    # The AI builds four in column 7 while the person plays columns 1 and 2.
    async with FakeServer(c4n_server(None, [6, 6, 6, 6], merge_end=merge_end)) as fake:
        driver, end = await play(backend(fake.port, "c4n"), person=[0, 1])
    assert isinstance(end, GameOver), end
    assert driver.state.winner is YELLOW


async def c4n_game_until_error(script: Script, reply_timeout: float = 5.0) -> str:
    async with FakeServer(script) as fake:
        _driver, end = await play(backend(fake.port, "c4n", reply_timeout))
        await asyncio.wait_for(fake.client_hung_up.wait(), 5)
    assert isinstance(end, MatchFailed), end
    return end.problem


def send_after_start(*answers: bytes, pause: float = 0.0) -> Script:
    """After START, the empty BOARD; then one answer per MOVE received."""

    async def script(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await reader.read(100)
        writer.write(c4n.message(c4n.Kind.BOARD, " ".join(["6", "7"] + ["0"] * 42)).encode())
        for answer in answers:
            await reader.read(100)
            for part in [answer[:30], answer[30:]] if pause else [answer]:
                writer.write(part)
                await writer.drain()
                await asyncio.sleep(pause)
        await reader.read(100)

    return script


def board_bytes(cells: dict[int, int]) -> bytes:
    """A BOARD with ``cells`` (index in wire order → 1 or 2) set."""
    values = ["0"] * 42
    for index, value in cells.items():
        values[index] = str(value)
    return ("C4N 1.0 BOARD\n6 7 " + " ".join(values)).encode()


async def test_c4n_board_split_across_packets_is_put_together() -> None:
    # The person drops in column 1 (cell 35); the AI in column 2 (cell 36).
    script = send_after_start(board_bytes({35: 1, 36: 2}), b"C4N 1.0 STOP", pause=0.1)
    problem = await c4n_game_until_error(script)
    assert "stopped the game" in problem  # the split BOARD was read whole first


@pytest.mark.parametrize(
    ("answer", "words"),
    [
        (b"HELLO THERE", "not a C4N message: 'HELLO THERE'"),
        (board_bytes({35: 1, 36: 2, 37: 2}), "not our board plus one AI disc"),
        (board_bytes({35: 1, 1: 2}), "floating in column 2"),
        (b"C4N 1.0 RESULT\n2", "false RESULT 2"),
        (b"C4N 1.0 RESULT\n-1" + board_bytes({35: 1}), "false RESULT -1"),
        (b"C4N 1.0 ERROR\n2", "it refused our move, a legal one"),
    ],
)
async def test_c4n_client_refuses_what_does_not_fit(answer: bytes, words: str) -> None:
    problem = await c4n_game_until_error(send_after_start(answer))
    assert "broke the protocol" in problem and words in problem


async def test_c4n_result_1_before_an_end_is_the_server_giving_the_game_up() -> None:
    """``c4tui serve`` whose program failed says RESULT 1 and the board as it stands: we win."""
    async with FakeServer(send_after_start(b"C4N 1.0 RESULT\n1" + board_bytes({35: 1}))) as fake:
        driver, end = await play(backend(fake.port, "c4n", 5.0))
    assert isinstance(end, GameOver), end
    assert end.winner is RED and driver.problem is None
    assert "the server gave the game up before its end (RESULT 1): you win" in end.reason


async def test_c4n_server_hanging_up_or_silent() -> None:
    async def hang_up(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await reader.read(100)
        writer.write(board_bytes({}))
        await reader.read(100)
        writer.close()

    assert "closed the connection" in await c4n_game_until_error(hang_up)
    assert "No answer" in await c4n_game_until_error(send_after_start(), reply_timeout=0.5)


async def test_c4n_full_server_says_so() -> None:
    async def full(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await reader.read(100)
        writer.write(b"C4N 1.0 ERROR\n3")
        await writer.drain()
        writer.close()

    assert "it is full" in await c4n_game_until_error(full)


@pytest.mark.parametrize(("person", "winner"), [([0], RED), ([0, 1], YELLOW)])
async def test_c4n_wins_are_seen_on_our_own_board(person: list[int], winner: Player) -> None:
    # The server never sends RESULT; its AI stacks column 7.
    async with FakeServer(c4n_server(None, [6] * 6, announces=False)) as fake:
        driver, end = await play(backend(fake.port, "c4n"), person=person)
    assert isinstance(end, GameOver), end
    assert driver.state.winner is winner


# ----- CFSP servers that misbehave ---------------------------------------------------


def cfsp_server(*answers: tuple[str, str]) -> Script:
    """START, then RECEIVED for the first USER, then each (kind, column) per MOVE/COLUMN pair."""

    async def script(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await reader.readline()
        await say(writer, "START")
        await reader.readline()
        await say(writer, "RECEIVED")
        for kind, column in answers:
            assert (await reader.readline()).strip() == b"MOVE"
            await say(writer, kind)
            assert (await reader.readline()).strip() == b"COLUMN"
            await say(writer, column)
        await reader.readline()
        writer.close()

    return script


async def cfsp_until(script: Script, reply_timeout: float = 5.0) -> tuple[MatchDriver, MatchEvent]:
    async with FakeServer(script) as fake:
        return await play(backend(fake.port, "cfsp", reply_timeout), rules=Rules.POPOUT)


async def test_cfsp_illegal_ai_moves_are_asked_again_then_given_up() -> None:
    _, end = await cfsp_until(cfsp_server(("1", "1"), ("0", "99"), ("1", "5")))
    assert isinstance(end, MatchFailed)
    assert "asked 3 times" in end.problem and "is not yours" in end.problem
    assert "column 99 does not exist" in end.problem


async def test_cfsp_one_illegal_answer_then_a_legal_one_plays_on() -> None:
    driver, end = await cfsp_until(cfsp_server(("0", "99"), ("0", "2")))
    assert driver.moves[:2] == (Move.drop(0), Move.drop(1))
    # the script ends there
    assert isinstance(end, MatchFailed) and "closed the connection" in end.problem


async def test_cfsp_two_answers_in_one_packet() -> None:
    async def script(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await reader.readline()
        writer.write(b"START\r\n")
        await reader.readline()
        writer.write(b"RECEIVED\r\n")
        await reader.readline()
        writer.write(b"0\r\n")
        await reader.readline()
        writer.write(b"4\r\n")
        await reader.readline()
        writer.write(b"RECEIVED\r\n0\r\n")  # RECEIVED and the next MOVE answer together
        await reader.readline()
        await reader.readline()
        writer.write(b"5\r\n")
        await reader.readline()

    driver, _end = await cfsp_until(script)
    assert driver.moves[:4] == (Move.drop(0), Move.drop(3), Move.drop(1), Move.drop(4))


@pytest.mark.parametrize(
    ("protocol", "greeting", "words"),
    [
        ("i32cfsp", b"C4N 1.0 ERROR\n1", "did not answer I32CFSP_HELLO the way I32CFSP says"),
        ("i32cfsp", b"C4N 1.0 ERROR\n1", "is it a C4N server?"),
        ("cfsp", b"WELCOME x\r\n", "is it a I32CFSP server?"),
        ("c4n", b"WELCOME x\r\n", "did not answer C4N 1.0 START the way C4N says"),
        ("c4n", b"START\r\n", "is it a CFSP server?"),
        ("cfsp", b"ERROR\r\n", "it may be full, or speak another protocol"),
    ],
)
async def test_the_wrong_protocol_is_named(protocol: str, greeting: bytes, words: str) -> None:
    async def script(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await reader.read(100)
        writer.write(greeting)
        await writer.drain()

    async with FakeServer(script) as fake:
        _, end = await play(backend(fake.port, protocol))
    assert isinstance(end, MatchFailed) and words in end.problem, end


async def test_c4n_to_a_line_server_that_waits_says_which_protocol_we_tried() -> None:
    async def silent(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await reader.readline()  # a line server waits for a line end that never comes

    async with FakeServer(silent) as fake:
        _, end = await play(backend(fake.port, "c4n"))
    assert isinstance(end, MatchFailed)
    assert "No answer" in end.problem and "is it a C4N server?" in end.problem


async def test_c4n_against_our_server_when_its_ai_drops_first() -> None:
    server = C4Server(ServerConfig(port=0, ai="easy", ai_first=True))
    await server.start()
    try:
        seat = backend(server.port, "c4n")
        driver, end = await play(seat)
    finally:
        await server.stop()
    assert isinstance(end, GameOver), end
    assert driver.seats[RED] is seat and driver.seats[YELLOW].submits
    assert len(driver.moves) >= 7
