"""The transposition table's entries: where a key lives, and the tag that tells it from others.

The table is one array of 64-bit words, one cache line's read a probe: a word
holds a key's tag below ``BOUND_SHIFT`` and its bound (a byte) above. Its size
is a power of two, so a slot is a multiplication and a mask, never a division.
Written in the subset of Python that Numba compiles, like ``core.py``.
"""

from __future__ import annotations

from c4tui.ai.solver.jit import inlined

#: 2**64 divided by the golden ratio, as a signed 64-bit integer (Knuth's multiplicative hash).
FIBONACCI_MULTIPLIER = 0x9E3779B97F4A7C15 - (1 << 64)
#: A table entry is a key's tag (below this bit) and its bound (a byte, 1 to 127) above it.
BOUND_SHIFT = 56
TAG_BITS = (1 << BOUND_SHIFT) - 1
#: A table of ``2 ** bits`` entries leaves ``64 - bits`` for the tag: it must fit below the bound.
MIN_TABLE_BITS = 64 - BOUND_SHIFT
#: Only nodes with an even number of empty cells, more than this, are looked up and kept in
#: the table: the deep ones' searches are short, and each probe is a cache miss; every other
#: ply is enough for the transpositions, and leaves the entries to the costly nodes.
TABLE_LEAST_EMPTY = 8


@inlined
def table_slot(key: int, bits: int) -> int:
    """Where ``key`` lives in a transposition table of ``2 ** bits`` entries.

    Fibonacci hashing: the slot is the top ``bits`` of the key times an odd
    constant, one multiplication instead of a 64-bit division by a prime. The
    top bits, because a product's bit k depends only on the key's bits up to k:
    lower ones would leave a wide board's last columns out of the slot, and its
    positions that differ there would all fight for one entry. Only bits below
    the 64th are read, so plain Python's unbounded product gives the compiled slot.
    """
    return ((key * FIBONACCI_MULTIPLIER) >> (64 - bits)) & ((1 << bits) - 1)


@inlined
def table_tag(key: int, bits: int) -> int:
    """The bits of the hashed key below its slot's: ``64 - bits`` of them.

    Multiplying by an odd number is a bijection of 64-bit integers, so the slot
    and the tag together name one key: a tag that matches is the key, however
    wide the board (no partial key can be taken for another).
    """
    return (key * FIBONACCI_MULTIPLIER) & ((1 << (64 - bits)) - 1)


@inlined
def table_bound(entry: int, tag: int) -> int:
    """The bound an entry holds for the key with this tag (0: none, or another key's)."""
    if entry & TAG_BITS != tag:
        return 0
    return entry >> BOUND_SHIFT


@inlined
def narrowed(stored: int, alpha: int, high: int, min_score: int, max_score: int) -> tuple[int, int]:
    """The window's floor and ceiling once a bound from the table (0: none) is taken in."""
    if stored > max_score - min_score + 1:  # a lower bound
        return max(alpha, stored + 2 * min_score - max_score - 2), high
    if stored:  # an upper bound
        return alpha, min(high, stored + min_score - 1)
    return alpha, high


@inlined
def kept_in_table(empty: int) -> bool:
    """Whether a node with this many empty cells is looked up and kept in the table."""
    return empty > TABLE_LEAST_EMPTY and empty % 2 == 0
