"""Bit-level board arithmetic: the fast core that the rules and the AI share.

A board of one colour is a Python int. Columns are laid out one after another,
each taking ``rows + 1`` bits: bit ``column * (rows + 1) + row`` (row 0 at the
bottom) is that cell. The extra top bit of every column stays 0; it stops line
checks from wrapping from one column into the next, so a four-in-a-row test is
a handful of shifts and ANDs whatever the board size.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cache

from c4tui.engine.size import check_size


@dataclass(frozen=True, slots=True)
class Geometry:
    """Masks for one board size, computed once and shared by every position."""

    columns: int
    rows: int
    stride: int = field(compare=False)
    bottom: tuple[int, ...] = field(compare=False, repr=False)
    top: tuple[int, ...] = field(compare=False, repr=False)
    column_mask: tuple[int, ...] = field(compare=False, repr=False)
    bottom_row: int = field(compare=False, repr=False)
    full: int = field(compare=False, repr=False)
    shifts: tuple[int, ...] = field(compare=False, repr=False)


@cache
def geometry(columns: int, rows: int) -> Geometry:
    """The masks for a ``columns`` × ``rows`` board (raises BoardSizeError)."""
    check_size(columns, rows)
    stride = rows + 1
    bottom = tuple(1 << (column * stride) for column in range(columns))
    top = tuple(b << (rows - 1) for b in bottom)
    column_mask = tuple(((1 << rows) - 1) << (column * stride) for column in range(columns))
    return Geometry(
        columns=columns,
        rows=rows,
        stride=stride,
        bottom=bottom,
        top=top,
        column_mask=column_mask,
        bottom_row=sum(bottom),
        full=sum(column_mask),
        # vertical, horizontal, and the two diagonals
        shifts=(1, stride, stride - 1, stride + 1),
    )


def has_four(bits: int, shifts: tuple[int, ...]) -> bool:
    """True when ``bits`` holds four (or more) cells in a line."""
    for shift in shifts:
        pairs = bits & (bits >> shift)
        if pairs & (pairs >> (2 * shift)):
            return True
    return False


def four_cells(bits: int, shifts: tuple[int, ...]) -> int:
    """Every cell of ``bits`` that belongs to a line of four or more."""
    cells = 0
    for shift in shifts:
        starts = bits & (bits >> shift) & (bits >> (2 * shift)) & (bits >> (3 * shift))
        for step in range(4):
            cells |= starts << (step * shift)
    return cells


def completing_cells(bits: int, geo: Geometry) -> int:
    """Every cell of the board that would make a line of four with ``bits``.

    For each direction a cell completes four when the three cells beside it in
    one of the line's four placements are in ``bits``: two shifts make the pairs,
    a third the line. (Sentinel rows stop lines at the edges, as in ``has_four``.)
    """
    cells = 0
    for shift in geo.shifts:
        below = (bits << shift) & (bits << (2 * shift))  # the two cells before this one
        cells |= below & ((bits << (3 * shift)) | (bits >> shift))
        above = (bits >> shift) & (bits >> (2 * shift))  # the two cells after it
        cells |= above & ((bits >> (3 * shift)) | (bits << shift))
    return cells & geo.full


def drop_bit(occupied: int, geo: Geometry, column: int) -> int:
    """The bit where a disc dropped into ``column`` lands (0 if the column is full).

    Adding the column's bottom bit to its occupied cells carries up to the first
    empty cell, because a column is always filled from the bottom without gaps.
    """
    return (occupied + geo.bottom[column]) & geo.column_mask[column]


def pop_column(bits: int, geo: Geometry, column: int) -> int:
    """``bits`` with ``column`` shifted down one cell (its bottom cell falls out)."""
    mask = geo.column_mask[column]
    return (bits & ~mask) | (((bits & mask) >> 1) & mask)


def column_height(occupied: int, geo: Geometry, column: int) -> int:
    """How many discs ``column`` holds."""
    return ((occupied & geo.column_mask[column]) >> (column * geo.stride)).bit_length()


def cells(bits: int, geo: Geometry) -> Iterator[tuple[int, int]]:
    """The (column, row) of each board cell set in ``bits``, lowest bit first."""
    bits &= geo.full
    while bits:
        lowest = bits & -bits
        bits ^= lowest
        column, row = divmod(lowest.bit_length() - 1, geo.stride)
        yield column, row


def cell_bit(geo: Geometry, column: int, row: int) -> int:
    """The bit of the cell at ``column``, ``row`` (both 0-based, row 0 at the bottom)."""
    return 1 << (column * geo.stride + row)
