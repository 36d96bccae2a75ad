"""The rules of Columns as immutable values: a field of jewels, a faller, time passing.

Rows are numbered from the top. The field keeps ``HIDDEN`` rows above the visible
ones, where a faller starts and where jewels stay when one freezes too high: they
are never shown and never match, but they fall when the jewels below them go, and
the game is over when a freeze leaves any there with no match pending
(``../shared/spec/columns.md``).

Choices the handout leaves open:
- ``F`` while a faller is present or matched jewels are still shown does nothing.
- ``F`` into a column whose top cell is taken makes a faller wholly above the field,
  landed at once: the next tick freezes it there and the game is over.
- Jewels above the field take no part in matches; they fall like the rest, so a
  chain can bring them into the field.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

#: The seven jewel colours, as the handout writes them.
COLOURS = frozenset("STVWXYZ")
#: Rows kept above the field (a faller is three jewels tall).
HIDDEN = 3
MIN_ROWS, MIN_COLUMNS = 4, 3
#: The largest field (the handout sets no limit; without one, a typo of 5555555552 rows
#: would try to allocate them all).
MAX_ROWS, MAX_COLUMNS = 100, 100
#: The four directions a line of matching jewels can run in (row step, column step).
DIRECTIONS = ((0, 1), (1, 0), (1, 1), (1, -1))

Cells = tuple[tuple[str | None, ...], ...]


class ColumnsError(ValueError):
    """A field or faller that the rules do not allow; the message says which rule."""


@dataclass(frozen=True)
class Faller:
    """Three jewels falling in a column; ``bottom`` is the row (with hidden rows) of the lowest."""

    column: int
    bottom: int
    jewels: tuple[str, str, str]  # top to bottom

    def cells(self) -> tuple[tuple[int, int, str], ...]:
        """(row, column, colour) of each jewel, top first."""
        return tuple(
            (self.bottom - 2 + index, self.column, colour)
            for index, colour in enumerate(self.jewels)
        )


@dataclass(frozen=True)
class Field:
    """A whole game: the jewels, the matched ones, the faller, and whether it is over."""

    rows: int
    columns: int
    cells: Cells  # rows + HIDDEN rows, top (hidden) first
    matched: frozenset[tuple[int, int]] = frozenset()
    faller: Faller | None = None
    over: bool = False

    # ----- making one ------------------------------------------------------------------

    @classmethod
    def empty(cls, rows: int, columns: int) -> Field:
        """An empty field (4 to 100 rows, 3 to 100 columns)."""
        if not (MIN_ROWS <= rows <= MAX_ROWS and MIN_COLUMNS <= columns <= MAX_COLUMNS):
            raise ColumnsError(
                f"a field has {MIN_ROWS} to {MAX_ROWS} rows and {MIN_COLUMNS} to {MAX_COLUMNS} "
                "columns"
            )
        return cls(rows, columns, tuple((None,) * columns for _ in range(rows + HIDDEN)))

    @classmethod
    def with_contents(cls, rows: int, columns: int, lines: list[str]) -> Field:
        """A field from ``rows`` lines of ``columns`` characters (a colour or a space).

        The jewels fall into the space below them and matches are marked at once.
        """
        field = cls.empty(rows, columns)
        if len(lines) != rows or any(len(line) != columns for line in lines):
            raise ColumnsError(f"the contents are {rows} lines of {columns} characters")
        grid = [list(row) for row in field.cells]
        for row, line in enumerate(lines):
            for column, character in enumerate(line):
                if character != " " and character not in COLOURS:
                    raise ColumnsError(f"{character!r} is not a jewel colour (S T V W X Y Z)")
                grid[HIDDEN + row][column] = None if character == " " else character
        settled = replace(field, cells=_fallen(grid))
        return settled._mark_matches()

    # ----- what there is to see --------------------------------------------------------

    def jewel(self, row: int, column: int) -> str | None:
        """The frozen jewel in a visible cell (row 0 is the top of the field)."""
        return self.cells[HIDDEN + row][column]

    @property
    def landed(self) -> bool:
        """True when the faller cannot move down (the next tick freezes it)."""
        return self.faller is not None and not self._fits(
            replace(self.faller, bottom=self.faller.bottom + 1)
        )

    # ----- commands ----------------------------------------------------------------------

    def tick(self) -> Field:
        """Time passes: matches vanish, or the faller freezes, or it falls a row."""
        if self.over:
            return self
        if self.matched:
            return self._resolve_matches()
        if self.faller is None:
            return self
        if self.landed:
            return self._freeze()
        return replace(self, faller=replace(self.faller, bottom=self.faller.bottom + 1))

    def create_faller(self, column: int, jewels: tuple[str, str, str]) -> Field:
        """A new faller in 1-based ``column``, its bottom jewel in the top row (or above it).

        Does nothing while a faller or a match is still there.
        """
        if not 1 <= column <= self.columns:
            raise ColumnsError(f"columns are 1 to {self.columns}, not {column}")
        if any(colour not in COLOURS for colour in jewels):
            raise ColumnsError("jewels are S, T, V, W, X, Y or Z")
        if self.over or self.faller is not None or self.matched:
            return self
        faller = Faller(column - 1, HIDDEN, jewels)
        while not self._fits(faller):  # the top cell is taken: it rests above the field
            faller = replace(faller, bottom=faller.bottom - 1)
        return replace(self, faller=faller)

    def rotate(self) -> Field:
        """The bottom jewel goes to the top."""
        if self.faller is None or self.over:
            return self
        top, middle, bottom = self.faller.jewels
        return replace(self, faller=replace(self.faller, jewels=(bottom, top, middle)))

    def shift(self, step: int) -> Field:
        """Move the faller a column left (-1) or right (+1) unless a jewel or the edge is there."""
        if self.faller is None or self.over:
            return self
        moved = replace(self.faller, column=self.faller.column + step)
        return replace(self, faller=moved) if self._fits(moved) else self

    # ----- rules ---------------------------------------------------------------------------

    def _fits(self, faller: Faller) -> bool:
        """True when every jewel of ``faller`` is on an empty cell of the field (or above it)."""
        if not 0 <= faller.column < self.columns or faller.bottom >= self.rows + HIDDEN:
            return False
        return all(
            row < 0 or self.cells[row][faller.column] is None for row, _, _ in faller.cells()
        )

    def _freeze(self) -> Field:
        assert self.faller is not None
        grid = [list(row) for row in self.cells]
        for row, column, colour in self.faller.cells():
            if row >= 0:
                grid[row][column] = colour
        frozen = replace(self, cells=_cells(grid), faller=None)._mark_matches()
        return frozen._check_over()

    def _resolve_matches(self) -> Field:
        grid = [list(row) for row in self.cells]
        for row, column in self.matched:
            grid[row][column] = None
        settled = replace(self, cells=_fallen(grid), matched=frozenset())._mark_matches()
        return settled._check_over()

    def _check_over(self) -> Field:
        """Over when nothing is left to match and a jewel is still above the field."""
        above = any(jewel is not None for row in self.cells[:HIDDEN] for jewel in row)
        return replace(self, over=True) if above and not self.matched else self

    def _mark_matches(self) -> Field:
        """Mark every visible jewel in a line of three or more of one colour."""
        found: set[tuple[int, int]] = set()
        for row in range(HIDDEN, HIDDEN + self.rows):
            for column in range(self.columns):
                colour = self.cells[row][column]
                if colour is not None:
                    for step in DIRECTIONS:
                        found.update(self._line(row, column, step, colour))
        return replace(self, matched=frozenset(found))

    def _line(
        self, row: int, column: int, step: tuple[int, int], colour: str
    ) -> list[tuple[int, int]]:
        """The cells of the run of ``colour`` starting here in direction ``step`` (if 3+)."""
        cells = []
        while (
            HIDDEN <= row < HIDDEN + self.rows
            and 0 <= column < self.columns
            and self.cells[row][column] == colour
        ):
            cells.append((row, column))
            row, column = row + step[0], column + step[1]
        return cells if len(cells) >= 3 else []


def _cells(grid: list[list[str | None]]) -> Cells:
    return tuple(tuple(row) for row in grid)


def _fallen(grid: list[list[str | None]]) -> Cells:
    """Every column's jewels dropped to the bottom, in their order."""
    height = len(grid)
    for column in range(len(grid[0])):
        jewels = [grid[row][column] for row in range(height) if grid[row][column] is not None]
        padded = [None] * (height - len(jewels)) + jewels
        for row in range(height):
            grid[row][column] = padded[row]
    return _cells(grid)
