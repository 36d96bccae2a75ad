"""Kaggle agents as Kaggle runs them: a file, a folder or a ``.tar.gz`` at
/kaggle_simulations/agent, Kaggle's whole configuration, the overage, and ``--seed``."""

from __future__ import annotations

import asyncio
import io
import json
import tarfile
from pathlib import Path
from textwrap import dedent

import pytest

from c4tui.engine import GameState, Move
from c4tui.outside.chooser import ChooserError, OutsideFailure
from c4tui.outside.kaggle import MAX_SUBMISSION_FILES, KaggleChooser
from c4tui.outside.program import Limits

START = GameState.new()

#: An agent that plays the column its book beside it names, opened as Kaggle's examples do.
BOOK_AGENT = """
import json

def agent(observation, configuration):
    with open("book.json") as book:  # relative: the working folder is the agent's
        return json.load(book)["first"]
"""


def submission_folder(folder: Path) -> Path:
    folder.mkdir()
    (folder / "main.py").write_text(dedent(BOOK_AGENT))
    (folder / "book.json").write_text(json.dumps({"first": 5}))
    return folder


def archive_of(folder: Path, archive: Path) -> Path:
    with tarfile.open(archive, "w:gz") as tar:
        for path in sorted(folder.iterdir()):
            tar.add(path, arcname=path.name)
    return archive


async def first_move(agent: KaggleChooser, time_limit: float = 10.0) -> Move:
    try:
        return await agent.choose(START, time_limit)
    finally:
        await agent.close()


@pytest.mark.usefixtures("sandbox")
async def test_a_folder_with_main_py_reads_the_book_beside_it(tmp_path: Path) -> None:
    agent = KaggleChooser(submission_folder(tmp_path / "ann"))
    assert agent.name == "ann"
    assert await first_move(agent) == Move.drop(5)


@pytest.mark.usefixtures("sandbox")
async def test_a_tar_gz_submission_is_unpacked_once_and_run(tmp_path: Path) -> None:
    archive = archive_of(submission_folder(tmp_path / "bob"), tmp_path / "submission.tar.gz")
    agent = KaggleChooser(archive)
    unpacked = agent._folder
    assert unpacked != tmp_path / "bob" and (unpacked / "book.json").exists()
    assert await first_move(agent) == Move.drop(5)
    assert KaggleChooser(archive)._folder == unpacked  # the next game's: not unpacked again


def test_a_submission_of_too_many_files_is_refused_not_unpacked(tmp_path: Path) -> None:
    bomb = tmp_path / "bomb.tar.gz"
    with tarfile.open(bomb, "w:gz") as tar:
        for number in range(MAX_SUBMISSION_FILES + 1):
            tar.addfile(tarfile.TarInfo(f"f{number}"), io.BytesIO(b""))
    with pytest.raises(ChooserError, match=f"more than {MAX_SUBMISSION_FILES} files"):
        KaggleChooser(bomb)


@pytest.mark.usefixtures("sandbox")
async def test_a_folder_of_many_files_starts_without_freezing_c4tui(tmp_path: Path) -> None:
    folder = submission_folder(tmp_path / "many")
    for number in range(900):  # bubblewrap's options for them pass 64 kB
        (folder / f"{'padding-' * 8}{number}.txt").write_text("")
    assert await asyncio.wait_for(first_move(KaggleChooser(folder)), 60) == Move.drop(5)


def test_an_archive_that_reaches_outside_its_folder_is_refused(tmp_path: Path) -> None:
    archive = tmp_path / "evil.tar.gz"
    with tarfile.open(archive, "w:gz") as tar:
        body = b"def agent(o, c):\n    return 0\n"
        for name in ("main.py", "../escaped.py"):
            member = tarfile.TarInfo(name)
            member.size = len(body)
            tar.addfile(member, io.BytesIO(body))
    with pytest.raises(ChooserError, match="cannot be unpacked"):
        KaggleChooser(archive)
    assert not (tmp_path.parent / "escaped.py").exists()
    empty = tmp_path / "empty.tar.gz"
    with tarfile.open(empty, "w:gz"):
        pass
    with pytest.raises(ChooserError, match=r"has no main\.py"):
        KaggleChooser(empty)


