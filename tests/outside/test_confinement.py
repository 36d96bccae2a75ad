"""What an outside program is confined to, with real programs misbehaving: processes, files,
file descriptors, CPU, memory and standard error. Each ends as that program's failure and
leaves nothing behind."""

from __future__ import annotations

import asyncio
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path
from textwrap import dedent

import pytest

from c4tui.engine import GameState, Move, Player
from c4tui.outside import confinement, limits_runner
from c4tui.outside.chooser import FailureKind, OutsideFailure
from c4tui.outside.confinement import process_bound
from c4tui.outside.engine_chooser import EngineChooser, shell_script, with_absolute_paths
from c4tui.outside.kaggle import KaggleChooser
from c4tui.outside.program import Limits, Sandboxing
from tests.outside.helpers import (
    TINY_ENGINE,
    engine_command,
    engines_alive,
    failure_of,
    is_alive,
    play_game,
)
from tests.outside.sandboxes import descendants, need_sandbox

START = GameState.new()
#: A fork bomb is let loose only where something bounds it (never on an unbounded machine).
bounded = pytest.mark.skipif(
    process_bound() is None,
    reason="root without a writable pids cgroup: nothing but the time limit would bound a "
    "fork bomb, so it is not let loose here",
)
#: Catching what left the process group needs the cgroup.
in_a_cgroup = pytest.mark.skipif(
    not (process_bound() or "").startswith("a pids cgroup"),
    reason="no writable pids cgroup here: only the process group is killed",
)


def logged(log: Path, key: str) -> str:
    """What the tiny engine said on standard error after ``key:``."""
    found = re.search(rf"^{key}: (.*)$", log.read_text(), re.MULTILINE)
    assert found is not None, log.read_text()
    return found[1]


@bounded
async def test_an_engine_fork_bomb_ends_as_its_loss_on_time_and_leaves_nothing() -> None:
    engine = EngineChooser(engine_command("--fork-bomb"), limits=Limits(margin=0.3))
    started = time.monotonic()
    failure = await failure_of(engine, START, 0.5)  # every process of its group gone, too
    assert failure.kind is FailureKind.TIME
    assert time.monotonic() - started < 0.5 + 0.3 + 5  # the limit, the margin and the cleanup


@bounded
async def test_a_kaggle_fork_bomb_ends_as_its_loss_on_time_and_leaves_nothing(
    tmp_path: Path,
) -> None:
    path = tmp_path / "bomb.py"
    path.write_text(
        dedent(
            """
            import os

            def agent(observation, configuration):
                while True:
                    try:
                        os.fork()
                    except OSError:
                        pass
            """
        )
    )
    failure = await failure_of(
        KaggleChooser(path, limits=Limits(margin=0.3), overage=0), START, 0.5
    )
    assert failure.kind is FailureKind.TIME


@in_a_cgroup
async def test_a_process_that_left_the_group_is_ended_through_the_cgroup(tmp_path: Path) -> None:
    hierarchy = confinement.usable_hierarchy("pids")
    assert hierarchy is not None
    others = set(hierarchy[0].glob(f"c4tui-{os.getpid()}-*"))  # earlier tests' (still going)
    log = tmp_path / "engine.log"
    engine = EngineChooser(engine_command("--escape"), limits=Limits(stderr_log=log))
    await engine.choose(START, 5.0)
    assert engine.pid is not None
    started = descendants(engine.pid)  # the sandbox, the program, the one in its own session
    assert len(started) >= 2
    await engine.close()
    deadline = time.monotonic() + 10
    while any(map(is_alive, started)) and time.monotonic() < deadline:
        await asyncio.sleep(0.01)
    assert not any(map(is_alive, started))
    assert set(hierarchy[0].glob(f"c4tui-{os.getpid()}-*")) <= others  # its own removed after


def test_the_process_bound_is_said() -> None:
    bound = process_bound()
    if os.geteuid() != 0:  # a user who is not root always has RLIMIT_NPROC
        assert bound is not None
    assert bound is None or "cgroup" in bound or "RLIMIT_NPROC" in bound


