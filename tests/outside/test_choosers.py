"""The built-in levels as choosers, every kind meeting every other, and reading PLAYER specs."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from c4tui.engine import GameState, Move, Rules
from c4tui.match.pool import SearchPool
from c4tui.outside.chooser import ChooserError, game_so_far
from c4tui.outside.engine_chooser import EngineChooser
from c4tui.outside.kaggle import KaggleChooser
from c4tui.outside.levels import LevelChooser
from c4tui.outside.spec import chooser_for
from tests.engine_helpers import play
from tests.outside.helpers import CENTRE_AGENT, engine_command, play_game


@pytest.fixture
async def pool() -> AsyncIterator[SearchPool]:
    searches = SearchPool(workers=1)
    yield searches
    searches.shutdown()


async def test_a_level_an_engine_and_an_agent_play_each_other(pool: SearchPool) -> None:
    level = LevelChooser("medium", pool=pool)
    engine = EngineChooser(engine_command())
    agent = KaggleChooser(CENTRE_AGENT)
    for red, yellow in [(level, engine), (agent, level), (engine, agent)]:
        final, moves = await play_game(red, yellow, time_limit=10.0)
        assert final.is_over
        assert GameState.new().play_all(moves) == final


async def test_a_level_keeps_to_the_time_limit_and_plays_pop_out(pool: SearchPool) -> None:
    level = LevelChooser("random", seed=1, pool=pool)
    state = play("d1 d2 p1")
    assert state.is_legal(await level.choose(state, 0.1))
    assert level.name == "random"
    assert level.describe() == "c4tui's Random"
    assert level.refusal(7, 6, Rules.POPOUT) is None


async def test_a_chooser_is_not_asked_about_an_ended_game_or_without_time() -> None:
    level = LevelChooser("random")
    with pytest.raises(ChooserError, match="game is over"):
        await level.choose(play("d1 d2 d1 d2 d1 d2 d1", rules=Rules.CLASSIC), 1.0)
    with pytest.raises(ChooserError, match="needs some time"):
        await level.choose(GameState.new(), 0)


def test_moves_given_must_be_a_game() -> None:
    with pytest.raises(ChooserError, match="not a game"):
        game_so_far(GameState.new(), [Move.drop(9)])
    assert game_so_far(GameState.new().drop(3), None) == (Move.drop(3),)


def test_player_specs_name_each_kind(tmp_path: Path) -> None:
    engine = chooser_for("engine:./my_engine --depth=3")
    assert isinstance(engine, EngineChooser)
    assert engine.command == "./my_engine --depth=3"
    assert engine.name == "my_engine"
    named = chooser_for("deep=engine:python3 deep.py")
    assert isinstance(named, EngineChooser)
    assert (named.name, named.command) == ("deep", "python3 deep.py")
    agent = chooser_for(f"kaggle:{CENTRE_AGENT}")
    assert isinstance(agent, KaggleChooser)
    assert agent.name == "centre_agent"
    assert chooser_for(f"centre=kaggle:{CENTRE_AGENT}").name == "centre"
    perfect = chooser_for("Perfect")
    assert isinstance(perfect, LevelChooser)
    assert perfect.name == "perfect"
    assert chooser_for("strong=hard").name == "strong"
    assert chooser_for(f"{'n' * 32}=hard").name == "n" * 32  # the longest name
    assert chooser_for("v1.2_beta-3=hard").name == "v1.2_beta-3"


@pytest.mark.parametrize(
    ("spec", "says"),
    [
        ("grandmaster", "is not a player: give engine:COMMAND, kaggle:AGENT"),
        ("engine:", "engine: needs the command that starts the program after the colon"),
        ("engine:   ", "engine: needs the command"),
        (
            "kaggle:",
            r"kaggle: needs the agent \(a \.py file, a folder with main\.py, or a \.tar\.gz\)",
        ),
        ("kaggle:no_such_agent.py", "there is no file 'no_such_agent.py'"),
        ("name=", "is not a player"),
        ("", "is not a player"),
    ],
)
def test_anything_else_is_refused_saying_what_is_expected(spec: str, says: str) -> None:
    with pytest.raises(ChooserError, match=says):
        chooser_for(spec)


def test_a_bare_python_file_is_a_kaggle_agent(tmp_path: Path) -> None:
    """``c4tui tournament class/*.py``: the shell's list of a folder's agents."""
    agent = tmp_path / "ann.py"
    agent.write_text("def agent(observation, configuration):\n    return 3\n", encoding="utf-8")
    chooser = chooser_for(str(agent))
    assert isinstance(chooser, KaggleChooser) and chooser.name == "ann"
    with pytest.raises(ChooserError, match="there is no file"):
        chooser_for(str(tmp_path / "bob.py"))
