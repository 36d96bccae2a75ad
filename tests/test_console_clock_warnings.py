"""``console --lobby``'s warnings as the player's own clock runs low (console/clock_warnings.py)."""

from __future__ import annotations

import asyncio
import time

from c4tui.client.clocks import ClockReading
from c4tui.console.clock_warnings import LAST_WARNING_S, WARNING_S, LowTimeWarnings
from c4tui.engine import Player


async def test_a_warning_at_each_mark_of_our_own_time_once() -> None:
    said: list[str] = []
    second = asyncio.Event()

    def say(text: str) -> None:
        said.append(text)
        if len(said) == 2:
            second.set()

    warnings = LowTimeWarnings(Player.RED, say, marks_s=(0.6, 0.3))
    warnings.heard(ClockReading(900, 60_000, Player.RED, time.monotonic()))
    warnings.heard(ClockReading(60_000, 800, Player.YELLOW, time.monotonic()))  # theirs: none
    warnings.heard(ClockReading(800, 800, Player.RED, time.monotonic()))  # ours runs again
    await asyncio.wait_for(second.wait(), 30)
    assert said == ["Your clock: 0.6 seconds left.", "Your clock: 0.3 seconds left."]
    warnings.heard(ClockReading(200, 800, Player.RED, time.monotonic()))  # each mark once
    warnings.close()
    assert len(said) == 2


def test_coming_in_below_a_mark_warns_only_the_lowest_passed() -> None:
    said: list[str] = []
    warnings = LowTimeWarnings(Player.YELLOW, said.append)
    warnings.heard(ClockReading(60_000, 9_000, None, time.monotonic()))  # stood still: told
    warnings.close()
    assert said == [f"Your clock: {LAST_WARNING_S} seconds left."]
    assert WARNING_S > LAST_WARNING_S