async def test_an_engine_computing_forever_loses_on_time_and_is_gone() -> None:
    engine = EngineChooser(engine_command("--loop"), limits=Limits(margin=0.3))
    failure = await failure_of(engine, START, 0.5)
    assert (failure.kind, failure.detail) == (
        FailureKind.TIME,
        "no answer within 0.5 s and the 0.3 s margin",
    )


async def test_a_kaggle_agent_computing_forever_loses_on_time(tmp_path: Path) -> None:
    path = tmp_path / "loop.py"
    path.write_text("def agent(observation, configuration):\n    while True:\n        pass\n")
    failure = await failure_of(
        KaggleChooser(path, limits=Limits(margin=0.3), overage=0), START, 0.5
    )
    assert failure.kind is FailureKind.TIME


@pytest.mark.parametrize("sandboxing", [Sandboxing.REQUIRED, Sandboxing.OFF])
async def test_an_engine_runs_in_a_folder_of_its_own_with_no_file_but_its_streams(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, sandboxing: Sandboxing
) -> None:
    if sandboxing is Sandboxing.REQUIRED:
        need_sandbox()
    monkeypatch.chdir(tmp_path)  # the tournament's folder
    ours = os.open(tmp_path / "results.json", os.O_CREAT | os.O_WRONLY)
    os.set_inheritable(ours, True)  # even a descriptor left inheritable stays ours
    log = tmp_path / "engine.log"
    limits = Limits(stderr_log=log, sandboxing=sandboxing)
    engine = EngineChooser(engine_command("--report"), limits=limits)
    try:
        assert await engine.choose(START, 5.0) == Move.drop(0)
    finally:
        await engine.close()
        os.close(ours)
    folder = Path(logged(log, "cwd"))
    if sandboxing is Sandboxing.REQUIRED:
        assert str(folder) == "/program"  # its sandbox's, thrown away with what it wrote
    else:
        assert folder.name.startswith("c4tui-program-")
        assert not folder.exists()  # removed after, with what it wrote there
    assert logged(log, "fds") == "0 1 2"
    assert sorted(path.name for path in tmp_path.iterdir()) == ["engine.log", "results.json"]


@pytest.mark.usefixtures("sandbox")
async def test_a_kaggle_agent_runs_where_kaggle_runs_it_and_imports_beside_its_file(
    tmp_path: Path,
) -> None:
    (tmp_path / "helper.py").write_text("import os\nWHERE = os.getcwd()\n")
    path = tmp_path / "main.py"
    path.write_text(
        dedent(
            """
            import os
            import helper

            def agent(observation, configuration):
                open("scratch.txt", "w").write("mine")
                fds = [fd for fd in os.listdir("/proc/self/fd") if int(fd) > 2]
                print("where:", helper.WHERE, "fds:", len(fds))
                return 0 if helper.WHERE == os.path.dirname(__file__) else 1
            """
        )
    )
    log = tmp_path.parent / f"{tmp_path.name}-agent.log"
    agent = KaggleChooser(tmp_path, limits=Limits(stderr_log=log))
    try:
        assert await agent.choose(START, 10.0) == Move.drop(0)
    finally:
        await agent.close()
    assert log.read_text().split()[1] == "/kaggle_simulations/agent"
    assert not (tmp_path / "scratch.txt").exists()  # written in its sandbox, thrown away


def test_a_plain_commands_paths_are_made_absolute_for_its_own_folder(tmp_path: Path) -> None:
    (tmp_path / "bots").mkdir()
    (tmp_path / "bots" / "deep.py").write_text("")
    (tmp_path / "weights.bin").write_text("")
    absolute = with_absolute_paths("python3 bots/deep.py --weights weights.bin -m c4tui", tmp_path)
    assert absolute == (
        f"python3 {tmp_path}/bots/deep.py --weights {tmp_path}/weights.bin -m c4tui"
    )
    assert with_absolute_paths("./bots/deep.py", tmp_path) == f"{tmp_path}/bots/deep.py"
    for kept in ["python3 bots/deep.py > out.txt", "cd bots && ./deep.py", "python3 'bots/x"]:
        assert with_absolute_paths(kept, tmp_path) == kept
    assert (
        with_absolute_paths("deep.py --fast", tmp_path / "bots")
        == f"{tmp_path}/bots/deep.py --fast"
    )


