"""A deliberately simple second implementation of rules.md, to check the engine against.

Plain 2-D lists and brute-force line checks: slow, but easy to read and to trust.
Nothing here is shared with the engine on purpose.
"""

from __future__ import annotations

from dataclasses import dataclass, field

EMPTY, RED, YELLOW = ".", "R", "Y"
DIRECTIONS = ((1, 0), (0, 1), (1, 1), (1, -1))


def other(player: str) -> str:
    return YELLOW if player == RED else RED


@dataclass
class ReferenceGame:
    columns: int
    rows: int
    popout: bool
    grid: list[list[str]] = field(default_factory=list)  # grid[column][row], row 0 at bottom
    turn: str = RED
    winner: str | None = None
    draw: bool = False
    seen: list[tuple] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.grid = [[EMPTY] * self.rows for _ in range(self.columns)]
        self.seen = [self._key()]

    def _key(self) -> tuple:
        return (tuple(tuple(column) for column in self.grid), self.turn)

    def is_over(self) -> bool:
        return self.winner is not None or self.draw

    def height(self, column: int) -> int:
        return sum(1 for cell in self.grid[column] if cell != EMPTY)

    def legal(self, kind: str, column: int) -> bool:
        if self.is_over() or not 0 <= column < self.columns:
            return False
        if kind == "d":
            return self.grid[column][self.rows - 1] == EMPTY
        return self.popout and self.grid[column][0] == self.turn

    def legal_moves(self) -> set[tuple[str, int]]:
        return {
            (kind, column)
            for kind in "dp"
            for column in range(self.columns)
            if self.legal(kind, column)
        }

    def has_line(self, player: str) -> bool:
        for column in range(self.columns):
            for row in range(self.rows):
                for dc, dr in DIRECTIONS:
                    cells = [(column + dc * i, row + dr * i) for i in range(4)]
                    if all(
                        0 <= c < self.columns and 0 <= r < self.rows and self.grid[c][r] == player
                        for c, r in cells
                    ):
                        return True
        return False

    def play(self, kind: str, column: int) -> None:
        assert self.legal(kind, column)
        mover = self.turn
        if kind == "d":
            self.grid[column][self.height(column)] = mover
            if self.has_line(mover):
                self.winner = mover
        else:
            self.grid[column] = [*self.grid[column][1:], EMPTY]
            mine, theirs = self.has_line(mover), self.has_line(other(mover))
            if mine:
                self.winner = mover
            elif theirs:
                self.winner = other(mover)
        self.turn = other(mover)
        if self.winner is not None:
            return
        full = all(self.height(c) == self.rows for c in range(self.columns))
        if not self.popout:
            self.draw = full
            return
        self.seen.append(self._key())
        if self.seen.count(self._key()) >= 3 or not self.legal_moves():
            self.draw = True
