"""``c4tui serve --ai engine:CMD|kaggle:FILE.py``: each client's game against its own process
of the program, a bounded number at once; a failing program loses only its client's game."""

from __future__ import annotations

import asyncio
import contextlib
import signal
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

from c4tui.engine import GameState, Move, Player, Rules
from c4tui.protocols import c4n, i32cfsp
from c4tui.server.core import C4Server, ServerConfig
from tests.net.conftest import server_in_a_thread
from tests.net.raw_client import RawC4NClient, RawClient, play_whole_game
from tests.net.test_serve_command import start
from tests.outside.helpers import CENTRE_AGENT, engine_command
from tests.outside.sandboxes import processes_naming
from tests.process_helpers import run_c4tui

AGENT = f"kaggle:{CENTRE_AGENT}"


def engine(*options: str) -> tuple[str, str]:
    """The tiny engine with ``options`` as ``--ai``, and a mark to find its processes by."""
    mark = f"mark-{uuid.uuid4().hex}"
    return f"engine:{engine_command(*options, mark)}", mark


def running(mark: str) -> list[int]:
    """The processes whose command line holds ``mark`` (zombies not counted)."""
    return processes_naming(mark)


async def until_none_run(mark: str, seconds: float = 10.0) -> bool:
    """True once no process with ``mark`` runs (waiting up to ``seconds``)."""
    deadline = time.monotonic() + seconds
    while running(mark) and time.monotonic() < deadline:
        await asyncio.sleep(0.05)
    return not running(mark)


@contextlib.contextmanager
def serving(ai: str, ai_seconds: float = 1.0, max_programs: int = 4) -> Iterator[C4Server]:
    """A real server on 127.0.0.1 (port 0) whose AI is ``ai``."""
    settings = ServerConfig(
        port=0, ai=ai, ai_seconds=ai_seconds, max_programs=max_programs, idle_timeout=10
    )
    with server_in_a_thread(settings) as server:
        yield server


async def i32cfsp_game(port: int, rules: Rules = Rules.CLASSIC) -> RawClient:
    """An I32CFSP client whose game has just begun (READY read)."""
    client = await RawClient.connect(port)
    await client.send("I32CFSP_HELLO ann")
    assert await client.line() == "WELCOME ann"
    await client.send(i32cfsp.format_ai_game(7, 6, rules))
    assert await client.line() == "READY"
    return client


async def test_a_whole_i32cfsp_game_against_the_tiny_engine() -> None:
    ai, mark = engine()
    with serving(ai) as server:
        assert await play_whole_game(server.port, rules=Rules.CLASSIC) == "WINNER_RED"
        assert await until_none_run(mark), "the game's process ended with it"


async def test_a_crash_mid_game_is_the_client_s_win_and_the_server_serves_on() -> None:
    ai, mark = engine("--crash-at", "2")
    with serving(ai) as server:
        client = await i32cfsp_game(server.port)
        await client.send("DROP 4")
        assert [await client.line() for _ in range(3)] == ["OKAY", "DROP 1", "READY"]
        await client.send("DROP 4")
        assert await client.line() == "OKAY"
        assert await client.line() == "ERROR"  # I32CFSP has no forfeit: its only word
        assert await client.closed()
        await client.close()
        assert await until_none_run(mark)
        # C4N says it in its own words: RESULT 1, the player won, and the board as it is.
        c4n_client = await RawC4NClient.connect(server.port)
        await c4n_client.send("C4N 1.0 START")
        state = GameState.new(*c4n.GAME)
        assert await c4n_client.message() == c4n.message(
            c4n.Kind.BOARD, c4n.format_board(state, Player.RED)
        )
        await c4n_client.send(c4n.message(c4n.Kind.MOVE, 3))
        state = state.play(Move.drop(3)).play(Move.drop(0))
        board = c4n.message(c4n.Kind.BOARD, c4n.format_board(state, Player.RED))
        assert await c4n_client.message() == board
        await c4n_client.send(c4n.message(c4n.Kind.MOVE, 3))
        state = state.play(Move.drop(3))
        assert await c4n_client.message() == c4n.message(c4n.Kind.RESULT, 1)
        assert await c4n_client.message() == c4n.message(
            c4n.Kind.BOARD, c4n.format_board(state, Player.RED)
        )
        assert await c4n_client.closed()
        await c4n_client.close()
        again = await i32cfsp_game(server.port)  # a new game, a new process: it answers
        await again.send("DROP 4")
        assert [await again.line() for _ in range(3)] == ["OKAY", "DROP 1", "READY"]
        await again.close()


async def test_a_client_that_hangs_up_mid_thought_ends_the_program() -> None:
    ai, mark = engine("--sleep")
    with serving(ai, ai_seconds=30) as server:
        client = await i32cfsp_game(server.port)
        await client.send("DROP 4")
        assert await client.line() == "OKAY"
        for _ in range(200):
            if running(mark):
                break
            await asyncio.sleep(0.05)
        assert running(mark), "the program thinks"
        await client.close()
        assert await until_none_run(mark)


