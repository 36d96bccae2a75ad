"""The running score between two players online survives their rematches (each a new room)."""

from __future__ import annotations

from pathlib import Path

from textual.pilot import Pilot

from c4tui.ui.screens.challenge import ChallengeDialog
from c4tui.ui.screens.online_game import OnlineGameScreen
from tests.ui.test_challenges_app import zoe_in_the_lobby
from tests.ui.test_lobby_app import text_of, until


def score(pilot: Pilot) -> str:
    """The panel's running score, its phrases' unbreakable spaces as spaces."""
    return text_of(pilot, "#score").replace("\u00a0", " ")


async def test_the_score_against_ann_goes_on_through_a_rematch(tmp_path: Path) -> None:
    async with zoe_in_the_lobby(tmp_path) as (app, pilot, ann):
        assert await ann.ask("CHALLENGE:zoe:5:4:classic:casual") == "CHALLENGE:ACKSTATUS:0"
        await until(pilot, lambda: isinstance(app.screen, ChallengeDialog))
        await pilot.press("a")
        assert await ann.line() == "BEGIN:ann:zoe:5:4:classic"
        await until(pilot, lambda: isinstance(app.screen, OnlineGameScreen))
        first = app.screen
        await ann.send("FORFEIT")  # zoe wins the first
        assert (await ann.line()).endswith(":2:zoe")
        await until(pilot, lambda: "zoe (you) 1" in score(pilot))
        assert await ann.ask("REMATCH") == "REMATCH:ACKSTATUS:0"
        await until(pilot, lambda: isinstance(app.screen, ChallengeDialog))
        await pilot.press("a")
        assert await ann.line() == "BEGIN:zoe:ann:5:4:classic"  # a new room, colours swapped
        await until(pilot, lambda: isinstance(app.screen, OnlineGameScreen))
        rematch = app.screen
        assert rematch is not first
        await until(pilot, lambda: "zoe (you) 1" in score(pilot))  # from the start
        assert "ann 0" in score(pilot)
        await pilot.press("f")  # zoe forfeits the rematch: ann 1, zoe 1
        await pilot.press("y")
        assert (await ann.line()).endswith(":2:ann")
        await until(pilot, lambda: "ann 1" in score(pilot))
        assert "zoe (you) 1" in score(pilot)
