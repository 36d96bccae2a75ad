"""What a match is: the board, the rules, who plays which colour and how strong the AI is."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from c4tui.ai import AI_LEVELS, AILevel, MovePicker, ai_level
from c4tui.engine import DEFAULT_COLUMNS, DEFAULT_ROWS, GameState, Player, Rules


class Mode(Enum):
    """Who sits on the other side of the board."""

    TWO_PLAYERS = "two players on this keyboard"
    COMPUTER = "against the computer"
    NETWORK = "against a network server"


@dataclass(frozen=True)
class MatchSettings:
    """Everything the menu decides. ``seed`` makes the AI repeatable (tests, snapshots)."""

    mode: Mode = Mode.TWO_PLAYERS
    columns: int = DEFAULT_COLUMNS
    rows: int = DEFAULT_ROWS
    rules: Rules = Rules.CLASSIC
    human_colour: Player = Player.RED
    ai_level: str = "random"
    seed: int | None = None
    ai_delay: float = 0.4  # seconds the computer "thinks" at least, so its move can be seen

    def new_game(self) -> GameState:
        """The empty board these settings describe."""
        return GameState.new(self.columns, self.rows, self.rules)

    def describe(self) -> str:
        """Two short lines for the screen: ``7 × 6 Pop Out`` / ``vs computer (Random)``."""
        rules = "Pop Out" if self.rules is Rules.POPOUT else "Classic"
        opponent = "two players"
        if self.mode is Mode.COMPUTER:
            opponent = f"vs computer ({ai_level(self.ai_level).name})"
        elif self.mode is Mode.NETWORK:
            opponent = "vs network server"
        return f"{self.columns} × {self.rows} {rules}\n{opponent}"


__all__ = ["AI_LEVELS", "AILevel", "MatchSettings", "Mode", "MovePicker", "ai_level"]
