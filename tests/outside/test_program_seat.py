"""An outside program in a match's seat: it plays through the one driver, and its failure
costs it only its game (the other seat wins, the reason kept)."""

from __future__ import annotations

from c4tui.engine import GameState, Move, Player, Rules
from c4tui.match.backends.program import ProgramBackend
from c4tui.match.driver import MatchDriver
from c4tui.outside.chooser import FailureKind
from c4tui.outside.engine_chooser import EngineChooser
from tests.outside.helpers import engine_command


async def played(red: ProgramBackend, yellow: ProgramBackend, start: GameState) -> MatchDriver:
    """The driver after a whole game between ``red`` and ``yellow`` (their seats closed)."""
    driver = MatchDriver(start, {Player.RED: red, Player.YELLOW: yellow})
    driver.start()
    await driver.settled()
    await driver.close()
    return driver


async def test_a_crash_at_move_three_loses_that_game_with_its_reason() -> None:
    red = ProgramBackend(EngineChooser(engine_command()))
    yellow = ProgramBackend(EngineChooser(engine_command("--crash-at", "3"), name="crashy"))
    driver = await played(red, yellow, GameState.new(7, 6, Rules.POPOUT))
    assert driver.result is not None
    assert driver.result.winner is Player.RED
    assert driver.result.reason.startswith("crashy lost by crash: exited with status 3")
    assert yellow.failure is not None and yellow.failure.kind is FailureKind.CRASH
    assert red.failure is None
    assert len(driver.moves) == 5  # yellow's third move never came


async def test_the_game_is_told_from_its_start_including_an_opening() -> None:
    with_pops = GameState.new(7, 6, Rules.POPOUT).play(Move.drop(3))
    start = with_pops.play(Move.drop(2)).play(Move.pop(3))
    opening = (Move.drop(3), Move.drop(2), Move.pop(3))
    red = ProgramBackend(EngineChooser(engine_command()), opening=opening)
    yellow = ProgramBackend(EngineChooser(engine_command()), opening=opening)
    driver = await played(red, yellow, start)
    assert driver.result is not None and driver.problem is None
    assert red.failure is None and yellow.failure is None
