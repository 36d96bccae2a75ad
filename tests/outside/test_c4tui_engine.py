"""``c4tui engine``: c4tui's levels speaking the engine protocol, in a process and in this one."""

from __future__ import annotations

import io
import shlex
import subprocess
import sys
import time
from typing import ClassVar

import pytest

from c4tui.ai.levels import AILevel, ai_level
from c4tui.ai.search import CancelFlag
from c4tui.engine import GameState, Move, Player, Rules
from c4tui.outside import speaker
from c4tui.outside.chooser import TIME_MARGIN
from c4tui.outside.engine_chooser import EngineChooser
from c4tui.outside.kaggle import KaggleChooser
from c4tui.outside.speaker import Speaker, command_lines
from c4tui.protocols.engine import BestMove, parse_answer
from tests.outside.helpers import CENTRE_AGENT, engine_command, play_game
from tests.test_lazy_imports import loaded_modules, run_command


def c4tui_engine(*options: str) -> str:
    """The shell command that runs ``c4tui engine`` from this checkout."""
    return shlex.join([sys.executable, "-m", "c4tui", "engine", *options])


def talk(lines: bytes, *options: str, timeout: float = 60) -> subprocess.CompletedProcess[bytes]:
    """``c4tui engine`` given ``lines`` on standard input until its end."""
    return subprocess.run(
        [sys.executable, "-m", "c4tui", "engine", *options],
        input=lines,
        capture_output=True,
        timeout=timeout,
        check=False,
    )


@pytest.mark.parametrize(
    ("columns", "rows", "rules"),
    [(7, 6, Rules.CLASSIC), (7, 6, Rules.POPOUT), (5, 4, Rules.CLASSIC), (9, 7, Rules.POPOUT)],
)
async def test_hard_beats_the_tiny_engine_whole_games_through_the_protocol(
    columns: int, rows: int, rules: Rules
) -> None:
    hard = EngineChooser(c4tui_engine("--level", "hard"))
    tiny = EngineChooser(engine_command())
    final, moves = await play_game(hard, tiny, GameState.new(columns, rows, rules), 1.0)
    assert final.is_over
    assert final.winner is Player.RED, [str(move) for move in moves]
    assert (
        hard.describe()
        == f"engine {c4tui_engine('--level', 'hard')!r} (c4tui Hard by the c4tui authors)"
    )


async def test_perfect_by_default_beats_a_kaggle_agent_playing_second() -> None:
    agent, perfect = KaggleChooser(CENTRE_AGENT), EngineChooser(c4tui_engine())
    final, _ = await play_game(agent, perfect, time_limit=1.0)
    assert final.winner is Player.YELLOW
    assert "c4tui Perfect" in perfect.describe()


def test_bad_lines_are_remarked_on_and_the_engine_goes_on() -> None:
    lines = (
        b"c4e\n"
        b"banana\n"
        b"\xff\xfe go\n"
        b"go movetime soon\n"
        b"newgame 3 3 classic\n"
        b"position d9\n"
        b"go movetime 500\n"  # from the start: the illegal position was not taken
        + b"x"
        * 100_000
        + b"\n"
        b"newgame 4 4 classic\n"
        b"position d1 d2 d1 d2 d1 d2 d1\n"  # red has four in column 1
        b"go movetime 500\n"
        b"isready\n"
    )
    done = talk(lines, "--level", "easy")
    assert done.returncode == 0
    assert done.stderr == b""
    said = done.stdout.decode().splitlines()
    assert said[:3] == ["id name c4tui Easy", "id author the c4tui authors", "c4eok"]
    remarks = [line for line in said if line.startswith("info string ")]
    assert remarks == [
        "info string ignored: expected a command, got 'banana'",
        "info string ignored: expected a command, got '\ufffd\ufffd go'",
        "info string ignored: expected go, or go movetime <milliseconds> (a whole number), "
        "got 'go movetime soon'",
        "info string ignored: expected a game (newgame <cols> <rows> <classic|popout>, "
        "sizes 4 to 20), got 'newgame 3 3 classic'",
        "info string illegal position (column 9 does not exist): playing from the start",
        "info string ignored: a line of 8194 characters (at most 8192)",
        "info string no move: the game is over",
    ]
    moves = [parse_answer(line) for line in said if line.startswith("bestmove")]
    assert len(moves) == 1 and isinstance(moves[0], BestMove)
    assert said[-1] == "readyok"


@pytest.mark.parametrize("ending", ["quit\nc4e\n", ""])
def test_quit_or_the_end_of_input_exits_at_once_with_status_0(ending: str) -> None:
    started = time.monotonic()
    done = talk(f"newgame 7 6 classic\n{ending}".encode())
    assert (done.returncode, done.stdout, done.stderr) == (0, b"", b"")
    assert time.monotonic() - started < 20  # a warm-up under way does not hold it up


