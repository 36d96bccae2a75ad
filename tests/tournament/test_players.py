"""The players as given: names told apart, a NAME= given twice refused, unplayable games refused."""

from __future__ import annotations

from pathlib import Path

import pytest

from c4tui.engine import Rules
from c4tui.outside.chooser import ChooserError
from c4tui.tournament.players import Entrant, entrants
from tests.outside.helpers import CENTRE_AGENT, engine_command


def test_names_come_from_the_players_and_the_same_ones_are_told_apart() -> None:
    found = entrants(
        ["random", "random", f"kaggle:{CENTRE_AGENT}", f"engine:{engine_command()}", "x=hard"],
        7,
        6,
        Rules.CLASSIC,
    )
    assert [entrant.name for entrant in found] == [
        "random",
        "random-2",
        "centre_agent",
        "tiny_engine.py",
        "x",
    ]
    assert found[4] == Entrant("x", "hard")
    assert found[1].spec == "random-2=random"


def test_a_name_given_twice_on_purpose_is_refused() -> None:
    with pytest.raises(ChooserError, match="two players are called 'a'"):
        entrants(["a=hard", "a=easy"], 7, 6, Rules.CLASSIC)


def test_a_kaggle_agent_cannot_play_pop_out_and_is_refused_before_anything_starts() -> None:
    with pytest.raises(ChooserError, match="centre_agent cannot play in this tournament"):
        entrants(["hard", f"kaggle:{CENTRE_AGENT}"], 7, 6, Rules.POPOUT)


def test_what_is_no_player_is_refused_in_words(tmp_path: Path) -> None:
    with pytest.raises(ChooserError, match="not a player"):
        entrants(["hard", "grandmaster"], 7, 6, Rules.CLASSIC)
    with pytest.raises(ChooserError):
        entrants(["hard", f"kaggle:{tmp_path / 'missing.py'}"], 7, 6, Rules.CLASSIC)


def test_a_class_s_submissions_of_one_file_name_are_named_after_their_folders(
    tmp_path: Path,
) -> None:
    agents = []
    for student in ("ann", "bob"):
        (tmp_path / student).mkdir()
        agent = tmp_path / student / "submission.py"
        agent.write_text("def agent(observation, configuration):\n    return 3\n")
        agents.append(str(agent))
    found = entrants([*agents, f"cy=kaggle:{agents[0]}", "hard"], 7, 6, Rules.CLASSIC)
    assert [entrant.name for entrant in found] == ["ann", "bob", "cy", "hard"]
