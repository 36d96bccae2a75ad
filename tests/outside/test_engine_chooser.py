"""An engine program (spec §6) as a move-chooser: real processes that play, and that fail."""

from __future__ import annotations

import asyncio
import sys
import time
from pathlib import Path

import pytest

from c4tui.engine import GameState, Move, Player, Rules
from c4tui.outside.chooser import ChooserError, FailureKind, OutsideFailure
from c4tui.outside.confinement import usable_hierarchy
from c4tui.outside.engine_chooser import EngineChooser
from c4tui.outside.program import Limits
from tests.engine_helpers import play
from tests.outside.helpers import (
    TINY_ENGINE,
    engine_command,
    failure_of,
    is_alive,
    play_game,
    reaped,
)
from tests.outside.sandboxes import descendants

START = GameState.new()


async def test_two_engines_play_a_legal_game_to_its_end() -> None:
    red, yellow = EngineChooser(engine_command()), EngineChooser(engine_command())
    final, moves = await play_game(red, yellow)
    assert final.is_over
    assert moves[:2] == [Move.drop(0), Move.drop(0)]
    assert red.describe() == f"engine {engine_command()!r} (Tiny by the c4tui tests)"
    assert red.name == "tiny_engine.py"


async def test_the_engine_hears_each_game_once_and_each_position_whole(tmp_path: Path) -> None:
    log = tmp_path / "engine.log"
    engine = EngineChooser(engine_command(), limits=Limits(stderr_log=log))
    try:
        await engine.choose(START, 5.0, [])
        await engine.choose(START.drop(0).drop(0), 5.0, [Move.drop(0), Move.drop(0)])
        await engine.choose(START, 5.0)  # a new game
    finally:
        await engine.close()
    heard = [line.removeprefix("got: ") for line in log.read_text().splitlines()]
    assert heard == [
        "c4e",
        "newgame 7 6 classic",
        "isready",
        "position",
        "go movetime 5000",
        "position d1 d1",
        "go movetime 5000",
        "newgame 7 6 classic",
        "isready",
        "position",
        "go movetime 5000",
        "quit",
    ]


async def test_a_game_come_into_under_way_is_told_as_drops_that_rebuild_it(
    tmp_path: Path,
) -> None:
    log = tmp_path / "engine.log"
    engine = EngineChooser(engine_command(), limits=Limits(stderr_log=log))
    try:
        move = await engine.choose(play("d1 d1 d1 d2", rules=Rules.CLASSIC), 5.0)
    finally:
        await engine.close()
    assert move == Move.drop(0)
    assert "got: position d1 d1 d1 d2" in log.read_text()


async def test_a_pop_out_game_needs_its_moves_and_is_played_with_them() -> None:
    state = play("d1 d2 p1")
    engine = EngineChooser(engine_command())
    try:
        with pytest.raises(ChooserError, match="the game so far is needed here"):
            await engine.choose(state, 5.0)
        with pytest.raises(ChooserError, match="do not reach"):
            await engine.choose(state, 5.0, [Move.drop(0)])
        moves = [Move.drop(0), Move.drop(1), Move.pop(0)]
        assert await engine.choose(state, 5.0, moves) == Move.drop(0)
    finally:
        await engine.close()


async def test_a_pop_out_game_told_only_its_positions_is_followed_move_by_move(
    tmp_path: Path,
) -> None:
    log = tmp_path / "engine.log"
    red = EngineChooser(engine_command(), limits=Limits(stderr_log=log))
    yellow = EngineChooser(engine_command())
    moves = [Move.drop(0), Move.drop(1), Move.drop(2), Move.pop(1)]  # no drops rebuild this
    state = GameState.new(rules=Rules.POPOUT).play_all(moves)
    try:
        while not state.is_over:
            chooser = red if state.turn is Player.RED else yellow
            told = moves if len(moves) < 6 else None  # each is told the moves once, first
            moves.append(await chooser.choose(state, 5.0, told))
            state = state.play(moves[-1])
    finally:
        await red.close()
        await yellow.close()
    red_last = (len(moves) - 1) // 2 * 2  # red moves at even places
    heard = " ".join(str(move) for move in moves[:red_last])
    positions = [line for line in log.read_text().splitlines() if "position" in line]
    assert positions[-1] == f"got: position {heard}"
    assert log.read_text().count("newgame") == 1


@pytest.mark.parametrize(
    ("options", "kind", "detail"),
    [
        (("--exit-at-start",), FailureKind.CRASH, "exited with status 2"),
        (("--crash-at", "1"), FailureKind.CRASH, "status 3: Traceback: something broke"),
        (("--garbage",), FailureKind.MALFORMED, "'bestmove banana'"),
        (("--long-line",), FailureKind.MALFORMED, "longer than 8192"),
        (("--flood",), FailureKind.MALFORMED, "longer than 8192"),
        (("--illegal",), FailureKind.ILLEGAL, "d8: column 8 does not exist"),
        (("--sleep",), FailureKind.TIME, "no answer within 0.3 s and the 0.3 s margin"),
        (("--late", "2"), FailureKind.TIME, "no answer within 0.3 s"),
        (("--no-hello",), FailureKind.TIME, "no answer within 3 s"),
    ],
)
async def test_each_failure_is_named_and_its_process_is_gone(
    options: tuple[str, ...], kind: FailureKind, detail: str
) -> None:
    engine = EngineChooser(engine_command(*options), limits=Limits(start_seconds=3.0, margin=0.3))
    failure = await failure_of(engine, START, 0.3)
    assert failure.kind is kind
    assert detail in failure.detail


