"""A timed lobby game's clocks as a client shows them (spec/protocols.md §5.4).

The server's clock decides; a client shows its last CLOCK, the mover's time
counting down from the moment it arrived, so that a person sees time pass between
two of the server's readings. One reading and one way of writing a time serve the
app and the console.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from c4tui.engine import Player

#: Below this many milliseconds left, a time shows tenths of a second and counts as low.
LOW_TIME_MS = 10_000


@dataclass(frozen=True)
class ClockReading:
    """The server's CLOCK as it arrived at ``at`` (a steady clock's seconds).

    ``mover``: whose time runs since then (None once the game is over: both stand still).
    """

    red_ms: int
    yellow_ms: int
    mover: Player | None
    at: float

    def left_ms(self, player: Player, now: float) -> int:
        """What ``player`` has left at ``now`` (the mover's time runs; never below 0)."""
        stood = self.red_ms if player is Player.RED else self.yellow_ms
        if player is not self.mover:
            return stood
        return max(0, stood - round((now - self.at) * 1000))

    def stopped(self, now: float) -> ClockReading:
        """The times at ``now``, standing still from then on (the game ended)."""
        red, yellow = self.left_ms(Player.RED, now), self.left_ms(Player.YELLOW, now)
        return ClockReading(red, yellow, None, now)


def both_clocks(reading: ClockReading, names: Mapping[Player, str], now: float) -> str:
    """``RED ann 2:54.3 · YELLOW bob 3:00.0``: both players' times at ``now``, in plain text."""
    return " · ".join(
        f"{player.name} {names[player]} {clock_text(reading.left_ms(player, now), tenths=True)}"
        for player in (Player.RED, Player.YELLOW)
    )


def clock_text(ms: int, *, tenths: bool = False) -> str:
    """``2:54`` (with ``tenths``, ``2:54.3``); below 10 s always ``0:09.3``.

    Tenths are rounded down (0.05 s left shows ``0:00.0``: not yet out); whole
    seconds are rounded up, so a fresh minute shows ``1:00`` for its first second.
    """
    if tenths or ms < LOW_TIME_MS:
        minutes, rest = divmod(ms // 100, 600)
        return f"{minutes}:{rest // 10:02d}.{rest % 10}"
    minutes, seconds = divmod(-(-ms // 1000), 60)
    return f"{minutes}:{seconds:02d}"


def is_low(ms: int) -> bool:
    """True when a player's time is low: under 10 s (marked without colour too)."""
    return ms < LOW_TIME_MS
