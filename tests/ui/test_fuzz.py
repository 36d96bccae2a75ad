"""Thousands of random key presses across every screen: nothing may raise."""

from __future__ import annotations

import asyncio
import random

import pytest

from c4tui.engine import Rules
from tests.conftest import scaled
from tests.ui.fuzz_keys import send_key
from tests.ui.helpers import SIZE, make_app

KEYS = [
    *"0123456789hpunmq?",
    "left",
    "right",
    "up",
    "down",
    "home",
    "end",
    "enter",
    "space",
    "escape",
    "tab",
    "shift+tab",
    "backspace",
    "question_mark",
    *"abcxyz",
]
PRESSES = scaled(here=800, on_ci=1000)


@pytest.mark.slow
async def test_random_keys_never_crash_the_app() -> None:
    rng = random.Random(20261122)
    app = make_app(opponent="computer", rules=Rules.POPOUT, columns=9, rows=7)
    pressed = 0
    async with app.run_test(size=SIZE) as pilot:
        screens_seen: set[str] = set()
        while pressed < PRESSES:
            key = rng.choice(KEYS)
            if key == "q":  # quitting would end the test early; everything else goes
                continue
            send_key(app, key)
            pressed += 1
            await asyncio.sleep(0.002)
            screens_seen.add(type(app.screen).__name__)
            if pressed % 50 == 0:
                await pilot.pause()
                assert app._exception is None, f"after {pressed} keys"
        await pilot.pause()
        assert app.return_code is None
    assert {"MenuScreen", "GameScreen", "HelpScreen"} <= screens_seen
    assert app._exception is None