async def test_a_crash_costs_that_move_only_the_next_starts_afresh() -> None:
    engine = EngineChooser(engine_command("--crash-at", "2"))
    try:
        assert await engine.choose(START, 5.0) == Move.drop(0)
        with pytest.raises(OutsideFailure, match="crash"):
            await engine.choose(START.drop(0), 5.0)
        assert await engine.choose(START.drop(0), 5.0) == Move.drop(0)
    finally:
        await engine.close()


async def test_closing_ends_every_process_of_the_program_and_reaps_it() -> None:
    engine = EngineChooser(engine_command("--spawn"))
    await engine.choose(START, 5.0)
    group = engine.pid
    assert group is not None
    started = descendants(group)
    assert len(started) >= 2  # the program and the child it left (in the sandbox, more)
    await engine.close()
    assert reaped(group)
    deadline = time.monotonic() + 10
    while any(map(is_alive, started)) and time.monotonic() < deadline:
        await asyncio.sleep(0.05)
    assert not any(map(is_alive, started))


async def test_a_chatty_engine_neither_blocks_nor_floods_its_log(tmp_path: Path) -> None:
    log = tmp_path / "engine.log"
    red = EngineChooser(engine_command("--chatty"), limits=Limits(stderr_log=log))
    yellow = EngineChooser(engine_command("--chatty"))
    final, _ = await play_game(red, yellow, time_limit=20.0)
    assert final.is_over
    assert log.stat().st_size < (1 << 20) + 100
    assert log.read_text().endswith("[the rest of standard error was left out]\n")


async def test_an_engine_plays_within_its_memory_limit_and_crashes_past_it() -> None:
    engine = EngineChooser(engine_command(), limits=Limits(memory_mb=1024))
    try:
        assert await engine.choose(START, 5.0) == Move.drop(0)
    finally:
        await engine.close()
    hog = EngineChooser(engine_command("--hog"), limits=Limits(memory_mb=1024))
    failure = await failure_of(hog, START, 5.0)
    assert failure.kind is FailureKind.CRASH
    if usable_hierarchy("memory") is None:  # RLIMIT_AS: Python says so itself
        assert failure.detail == "exited with status 1: MemoryError"
    else:  # the memory cgroup: its processes together, the bound named
        assert failure.detail.startswith("used more than 1024 MB (all its processes together)")


def test_an_engine_needs_a_command() -> None:
    with pytest.raises(ChooserError, match="needs a command"):
        EngineChooser("  ")


async def test_a_program_that_does_not_exist_is_a_crash() -> None:
    engine = EngineChooser("/no/such/engine --fast")
    with pytest.raises(OutsideFailure, match="crash: exited with status 127"):
        await engine.choose(START, 1.0)
    assert engine.name == "engine"


async def test_a_question_given_up_never_gets_its_answer_taken_for_the_next() -> None:
    engine = EngineChooser(engine_command("--late", "1"))
    try:
        with pytest.raises(TimeoutError):
            await asyncio.wait_for(engine.choose(START, 5.0), 0.5)  # d1 would come later
        assert engine.pid is None
        column_one_full = play("d1 d1 d1 d1 d1 d1", rules=Rules.CLASSIC)
        assert await engine.choose(column_one_full, 5.0) == Move.drop(1)
    finally:
        await engine.close()


async def test_a_second_bestmove_nobody_asked_for_is_malformed_not_the_next_answer() -> None:
    engine = EngineChooser(engine_command("--twice"))
    try:
        assert await engine.choose(START, 5.0) == Move.drop(0)
        await asyncio.sleep(0.5)  # its second answer arrives meanwhile
        with pytest.raises(OutsideFailure, match="a move when not asked: 'bestmove d1'"):
            await engine.choose(START.drop(0).drop(1), 5.0)
    finally:
        await engine.close()


async def test_the_same_position_again_is_a_new_game_and_the_exchange_is_kept(
    tmp_path: Path,
) -> None:
    """A bot tries its engine on the empty board, then plays its first game from it."""
    exchange = tmp_path / "tiny.exchange"
    engine = EngineChooser(engine_command(), limits=Limits(exchange_log=exchange))
    try:
        await engine.choose(START, 5.0, [])  # the try before the bot logs in
        await engine.choose(START, 5.0, [])  # the first game: newgame and isready again
        await engine.choose(START.drop(0).drop(1), 5.0, [Move.drop(0), Move.drop(1)])
    finally:
        await engine.close()
    sent = [line for line in exchange.read_text().splitlines() if line.startswith(">")]
    assert sent.count("> newgame 7 6 classic") == 2
    assert sent.count("> isready") == 2
    assert "< bestmove d1" in exchange.read_text()
    assert sent[-3:] == ["> position d1 d2", "> go movetime 5000", "> quit"]


@pytest.mark.usefixtures("sandbox")
async def test_a_link_out_of_its_folder_in_a_command_brings_in_nothing(tmp_path: Path) -> None:
    """A student's ``engine.py`` that links to the teacher's file: it finds nothing there."""
    canary = tmp_path / "canary.py"
    canary.write_text("the teacher's secret\n")
    student = tmp_path / "ann"
    student.mkdir()
    (student / "engine.py").symlink_to(canary)
    (student / "real.py").write_text(TINY_ENGINE.read_text())
    (student / "mine.py").symlink_to("real.py")  # a link beside itself is followed
    log = tmp_path / "ann.log"
    linked = EngineChooser(
        f"{sys.executable} {student / 'engine.py'}", limits=Limits(stderr_log=log)
    )
    with pytest.raises(OutsideFailure, match="crash"):
        await linked.choose(START, 5.0)
    assert "secret" not in log.read_text()
    beside = EngineChooser(f"{sys.executable} {student / 'mine.py'}")
    try:
        assert await beside.choose(START, 5.0) == Move.drop(0)
    finally:
        await beside.close()
