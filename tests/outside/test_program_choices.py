"""An outside program chosen on the command line (``--opponent engine:CMD|kaggle:FILE.py``,
``--seconds``) and kept in a game's record, so the game continues against it."""

from __future__ import annotations

import pytest

from c4tui.cli import build_parser
from c4tui.cli.app import app_settings
from c4tui.engine import Player, Rules
from c4tui.match.backends import PersonBackend, ProgramBackend, opponent_kind
from c4tui.match.driver import MatchDriver
from c4tui.match.record import match_record, settings_to_continue
from c4tui.match.settings import MatchSettings
from c4tui.records import format_record, parse_record
from tests.outside.helpers import CENTRE_AGENT, engine_command
from tests.process_helpers import run_c4tui

ENGINE = f"engine:{engine_command()}"


@pytest.mark.parametrize("command", [(), ("console",)], ids=["app", "console"])
@pytest.mark.parametrize(
    ("given", "said"),
    [
        (["--opponent", "deep4"], "'deep4' will not do: give human, a level (random, easy"),
        (["--opponent", "kaggle:no/such/agent.py"], "there is no file 'no/such/agent.py'"),
        (["--opponent", "engine:"], "engine: needs the command that starts the program"),
        (  # issue 40 #14: refused before the game, not after the first move
            ["--opponent", "engine:nonexistent-engine-40"],
            "'engine:nonexistent-engine-40' cannot start: there is no program "
            "'nonexistent-engine-40' on PATH",
        ),
        (
            ["--opponent", "engine:python3 no/such/engine.py"],
            "the command names 'no/such/engine.py', and there is no such file",
        ),
        (["--opponent", "engine:./no-such-engine"], "no program './no-such-engine' (no such"),
        (["--opponent", ENGINE, "--seconds", "0"], "seconds per move: from 0.1 to 60"),
        (["--opponent", "hard", "--seconds", "2"], "--seconds is a program's time a move"),
    ],
)
def test_a_bad_opponent_or_time_is_refused_in_words(
    command: tuple[str, ...], given: list[str], said: str
) -> None:
    result = run_c4tui(*command, *given)
    assert result.returncode == 2
    assert said in result.stderr and "Traceback" not in result.stderr


def test_the_app_starts_against_a_program_with_its_time_and_colour() -> None:
    args = build_parser().parse_args(
        ["--opponent", f"kaggle:{CENTRE_AGENT}", "--seconds", "2.5", "--color", "yellow"]
    )
    settings, at_once = app_settings(args)
    assert at_once and settings.kind is ProgramBackend
    assert settings.options == {"program": f"kaggle:{CENTRE_AGENT}", "seconds": "2.5"}
    assert settings.person_colour is Player.YELLOW


def test_the_seconds_default_to_one_a_move() -> None:
    settings, _ = app_settings(build_parser().parse_args(["--opponent", ENGINE]))
    assert settings.options["seconds"] == "1"


def test_a_game_against_a_program_is_saved_and_continued_against_it() -> None:
    command = f"{ENGINE} --late 0.1"  # spaces and a quote-worthy command
    settings = MatchSettings(opponent="program", options={"program": command, "seconds": "2"})
    seats = {Player.RED: PersonBackend("You"), Player.YELLOW: PersonBackend("Program")}
    driver = MatchDriver(settings.new_game(), seats)
    text = format_record(match_record(settings, driver))
    assert "Opponent: program program='engine:" in text
    record = parse_record(text)
    assert record.opponent == "program" and record.options == settings.options
    again = settings_to_continue(record, MatchSettings())
    assert opponent_kind(again.opponent) is ProgramBackend
    assert again.options["program"] == command


def test_a_kaggle_agent_asked_for_pop_out_plays_classic() -> None:
    asked = MatchSettings(
        opponent="program", options={"program": f"kaggle:{CENTRE_AGENT}"}, rules=Rules.POPOUT
    )
    assert asked.fitted().rules is Rules.CLASSIC
    engine = MatchSettings(opponent="program", options={"program": ENGINE}, rules=Rules.POPOUT)
    assert engine.fitted() == engine
