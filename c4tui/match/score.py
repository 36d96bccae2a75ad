"""The running score of a series of rematches (kept while the app runs)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field


@dataclass
class Score:
    """Wins per player name, and draws, over the games of one series."""

    wins: dict[str, int] = field(default_factory=dict)
    draws: int = 0

    def add(self, winner: str | None) -> None:
        """Count one game, won by ``winner`` (None: a draw)."""
        if winner is None:
            self.draws += 1
        else:
            self.wins[winner] = self.wins.get(winner, 0) + 1

    def take_back(self, winner: str | None) -> None:
        """Count a game counted with ``winner`` no more: its end was undone or played anew."""
        if winner is None:
            self.draws = max(0, self.draws - 1)
        elif self.wins.get(winner, 0) > 0:
            self.wins[winner] -= 1

    @property
    def games(self) -> int:
        """How many games were counted."""
        return sum(self.wins.values()) + self.draws

    def describe(self, names: tuple[str, str], shown: Mapping[str, str] | None = None) -> str:
        """One line a player: ``You 2``, ``Hard 1``, ``draws 0`` ("" before any).

        ``shown`` gives a shorter name for a player where there is one (the computer by
        its level: "Computer (Perfect) 1" does not fit the narrow panel's line).
        """
        if not self.games:
            return ""
        short = shown or {}
        lines = [f"{short.get(name, name)} {self.wins.get(name, 0)}" for name in names]
        return "\n".join([*lines, f"draws {self.draws}"])