async def test_the_agent_gets_kaggles_whole_configuration_and_its_overage(tmp_path: Path) -> None:
    path = tmp_path / "slow.py"
    path.write_text(
        dedent(
            """
            import sys, time

            def agent(observation, configuration):
                print("config", dict(configuration), file=sys.stderr)
                print("overage", observation.remainingOverageTime, file=sys.stderr)
                if observation.step < 2:
                    time.sleep(1.0)  # past its 0.3 s: paid from the overage, as on Kaggle
                return 3
            """
        )
    )
    log = tmp_path / "slow.log"
    agent = KaggleChooser(path, limits=Limits(stderr_log=log, margin=0.1), overage=5.0)
    try:
        assert await agent.choose(START, 0.3) == Move.drop(3)
        assert await agent.choose(START.drop(3).drop(3), 0.3) == Move.drop(3)
    finally:
        await agent.close()
    said = log.read_text().splitlines()
    config = next(line for line in said if line.startswith("config"))
    for key in ("'episodeSteps': 1000", "'actTimeout': 0.3", "'agentTimeout': 60"):
        assert key in config
    assert "'runTimeout': 1200" in config and "'inarow': 4" in config
    overages = [float(line.split()[1]) for line in said if line.startswith("overage")]
    assert overages[0] == 5.0
    assert 3.0 < overages[1] < 4.5  # about 0.7 s of it used


async def test_the_seed_makes_an_agents_random_and_numpy_choices_repeatable(
    tmp_path: Path,
) -> None:
    path = tmp_path / "dice.py"
    path.write_text(
        dedent(
            """
            import random, sys

            def agent(observation, configuration):
                import numpy  # imported late: seeded all the same
                print("drawn", random.random(), numpy.random.random(), file=sys.stderr)
                return random.randrange(configuration.columns)
            """
        )
    )

    async def drawn(seed: int, name: str) -> str:
        log = tmp_path / f"{name}.log"
        await first_move(KaggleChooser(path, limits=Limits(stderr_log=log), seed=seed))
        return log.read_text()

    first, again, other = await drawn(7, "a"), await drawn(7, "b"), await drawn(8, "c")
    assert first.startswith("drawn ") and first == again
    assert other != first


@pytest.mark.usefixtures("sandbox")
async def test_a_link_in_a_submission_does_not_bring_in_what_it_points_at(tmp_path: Path) -> None:
    canary = tmp_path / "canary.txt"  # outside the submission: the teacher's
    canary.write_text("the teacher's secret")
    folder = tmp_path / "eve"
    folder.mkdir()
    (folder / "secret.txt").symlink_to(canary)
    (folder / "main.py").write_text(
        dedent(
            """
            def agent(observation, configuration):
                try:
                    with open("secret.txt") as secret:
                        return 6 if "secret" in secret.read() else 1
                except OSError:
                    return 0
            """
        )
    )
    assert await first_move(KaggleChooser(folder)) == Move.drop(0)  # a dangling link inside


async def test_an_agents_exception_is_shown_never_obeyed(tmp_path: Path) -> None:
    path = tmp_path / "rude.py"
    path.write_text('def agent(o, c):\n    raise ValueError("\\x1b]0;PWNED\\x07\\x1b[2J")\n')
    agent = KaggleChooser(path)
    with pytest.raises(OutsideFailure) as failure:
        await first_move(agent)
    assert "\x1b" not in str(failure.value) and "\x07" not in failure.value.detail
    assert "ValueError: \\x1b]0;PWNED\\x07\\x1b[2J" in failure.value.detail