async def test_an_engine_named_relative_to_here_starts_from_its_own_folder(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(TINY_ENGINE.parent.parent)
    engine = EngineChooser(f"python3 {TINY_ENGINE.parent.name}/{TINY_ENGINE.name}")
    try:
        assert await engine.choose(START, 5.0) == Move.drop(0)
    finally:
        await engine.close()


async def test_an_engine_crashing_at_its_third_move_fails_there_and_only_itself() -> None:
    crashing, steady = (
        EngineChooser(engine_command(*options)) for options in (["--crash-at", "3"], [])
    )
    state, moves = START, list[Move]()
    try:
        with pytest.raises(OutsideFailure) as failure:
            while True:
                chooser = crashing if state.turn is Player.RED else steady
                moves.append(await chooser.choose(state, 5.0, moves))
                state = state.play(moves[-1])
        assert (len(moves), failure.value.kind) == (4, FailureKind.CRASH)
        assert "status 3: Traceback: something broke at move 3" in failure.value.detail
        assert crashing.pid is None
        assert await steady.choose(state.drop(6), 5.0) == Move.drop(0)  # unharmed
    finally:
        await crashing.close()
        await steady.close()


@pytest.mark.parametrize("log", [False, True])
async def test_standard_error_never_reaches_the_screen(
    tmp_path: Path, capfd: pytest.CaptureFixture[str], log: bool
) -> None:
    limits = Limits(stderr_log=tmp_path / "chatty.log" if log else None)
    red, yellow = (EngineChooser(engine_command("--chatty"), limits=limits) for _ in "ry")
    final, _ = await play_game(red, yellow, time_limit=20.0)
    assert final.is_over
    assert capfd.readouterr() == ("", "")
    assert (tmp_path / "chatty.log").exists() is log


async def test_memory_past_the_limit_is_a_crash_for_an_engine_and_an_agent(tmp_path: Path) -> None:
    hog = EngineChooser(engine_command("--hog"), limits=Limits(memory_mb=512))
    assert (await failure_of(hog, START, 5.0)).kind is FailureKind.CRASH
    path = tmp_path / "hog.py"
    path.write_text("def agent(o, c):\n    return len(bytearray(1 << 32))\n")
    failure = await failure_of(KaggleChooser(path, limits=Limits(memory_mb=512)), START, 5.0)
    assert failure.kind is FailureKind.CRASH
    if confinement.usable_hierarchy("memory") is None:  # RLIMIT_AS: Python says so itself
        assert "MemoryError" in failure.detail
    else:
        assert "used more than 512 MB (all its processes together)" in failure.detail


@in_a_cgroup
def test_a_cgroup_an_earlier_c4tui_left_is_ended_and_removed() -> None:
    hierarchy = confinement.usable_hierarchy("pids")
    assert hierarchy is not None
    left = hierarchy[0] / "c4tui-4194304-0"  # above any pid Linux gives (PID_MAX_LIMIT)
    left.mkdir()
    sleeper = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
    try:
        (left / "cgroup.procs").write_text(str(sleeper.pid))
        confinement._clear_abandoned(hierarchy[0])
        assert sleeper.wait(10) == -9
    finally:
        sleeper.kill()
        sleeper.wait()
        confinement._remove_cgroup(left)
    confinement._clear_abandoned(hierarchy[0])
    assert not left.exists()


FORKS_UNTIL_REFUSED = """
import os, time
children = []
while True:
    try:
        child = os.fork()
    except OSError:
        break
    if child == 0:
        time.sleep(30)
        os._exit(0)
    children.append(child)
for child in children:
    os.kill(child, 9)
    os.waitpid(child, 0)
print(len(children))
"""


def test_rlimit_nproc_bounds_a_user_who_is_not_root() -> None:
    """The bound where no cgroup is made: as this user, or as nobody when this is root."""
    python, prefix = sys.executable, list[str]()
    if os.geteuid() == 0:
        if shutil.which("setpriv") is None or not Path("/usr/bin/python3").exists():
            pytest.skip("root, and no setpriv or /usr/bin/python3 to be another user with")
        python = "/usr/bin/python3"  # (this one's virtual environment may be root's only)
        prefix = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]
    limits = [str(Path(limits_runner.__file__)), "--max-processes", "20", "--"]
    done = subprocess.run(
        [*prefix, python, "-I", "-S", *limits, python, "-c", FORKS_UNTIL_REFUSED],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    assert 0 < int(done.stdout) <= 20, done.stderr


ORPHAN_SCRIPT = """
import asyncio, sys
from c4tui.engine import GameState
from c4tui.outside.engine_chooser import EngineChooser

async def main():
    engine = EngineChooser(sys.argv[1])
    asyncio.ensure_future(engine.choose(GameState.new(), 60.0, []))
    while engine.pid is None:
        await asyncio.sleep(0.05)
    await asyncio.sleep(1.5)  # past its start: asked for a move, it sleeps (not reading)
    print(engine.pid, flush=True)
    await asyncio.sleep(60)

asyncio.run(main())
"""


def test_a_program_whose_caller_is_killed_outright_does_not_outlive_it(tmp_path: Path) -> None:
    """SIGKILL gives c4tui no time to end its programs: Linux ends them (PR_SET_PDEATHSIG)."""
    mark = f"orphan-{tmp_path.name}"
    script = tmp_path / "caller.py"
    script.write_text(ORPHAN_SCRIPT, encoding="utf-8")
    caller = subprocess.Popen(
        [sys.executable, str(script), engine_command("--late", "60", mark)],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert caller.stdout is not None
        engine = int(caller.stdout.readline())
        assert engines_alive(mark)
    finally:
        caller.kill()
        caller.wait()
    deadline = time.monotonic() + 10
    while (engines_alive(mark) or is_alive(engine)) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not engines_alive(mark) and not is_alive(engine)


@pytest.mark.parametrize(
    ("command", "script"),
    [
        ("python3 my.py --fast", "exec python3 my.py --fast"),
        ("./deep 'two words'", "exec ./deep 'two words'"),
        ("DEPTH=8 ./deep", "DEPTH=8 ./deep"),
        ("cd bots && ./deep", "cd bots && ./deep"),
        ("./deep | tee log", "./deep | tee log"),
    ],
)
def test_a_plain_command_becomes_the_process_itself(command: str, script: str) -> None:
    assert shell_script(command) == script


async def test_a_missing_script_is_said_missing_where_it_was_typed() -> None:
    engine = EngineChooser("python3 no_such_engine.py")
    failure = await failure_of(engine, GameState.new(), 5.0)
    assert failure.kind is FailureKind.CRASH
    assert str(Path.cwd() / "no_such_engine.py") in failure.detail
    assert "c4tui-program-" not in failure.detail  # not the program's own temporary folder


@pytest.mark.skipif(
    confinement.usable_hierarchy("cpu") is None, reason="no cpu cgroup can be made here"
)
async def test_a_program_uses_one_core_at_most_however_many_processes_it_runs(
    tmp_path: Path,
) -> None:
    path = tmp_path / "spinner.py"
    path.write_text(
        dedent(
            """
            import os, sys, time

            def spin(seconds):
                end = time.monotonic() + seconds
                while time.monotonic() < end:
                    pass

            def agent(observation, configuration):
                started, child = time.monotonic(), os.fork()
                spin(1.5)
                if child == 0:
                    os._exit(0)
                os.waitpid(child, 0)
                used = sum(os.times()[:4])  # its own and its child's CPU
                print("cores", used / (time.monotonic() - started), file=sys.stderr)
                return 0
            """
        )
    )
    log = tmp_path / "spinner.log"
    agent = KaggleChooser(path, limits=Limits(stderr_log=log))
    try:
        assert await agent.choose(START, 20.0) == Move.drop(0)
    finally:
        await agent.close()
    cores = float(log.read_text().split()[-1])
    assert 0 < cores < 1.3  # two busy processes, one core between them
