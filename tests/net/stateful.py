"""What the servers' stateful tests share: how hard hypothesis tries, and waiting for rooms."""

from __future__ import annotations

import contextlib
import time

from hypothesis import HealthCheck, settings

from c4tui.lobby import Lobby


def machine_settings(examples: int, steps: int) -> settings:
    """Settings for a state machine over real sockets (no deadline: the machine is shared)."""
    return settings(
        max_examples=examples,
        stateful_step_count=steps,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow],
    )


def wait_until_rooms_are(rooms: Lobby, wanted: list[str], timeout: float, in_order: bool) -> None:
    """A hang-up is noticed a moment later: wait until the server's rooms are ``wanted``.

    The rooms are read from the test's thread, again if they change meanwhile.
    """
    deadline = time.monotonic() + timeout
    while True:
        with contextlib.suppress(RuntimeError):
            names = list(rooms.rooms)
            if (names if in_order else sorted(names)) == (wanted if in_order else sorted(wanted)):
                return
        assert time.monotonic() < deadline, f"the server's rooms never became {wanted}"
        time.sleep(0.005)
