"""A Kaggle ConnectX agent file as a move-chooser: its own Python process, its failures named."""

from __future__ import annotations

from pathlib import Path
from textwrap import dedent

import pytest

from c4tui.engine import GameState, Move, Rules
from c4tui.outside.chooser import ChooserError, FailureKind, OutsideFailure
from c4tui.outside.kaggle import KaggleChooser, kaggle_request
from c4tui.outside.program import Limits
from tests.engine_helpers import play
from tests.outside.helpers import CENTRE_AGENT, alive_in_group, failure_of, play_game, reaped

START = GameState.new()


def agent_file(folder: Path, body: str, name: str = "agent.py") -> Path:
    path = folder / name
    path.write_text(dedent(body), encoding="utf-8")
    return path


async def test_two_agents_play_a_legal_game_to_its_end() -> None:
    red, yellow = KaggleChooser(CENTRE_AGENT), KaggleChooser(CENTRE_AGENT)
    final, moves = await play_game(red, yellow)
    assert final.is_over
    assert moves[:3] == [Move.drop(3)] * 3
    assert red.name == "centre_agent"
    assert red.describe() == "Kaggle agent centre_agent.py"


def test_the_agent_sees_the_board_as_kaggle_shows_it() -> None:
    request = kaggle_request(play("d1 d2 d1", columns=5, rows=4, rules=Rules.CLASSIC), 2.0)
    assert request["observation"] == {
        "board": [0] * 10 + [1, 0, 0, 0, 0] + [1, 2, 0, 0, 0],
        "mark": 2,
        "step": 3,
        "remainingOverageTime": 60.0,
    }
    assert request["configuration"] == {
        "episodeSteps": 1000,
        "actTimeout": 2,
        "agentTimeout": 60,
        "runTimeout": 1200,
        "inarow": 4,
        "columns": 5,
        "rows": 4,
        "timeout": 2,
    }


async def test_attribute_and_item_access_one_argument_and_numpy_columns(tmp_path: Path) -> None:
    path = agent_file(
        tmp_path,
        """
        import numpy as np

        def helper(x):
            return x

        def my_agent(obs):
            assert obs.board == obs["board"] and obs.mark == 1
            return np.int64(helper(len(obs.board) % 7 + 1))
        """,
    )
    agent = KaggleChooser(path)
    try:
        assert await agent.choose(START, 10.0) == Move.drop(1)
    finally:
        await agent.close()


async def test_the_last_function_defined_is_the_agent_not_an_import(tmp_path: Path) -> None:
    path = agent_file(
        tmp_path,
        """
        def first(observation, configuration):
            return 0

        def second(observation, configuration):
            return configuration.columns - 1

        from random import choice
        """,
    )
    agent = KaggleChooser(path)
    try:
        assert await agent.choose(START, 10.0) == Move.drop(6)
    finally:
        await agent.close()


@pytest.mark.parametrize(
    ("body", "kind", "detail"),
    [
        ("return 1 / 0", FailureKind.CRASH, "ZeroDivisionError: division by zero"),
        ("return 'three'", FailureKind.MALFORMED, "returned 'three', not a column"),
        ("return 2.0", FailureKind.MALFORMED, "returned 2.0, not a column"),
        ("return True", FailureKind.MALFORMED, "returned True, not a column"),
        ("return 0", FailureKind.ILLEGAL, "d1: column 1 is full"),
        ("return -1", FailureKind.ILLEGAL, "column 0 does not exist"),
        ("import time; time.sleep(600)", FailureKind.TIME, "no answer within 0.5 s"),
        ("import sys; sys.exit(4)", FailureKind.CRASH, "exited with status 4"),
    ],
)
async def test_each_failure_is_named_and_its_process_is_gone(
    tmp_path: Path, body: str, kind: FailureKind, detail: str
) -> None:
    path = agent_file(tmp_path, f"def agent(observation, configuration):\n    {body}\n")
    agent = KaggleChooser(path, limits=Limits(memory_mb=512, margin=0.3), overage=0)
    full_first_column = play("d1 d2 d1 d2 d1 d2 d2 d1 d2 d1 d2 d1", rules=Rules.CLASSIC)
    failure = await failure_of(agent, full_first_column, 0.5)
    assert failure.kind is kind
    assert detail in failure.detail


async def test_a_file_that_does_not_load_says_why(tmp_path: Path) -> None:
    agent = KaggleChooser(agent_file(tmp_path, "def agent(:\n"))
    with pytest.raises(OutsideFailure, match=r"crash: could not load agent\.py: SyntaxError"):
        await agent.choose(START, 5.0)
    empty = KaggleChooser(agent_file(tmp_path, "x = 1\n", "empty.py"))
    with pytest.raises(OutsideFailure, match="defines no function"):
        await empty.choose(START, 5.0)


