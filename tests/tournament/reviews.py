"""Reviews as the solver's review (``c4tui/tournament/review.py``) hands them to the standings."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Slip:
    """A mistake: its game, its move number, the outcome before and after it."""

    game: int
    move: int
    before: str
    after: str

    def words_with_game(self) -> str:
        return f"game {self.game}, move {self.move}: {self.before} → {self.after}"

    def to_json(self) -> dict[str, int | str]:
        return {"game": self.game, "move": self.move, "before": self.before, "after": self.after}


@dataclass(frozen=True)
class Judged:
    """A player's accuracy and costliest mistakes."""

    accuracy: float | None
    mistakes: tuple[Slip, ...] = ()
