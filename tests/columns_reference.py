"""A deliberately simple Columns, for checking the engine: mutable, brute force, no cleverness.

Rows above the field are negative (-1 just above it); the faller is its three rows and colours.
"""

from __future__ import annotations

DIRECTIONS = ((0, 1), (1, 0), (1, 1), (1, -1))
ABOVE = 3


class ReferenceColumns:
    def __init__(self, rows: int, columns: int, contents: list[str] | None = None) -> None:
        self.rows, self.columns = rows, columns
        self.grid: dict[tuple[int, int], str] = {}
        self.matched: set[tuple[int, int]] = set()
        self.faller: tuple[int, int, list[str]] | None = None  # column, bottom row, colours
        self.over = False
        if contents:
            for row, line in enumerate(contents):
                for column, colour in enumerate(line):
                    if colour != " ":
                        self.grid[(row, column)] = colour
            self.gravity()
            self.mark()

    def free(self, row: int, column: int) -> bool:
        return 0 <= column < self.columns and row < self.rows and (row, column) not in self.grid

    def faller_cells(self) -> list[tuple[int, int, str]]:
        assert self.faller is not None
        column, bottom, colours = self.faller
        return [(bottom - 2 + i, column, colours[i]) for i in range(3)]

    def landed(self) -> bool:
        if self.faller is None:
            return False
        column, bottom, _ = self.faller
        return not self.free(bottom + 1, column)

    def gravity(self) -> None:
        for column in range(self.columns):
            stack = [
                self.grid.pop((row, column))
                for row in range(-ABOVE, self.rows)
                if (row, column) in self.grid
            ]
            for offset, colour in enumerate(reversed(stack)):
                self.grid[(self.rows - 1 - offset, column)] = colour

    def mark(self) -> None:
        self.matched = set()
        for (row, column), colour in self.grid.items():
            for dr, dc in DIRECTIONS:
                triple = [(row + k * dr, column + k * dc) for k in range(3)]
                if all(0 <= r < self.rows and self.grid.get((r, c)) == colour for r, c in triple):
                    self.matched.update(triple)

    def check_over(self) -> None:
        if not self.matched and any(row < 0 for row, _ in self.grid):
            self.over = True

    def command(self, text: str) -> None:
        if self.over:
            return
        if text == "":
            self.tick()
        elif text == "R":
            if self.faller:
                column, bottom, colours = self.faller
                self.faller = (column, bottom, [colours[2], colours[0], colours[1]])
        elif text in "<>":
            if self.faller:
                column, bottom, colours = self.faller
                step = -1 if text == "<" else 1
                if all(
                    r < -ABOVE or self.free(r, column + step) for r in range(bottom - 2, bottom + 1)
                ):
                    self.faller = (column + step, bottom, colours)
        else:
            _, number, a, b, c = text.split()
            if self.faller is None and not self.matched:
                column, bottom = int(number) - 1, 0
                while not all(
                    r < -ABOVE or self.free(r, column) for r in range(bottom - 2, bottom + 1)
                ):
                    bottom -= 1
                self.faller = (column, bottom, [a, b, c])

    def tick(self) -> None:
        if self.matched:
            for cell in self.matched:
                del self.grid[cell]
            self.gravity()
            self.mark()
            self.check_over()
        elif self.faller is not None:
            column, bottom, colours = self.faller
            if self.landed():
                for row, col, colour in self.faller_cells():
                    if row >= -ABOVE:
                        self.grid[(row, col)] = colour
                self.faller = None
                self.mark()
                self.check_over()
            else:
                self.faller = (column, bottom + 1, colours)

    def render(self) -> list[str]:
        falling = {(r, c): colour for r, c, colour in self.faller_cells()} if self.faller else {}
        landed = self.landed()
        lines = []
        for row in range(self.rows):
            line = "|"
            for column in range(self.columns):
                if (row, column) in falling:
                    colour = falling[(row, column)]
                    line += f"|{colour}|" if landed else f"[{colour}]"
                elif (row, column) in self.grid:
                    colour = self.grid[(row, column)]
                    line += f"*{colour}*" if (row, column) in self.matched else f" {colour} "
                else:
                    line += "   "
            lines.append(line + "|")
        lines.append(" " + "-" * 3 * self.columns + " ")
        return lines
