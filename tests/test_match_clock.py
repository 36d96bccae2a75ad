"""Timed games here (issue 40): the clock with time moved by hand, then real flags in the driver."""

from __future__ import annotations

import asyncio
import time

import pytest

from c4tui.ai.levels import ai_level
from c4tui.engine import GameState, Move, Player
from c4tui.match.backends import ComputerBackend, PersonBackend
from c4tui.match.driver import MatchDriver
from c4tui.match.events import GameOver, MatchEvent, TurnStarted
from c4tui.match.record import match_record
from c4tui.match.running_clock import MatchClock
from c4tui.match.settings import MatchSettings
from c4tui.match.timing import HomeClock, parse_home_clock
from c4tui.records import Result, format_record, parse_record
from tests.seats import SlowSeat


class FakeTime:
    """A steady clock that moves only when told."""

    def __init__(self) -> None:
        self.now = 500.0

    def __call__(self) -> float:
        return self.now


@pytest.mark.parametrize(
    ("text", "initial_ms", "increment_ms"),
    [
        ("3+2", 180_000, 2000),
        ("0.5+0", 30_000, 0),
        ("60+60", 3_600_000, 60_000),
        (" 1+0 ", 60_000, 0),
    ],
)
def test_a_clock_is_typed_as_minutes_plus_seconds(
    text: str, initial_ms: int, increment_ms: int
) -> None:
    clock = parse_home_clock(text)
    assert (clock.initial_ms, clock.increment_ms) == (initial_ms, increment_ms)
    assert parse_home_clock(clock.text) == clock


@pytest.mark.parametrize(
    "text", ["", "3", "3+", "+2", "0+5", "0.05+0", "61+0", "3+61", "3:2", "³+2", "1.234+0", "-1+0"]
)
def test_what_is_not_a_clock_is_refused_saying_what_will_do(text: str) -> None:
    with pytest.raises(ValueError, match=r"e\.g\. 3\+2 or 0\.5\+0"):
        parse_home_clock(text)


def test_the_movers_time_runs_and_a_move_adds_the_increment() -> None:
    now = FakeTime()
    clock = MatchClock(HomeClock(60_000, 2000), now)
    reading = clock.reading()
    assert (reading.red_ms, reading.yellow_ms, reading.mover) == (60_000, 60_000, None)
    clock.start(Player.RED)
    now.now += 10
    assert clock.reading().left_ms(Player.RED, now.now) == 50_000
    assert clock.seconds_left() == pytest.approx(50)
    clock.moved()  # red took 10 s and gets 2 back; yellow's time runs now
    now.now += 4
    reading = clock.reading()
    assert (reading.red_ms, reading.yellow_ms, reading.mover) == (52_000, 56_000, Player.YELLOW)
    assert clock.seconds_left() == pytest.approx(56)


def test_a_clock_that_stopped_stands_still_and_a_flag_leaves_no_time() -> None:
    now = FakeTime()
    clock = MatchClock(HomeClock(6000, 0), now)
    clock.start(Player.YELLOW)  # a game continued with yellow to move
    now.now += 7
    assert clock.seconds_left() == 0
    clock.stop()
    now.now += 100
    reading = clock.reading()
    assert (reading.red_ms, reading.yellow_ms, reading.mover) == (6000, 0, None)
    clock.moved()  # nothing runs once stopped
    assert clock.reading() == reading


def _result(events: list[MatchEvent]) -> GameOver:
    ends = [event for event in events if isinstance(event, GameOver)]
    assert len(ends) == 1
    return ends[0]


async def test_the_computers_flag_falls_while_it_thinks_and_its_search_is_cancelled() -> None:
    slow = SlowSeat()  # takes a minute a move: far beyond its second
    driver = MatchDriver(
        GameState.new(),
        {Player.RED: slow, Player.YELLOW: PersonBackend()},
        clock=HomeClock(1000, 0),
    )
    events: list[MatchEvent] = []
    driver.subscribe(events.append)
    began = time.monotonic()
    result = await asyncio.wait_for(driver.run(), 30)
    assert time.monotonic() - began >= 0.9  # its whole second, and not a minute
    assert result is not None and result.winner is Player.YELLOW
    assert result.reason == "Red lost on time" and result.flagged is Player.RED
    assert _result(events) == result
    await asyncio.sleep(0.05)
    assert slow.cancelled
    assert driver.clock is not None and driver.clock.reading().red_ms == 0
    assert driver.submit(Move.drop(3)) == "the game is over"
    await driver.close()


async def test_a_person_who_does_not_move_loses_on_time_and_cannot_undo() -> None:
    computer = ComputerBackend(ai_level("random"), seed=1)
    driver = MatchDriver(
        GameState.new(),
        {Player.RED: PersonBackend(), Player.YELLOW: computer},
        clock=HomeClock(1500, 0),
    )
    events = driver.listen()
    driver.start()
    await asyncio.wait_for(driver.settled(), 10)
    assert driver.submit(Move.drop(3)) is None  # red moves at once, then sits and waits
    result = await asyncio.wait_for(driver.run(), 30)
    assert result is not None and result.reason == "Red lost on time"
    assert len(driver.moves) == 2  # red's move and the computer's answer
    assert not driver.takes_moves_back and not driver.can_undo() and not driver.undo()
    seen = [events.get_nowait() for _ in range(events.qsize())]
    assert [e.player for e in seen if isinstance(e, TurnStarted)] == [
        Player.RED,
        Player.YELLOW,
        Player.RED,
    ]
    reading = driver.clock.reading() if driver.clock else None
    assert reading is not None and reading.red_ms == 0 and 0 < reading.yellow_ms <= 1500
    await driver.close()


async def test_the_record_of_a_game_lost_on_time_says_so_and_reads_back() -> None:
    settings = MatchSettings(opponent="human", clock=HomeClock(1000, 0))
    driver = settings.driver()
    await asyncio.wait_for(driver.run(), 30)  # nobody moves: red's flag falls
    record = match_record(settings, driver)
    text = format_record(record)
    assert "Result: yellow wins (Red lost on time)" in text
    again = parse_record(text)
    assert (again.result, again.reason) == (Result.YELLOW, "Red lost on time")
    await driver.close()


async def test_a_new_game_after_a_flag_starts_both_clocks_afresh() -> None:
    driver = MatchDriver(
        GameState.new(),
        {Player.RED: PersonBackend(), Player.YELLOW: PersonBackend()},
        clock=HomeClock(1000, 0),
    )
    result = await asyncio.wait_for(driver.run(), 30)
    assert result is not None and result.flagged is Player.RED
    driver.restart()  # n, or a rematch's new driver: the same clock, full again
    await asyncio.wait_for(driver.settled(), 10)
    assert driver.result is None and driver.clock is not None
    reading = driver.clock.reading()
    assert reading.mover is Player.RED and reading.yellow_ms == 1000
    assert driver.submit(Move.drop(3)) is None
    result = await asyncio.wait_for(driver.run(), 30)
    assert result is not None and result.reason == "Yellow lost on time"
    await driver.close()