async def test_a_student_finds_the_line_of_their_bug(tmp_path: Path) -> None:
    """The failure names the agent's line; the whole traceback goes to the player's log."""
    log = tmp_path / "flaky.log"
    body = (
        "def helper():\n    raise ValueError('oops, my bug')\n\n"
        "def agent(observation, configuration):\n    return helper()\n"
    )
    agent = KaggleChooser(agent_file(tmp_path, body), limits=Limits(stderr_log=log))
    with pytest.raises(OutsideFailure, match=r"ValueError: oops, my bug \(agent\.py, line 2\)"):
        await agent.choose(START, 5.0)
    assert 'agent.py", line 5, in agent' in log.read_text()
    broken = agent_file(tmp_path, "x = 1\ndef agent(:\n", "broken.py")
    syntax = KaggleChooser(broken, limits=Limits(stderr_log=tmp_path / "broken.log"))
    with pytest.raises(OutsideFailure, match=r"SyntaxError: .*\(broken\.py, line 2\)"):
        await syntax.choose(START, 5.0)
    assert "SyntaxError" in (tmp_path / "broken.log").read_text()


async def test_an_exception_costs_that_move_only_and_closing_reaps(tmp_path: Path) -> None:
    path = agent_file(
        tmp_path,
        """
        def agent(observation, configuration):
            if observation.step == 1:
                raise ValueError("not this time")
            return 3
        """,
    )
    agent = KaggleChooser(path)
    with pytest.raises(OutsideFailure, match="ValueError: not this time"):
        await agent.choose(START.drop(0), 10.0)
    assert await agent.choose(START.drop(0).drop(1), 10.0) == Move.drop(3)  # a fresh process
    pid = agent.pid
    assert pid is not None
    await agent.close()
    assert reaped(pid)
    assert alive_in_group(pid) == []


async def test_prints_go_to_the_log_not_into_the_answers(tmp_path: Path) -> None:
    log = tmp_path / "agent.log"
    agent = KaggleChooser(CENTRE_AGENT, limits=Limits(stderr_log=log))
    try:
        assert await agent.choose(START, 10.0) == Move.drop(3)
    finally:
        await agent.close()
    assert log.read_text() == "thinking 1\n"


async def test_pop_out_is_refused_in_words() -> None:
    agent = KaggleChooser(CENTRE_AGENT)
    assert agent.refusal(7, 6, Rules.POPOUT) == (
        "a Kaggle agent plays classic rules only (ConnectX has no Pop Out)"
    )
    assert agent.refusal(9, 7, Rules.CLASSIC) is None
    with pytest.raises(ChooserError, match="classic rules only"):
        await agent.choose(GameState.new(rules=Rules.POPOUT), 5.0)
    assert agent.pid is None


def test_only_a_python_file_can_be_an_agent(tmp_path: Path) -> None:
    with pytest.raises(ChooserError, match="there is no file"):
        KaggleChooser(tmp_path / "missing.py")
    with pytest.raises(ChooserError, match="not a Kaggle submission"):
        KaggleChooser(agent_file(tmp_path, "", "agent.txt"))
    with pytest.raises(ChooserError, match=r"has no main\.py"):
        KaggleChooser(tmp_path)


async def test_a_folder_agent_imports_modules_beside_it_but_nothing_of_c4tui(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "ann"
    folder.mkdir()
    agent_file(folder, "FAVOURITE = 5\n", "helpers.py")
    main = """
        import helpers

        def agent(observation, configuration):
            return helpers.FAVOURITE
        """
    agent_file(folder, main, "main.py")
    agent = KaggleChooser(folder)
    assert agent.name == "ann"
    try:
        assert await agent.choose(START, 10.0) == Move.drop(5)
    finally:
        await agent.close()


@pytest.mark.usefixtures("sandbox")
async def test_a_single_file_agent_sees_only_itself_not_the_files_beside_it(
    tmp_path: Path,
) -> None:
    agent_file(tmp_path, "FAVOURITE = 5\n", "classmate.py")
    alone = KaggleChooser(
        agent_file(tmp_path, "import classmate\ndef agent(o, c):\n    return 0\n", "alone.py")
    )
    with pytest.raises(OutsideFailure, match="No module named 'classmate'"):
        await alone.choose(START, 10.0)
    nosy = KaggleChooser(
        agent_file(tmp_path, "import kaggle_runner\ndef agent(o, c):\n    return 0\n", "nosy.py")
    )
    with pytest.raises(
        OutsideFailure, match="ModuleNotFoundError: No module named 'kaggle_runner'"
    ):
        await nosy.choose(START, 10.0)
