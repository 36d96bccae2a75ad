"""Redo after undo: the game's history (pure), and the driver playing undone moves again."""

from __future__ import annotations

import asyncio

from c4tui.engine import GameState, Move, Player
from c4tui.match.backends import PersonBackend
from c4tui.match.driver import MatchDriver
from c4tui.match.events import MatchEvent, MovesRedone, MovesTakenBack
from c4tui.match.history import GameHistory
from c4tui.match.settings import MatchSettings
from tests.seats import SlowSeat


def drops(*columns: int) -> tuple[Move, ...]:
    return tuple(Move.drop(column) for column in columns)


async def started(driver: MatchDriver, *columns: int) -> list[MatchEvent]:
    """Start ``driver``, the person here dropping in ``columns``; the events from the start."""
    events: list[MatchEvent] = []
    driver.subscribe(events.append)
    driver.start()
    for column in columns:
        await driver.settled()
        assert driver.submit(Move.drop(column)) is None
        await asyncio.sleep(0)  # the computer's answer, if any, is asked for
    await driver.settled()
    return events


def test_each_undo_is_one_step_that_redo_plays_again_latest_first() -> None:
    history = GameHistory(GameState.new(), drops(3, 4, 2, 5))
    assert history.undo(until=lambda state: state.turn is Player.RED) == 2
    assert history.undo(until=lambda state: True) == 1
    assert history.moves == drops(3) and history.can_redo
    assert history.redo() == 1 and history.moves == drops(3, 4)
    assert history.redo() == 2 and history.moves == drops(3, 4, 2, 5)
    assert history.redo() == 0 and not history.can_redo
    assert len(history.positions) == 5
    assert history.state == GameState.new().play_all(drops(3, 4, 2, 5))


def test_a_new_move_or_a_restart_forgets_what_was_undone() -> None:
    history = GameHistory(GameState.new(), drops(3, 4))
    history.undo(until=lambda state: True)
    history.play(Move.drop(0))
    assert not history.can_redo and history.redo() == 0
    assert history.moves == drops(3, 0)
    history.undo(until=lambda state: True)
    history.restart()
    assert not history.can_redo and history.moves == ()
    assert history.undo(until=lambda state: True) == 0 and not history.can_redo


async def test_two_players_redo_one_move_per_undo_until_a_new_move() -> None:
    driver = MatchSettings().driver()
    events = await started(driver, 3, 4, 2)
    assert not driver.can_redo() and not driver.redo()
    assert driver.undo() and driver.undo()
    await driver.settled()
    assert driver.redo() and driver.moves == drops(3, 4)
    await driver.settled()
    assert driver.state.turn is Player.RED and driver.awaiting_submission()
    assert driver.can_redo()
    assert driver.submit(Move.drop(6)) is None  # a new move: the undone d3 is gone
    assert not driver.can_redo()
    await driver.settled()
    assert not driver.redo() and driver.moves == drops(3, 4, 6)
    redone = [e for e in events if isinstance(e, MovesRedone)]
    assert [(e.count, e.moves) for e in redone] == [(1, drops(3, 4))]
    await driver.close()


async def test_redo_against_the_computer_plays_your_move_and_its_reply_again() -> None:
    driver = MatchSettings(opponent="computer", ai_delay=0.0, seed=3).driver()
    await started(driver, 3, 2)
    played = driver.moves
    assert len(played) == 4
    assert driver.undo() and driver.undo() and driver.moves == ()
    assert driver.redo()
    await driver.settled()
    assert driver.moves == played[:2] and driver.awaiting_submission()
    assert driver.redo()
    await driver.settled()
    assert driver.moves == played and driver.state.turn is Player.RED
    assert not driver.can_redo()
    await driver.close()


async def test_redo_of_a_move_undone_while_the_computer_thought_lets_it_think_again() -> None:
    """Undo mid-thought takes back your move alone; redo plays it, and the computer (its
    first thought cancelled) is asked again: one loop, never two answers racing."""
    slow = SlowSeat()
    driver = MatchDriver(GameState.new(), {Player.RED: PersonBackend(), Player.YELLOW: slow})
    events = await started(driver)
    assert driver.submit(Move.drop(3)) is None
    await asyncio.wait_for(slow.asked.wait(), 5)
    assert driver.undo()
    await driver.settled()
    assert slow.cancelled
    slow.asked.clear()
    slow.cancelled = False
    assert driver.redo() and driver.moves == drops(3)
    await asyncio.wait_for(slow.asked.wait(), 5)  # thinking again about its reply
    assert not driver.awaiting_submission() and not driver.can_redo()
    assert driver.undo() and driver.moves == ()  # and undo still works
    await driver.settled()
    assert slow.cancelled
    counts = [
        (type(e).__name__, e.count) for e in events if isinstance(e, MovesTakenBack | MovesRedone)
    ]
    assert counts == [("MovesTakenBack", 1), ("MovesRedone", 1), ("MovesTakenBack", 1)]
    await driver.close()


async def test_restart_leaves_nothing_to_redo() -> None:
    driver = MatchSettings().driver()
    await started(driver, 0)
    assert driver.undo() and driver.can_redo()
    driver.restart()
    await driver.settled()
    assert not driver.can_redo() and not driver.redo()
    await driver.close()