def test_go_without_newgame_or_position_plays_on_7_by_6_from_the_start() -> None:
    done = talk(
        b"go movetime 300\nposition d7 d7 d7 d7 d7 d7\ngo movetime 300\n", "--level", "random"
    )
    first, second = done.stdout.decode().splitlines()
    assert first.startswith("bestmove d")
    assert second != "bestmove d7"  # the seventh column is full: it exists and is known


def test_saying_c4eok_loads_no_search_and_no_solver() -> None:
    modules, output = loaded_modules(run_command("engine"), stdin="c4e\nquit\n")
    assert output.splitlines()[-1] == "c4eok"
    heavy = {"numpy", "numba", "c4tui.ai.search", "c4tui.ai.perfect", "textual"}
    assert sorted(modules & heavy) == []


def test_each_move_comes_within_its_movetime() -> None:
    """Pop Out on a big board: Perfect searches, so its time is the movetime's to keep."""
    engine = subprocess.Popen(
        [sys.executable, "-m", "c4tui", "engine"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert engine.stdin is not None and engine.stdout is not None
    state = GameState.new(12, 10, Rules.POPOUT)
    moves: list[str] = []
    took: list[float] = []
    try:
        engine.stdin.write("c4e\nnewgame 12 10 popout\nisready\n")
        engine.stdin.flush()
        while engine.stdout.readline().strip() != "readyok":
            pass
        for _ in range(6):
            engine.stdin.write(f"position {' '.join(moves)}\ngo movetime 300\n")
            engine.stdin.flush()
            asked = time.monotonic()
            answer = parse_answer(engine.stdout.readline())
            took.append(time.monotonic() - asked)
            assert isinstance(answer, BestMove)
            state = state.play(answer.move)
            moves.append(str(answer.move))
    finally:
        engine.kill()
        engine.wait()
    median = sorted(took)[len(took) // 2]
    assert 0.1 < median < 0.3, took  # it searched, and the reserve kept it inside the time
    assert max(took) < 0.3 + TIME_MARGIN, took  # never a loss on time, even on a loaded machine


class Stuck:
    """A level that never finishes by itself: it stops only when cancelled."""

    cheap: ClassVar[bool] = False
    searched: ClassVar[list[float]] = []

    def choose_move(
        self,
        state: GameState,
        cancel: CancelFlag | None = None,
        time_limit: float | None = None,
    ) -> Move:
        started = time.monotonic()
        while cancel is None or not cancel.is_set():
            time.sleep(0.001)
        self.searched.append(time.monotonic() - started)
        return state.legal_moves()[0]


def test_a_search_past_its_time_is_cancelled_and_a_quick_move_sent_in_time() -> None:
    out = io.StringIO()
    speaker = Speaker(AILevel("stuck", "Stuck", "never done", lambda seed: Stuck()), out, seed=1)
    # Column 1 wins for red at once: the quick move takes it.
    commands = b"position d1 d2 d1 d2 d1 d2\ngo movetime 200\ngo movetime 400\n"
    started = time.monotonic()
    speaker.serve(command_lines(io.BytesIO(commands)))
    took = time.monotonic() - started
    said = out.getvalue().splitlines()
    assert said == ["info string out of time: a quick move instead", "bestmove d1"] * 2
    assert 0.2 < took < 0.6 + 0.3
    assert len(Stuck.searched) >= 1  # the first search saw its cancel


def test_the_levels_play_as_the_engine_by_their_own_names() -> None:
    out = io.StringIO()
    speaker = Speaker(ai_level("medium"), out)
    speaker.serve(command_lines(io.BytesIO(b"c4e\nisready\ngo\n")))
    said = out.getvalue().splitlines()
    assert said[0] == "id name c4tui Medium"
    assert said[-2:-1] == ["readyok"] and said[-1].startswith("bestmove d")


class Slow:
    """A level that takes a second whatever it is given (a first compilation, say)."""

    cheap: ClassVar[bool] = False

    def choose_move(
        self, state: GameState, cancel: CancelFlag | None = None, time_limit: float | None = None
    ) -> Move:
        time.sleep(1.0)
        return state.legal_moves()[0]


def test_isready_waits_for_the_warm_up_but_not_without_end(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(speaker, "READY_SECONDS", 0.2)
    out = io.StringIO()
    slow = Speaker(AILevel("slow", "Slow", "slow to start", lambda seed: Slow()), out)
    started = time.monotonic()
    slow.serve(command_lines(io.BytesIO(b"newgame 7 6 classic\nisready\n")))
    assert out.getvalue() == "readyok\n"
    assert 0.2 <= time.monotonic() - started < 0.9