async def test_beyond_the_limit_a_client_is_refused_at_once_and_others_play_on() -> None:
    ai, mark = engine("--late", "1")
    with serving(ai, ai_seconds=10, max_programs=1) as server:
        first = await i32cfsp_game(server.port)
        asked = time.monotonic()
        second = await RawClient.connect(server.port)
        await second.send("I32CFSP_HELLO bob")
        assert await second.line() == "WELCOME bob"
        await second.send(i32cfsp.format_ai_game(7, 6, Rules.CLASSIC))
        assert await second.line() == "ERROR"  # I32CFSP's words when the server is full
        assert await second.closed()
        assert time.monotonic() - asked < 3, "refused at once, never kept waiting"
        c4n_client = await RawC4NClient.connect(server.port)
        await c4n_client.send("C4N 1.0 START")
        assert await c4n_client.message() == c4n.message(c4n.Kind.ERROR, 3)  # server full
        await first.send("DROP 4")
        assert [await first.line() for _ in range(3)] == ["OKAY", "DROP 1", "READY"]
        await first.close()
        assert await until_none_run(mark)
        assert await play_whole_game(server.port, rules=Rules.CLASSIC) == "WINNER_RED"
        for client in (second, c4n_client):
            await client.close()


async def test_a_kaggle_agent_refuses_pop_out_games_and_plays_classic_ones() -> None:
    with serving(AGENT) as server:
        client = await RawClient.connect(server.port)
        await client.send("I32CFSP_HELLO ann")
        assert await client.line() == "WELCOME ann"
        await client.send(i32cfsp.format_ai_game(7, 6, Rules.POPOUT))
        assert await client.line() == "ERROR"
        assert await client.closed()
        await client.close()
        cfsp_client = await RawClient.connect(server.port)  # CFSP plays only Pop Out
        await cfsp_client.send("GAME 6 7")
        assert await cfsp_client.line() == "ERROR"
        assert await cfsp_client.closed()
        await cfsp_client.close()
        client = await i32cfsp_game(server.port)
        await client.send("DROP 1")
        assert [await client.line() for _ in range(3)] == ["OKAY", "DROP 4", "READY"]
        await client.close()


def test_serve_checks_the_program_at_start_and_logs_which_it_is(tmp_path: Path) -> None:
    failing = run_c4tui(
        "serve", "--port", "0", "--ai", f"engine:{engine_command('--exit-at-start')}"
    )
    assert failing.returncode == 1
    assert "failed its first move" in failing.stderr and "exited with status 2" in failing.stderr
    assert "Traceback" not in failing.stderr
    log = tmp_path / "serve.log"
    process, port = start(log, "--ai", f"engine:{engine_command()}", "--max-programs", "3")
    try:
        assert asyncio.run(play_whole_game(port, rules=Rules.CLASSIC)) == "WINNER_RED"
    finally:
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=20) == 0
    text = log.read_text()
    assert "the AI is engine" in text and "(Tiny by the c4tui tests)" in text
    assert "at most 3 of its processes at once" in text
    assert "Traceback" not in text


async def test_cfsp_hears_error_when_the_program_fails_mid_game() -> None:
    ai, mark = engine("--crash-at", "2")
    with serving(ai) as server:
        client = await RawClient.connect(server.port)
        await client.send("GAME 6 7")
        assert await client.line() == "START"
        await client.send("USER 0 4")
        assert await client.line() == "RECEIVED"
        await client.send("MOVE")
        assert await client.line() == "0"  # its first move: a drop
        await client.send("USER 0 4")
        assert await client.line() == "RECEIVED"
        await client.send("MOVE")  # its second: a crash
        assert await client.line() == "ERROR"  # CFSP has no forfeit: its only word
        assert await client.closed()
        await client.close()
        assert await until_none_run(mark)


async def test_c4tui_s_own_i32cfsp_client_wins_when_the_server_ends_the_game() -> None:
    ai, _ = engine("--crash-at", "2")
    with serving(ai) as server:
        address = f"127.0.0.1:{server.port}"
        result = await asyncio.to_thread(
            run_c4tui, "console", "--connect", address, "--protocol", "i32cfsp", stdin="4\n4\n"
        )
    assert ": drop in column 1" in result.stdout  # the program's first move
    assert "the server ended the game with ERROR instead of its move: you win" in result.stdout
    assert "RED wins by forfeit" in result.stdout
    assert result.returncode == 0 and "Traceback" not in result.stderr


def test_stopping_the_server_mid_thought_ends_the_program(tmp_path: Path) -> None:
    ai, mark = engine("--late", "2")  # its first move (the start-up check) too: 2 s
    process, port = start(tmp_path / "serve.log", "--ai", ai, "--seconds", "30")

    async def stopped_while_it_thinks() -> None:
        client = await i32cfsp_game(port)
        await client.send("DROP 4")
        assert await client.line() == "OKAY"
        assert running(mark), "the program thinks"
        process.send_signal(signal.SIGTERM)
        assert await asyncio.to_thread(process.wait, 20) == 0
        assert await until_none_run(mark)
        await client.close()

    try:
        asyncio.run(stopped_while_it_thinks())
    finally:
        if process.poll() is None:
            process.kill()


async def test_c4tui_s_own_c4n_client_wins_when_the_server_s_program_fails() -> None:
    ai, _ = engine("--crash-at", "2")
    with serving(ai) as server:
        address = f"127.0.0.1:{server.port}"
        result = await asyncio.to_thread(
            run_c4tui, "console", "--connect", address, "--protocol", "c4n", stdin="4\n4\n4\n"
        )
    assert "the server gave the game up before its end (RESULT 1): you win" in result.stdout
    assert "broke the protocol" not in result.stdout + result.stderr
    assert "Traceback" not in result.stderr
