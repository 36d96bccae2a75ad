"""The exact solver's inner loops: a negamax that proves the score of a classic position.

This is Pascal Pons's algorithm ("Solving Connect 4", 2019) over 64-bit
bitboards: a null-window negamax that never plays a move handing the opponent an
immediate win, tries the moves that make the most new threats first, keeps
bounds in a transposition table shared across searches, and reads exact scores
from an opening book at its depth. The layout is the engine's (column after
column, ``rows + 1`` bits each), so a position needs no conversion.

Every function here is written in the subset of Python that Numba compiles
(see ``jit.py``); arrays may be NumPy arrays (compiled) or lists (plain Python).

A position is ``(current, mask, moves)``: the discs of the side to move, every
disc, and how many discs have been played. Scores follow Pons's convention: 0 a
draw; positive when the side to move wins, ``(cells + 1) // 2 + 1 - k`` where
the win comes with its k-th disc; negative likewise for a loss.
"""

from __future__ import annotations

from c4tui.ai.solver.jit import IntArray, compiled, inlined, popcount
from c4tui.ai.solver.table import (
    BOUND_SHIFT,
    kept_in_table,
    narrowed,
    table_bound,
    table_slot,
    table_tag,
)

# Indices into the geometry array.
G_WIDTH, G_HEIGHT, G_BOTTOM, G_BOARD, G_CELLS, G_MIN, G_MAX, G_TABLE_BITS = range(8)
# ... then the opening book's: its depth (-1: no book), lowest key and bucket shift.
G_BOOK_DEPTH, G_BOOK_LOWEST, G_BOOK_SHIFT = range(8, 11)
GEOMETRY_FIELDS = 11


# The fields of one frame of the search's stack.
S_CURRENT, S_MASK, S_ALPHA, S_BETA, S_NEXT = range(5)
STACK_FIELDS = 5
#: What ``open_node`` answers when the node needs its moves searched (no score is this big).
NEEDS_CHILDREN = 1 << 20
# Indices into the control array: shared with a watcher thread that may ask for a stop.
C_NODES, C_STOP = 0, 1
CONTROL_FIELDS = 2
#: How many nodes pass between looks at the stop flag (a power of two, minus one).
STOP_CHECK = 1023
#: The Huffman codes of an opening book hold 32 bits, read as a signed integer.
BOOK_SIGN_BIT = 1 << 31


@compiled
def line_ends(position: int, shift: int) -> int:
    """Cells that complete a line of four of ``position`` along one direction."""
    pair = (position << shift) & (position << (2 * shift))
    cells = pair & (position << (3 * shift))
    cells |= pair & (position >> shift)
    pair = (position >> shift) & (position >> (2 * shift))
    cells |= pair & (position << shift)
    cells |= pair & (position >> (3 * shift))
    return cells


@compiled
def winning_cells(position: int, mask: int, height: int, board: int) -> int:
    """Empty cells where ``position`` would complete a four (playable now or not)."""
    cells = (position << 1) & (position << 2) & (position << 3)
    cells |= line_ends(position, height + 1)
    cells |= line_ends(position, height)
    cells |= line_ends(position, height + 2)
    return cells & (board ^ mask)


@compiled
def column_mask(column: int, height: int) -> int:
    """The cells of one column."""
    return ((1 << height) - 1) << (column * (height + 1))


@compiled
def can_win_next(current: int, mask: int, geo: IntArray) -> bool:
    """Whether the side to move wins with one disc."""
    possible = (mask + geo[G_BOTTOM]) & geo[G_BOARD]
    return winning_cells(current, mask, geo[G_HEIGHT], geo[G_BOARD]) & possible != 0


@inlined
def non_losing_moves(mask: int, threats: int, geo: IntArray) -> int:
    """The playable cells that do not let the opponent win at once (0: every move loses).

    ``threats`` are the opponent's winning cells, found once a node for this and
    ``stacked_threat``. Assumes the side to move cannot win at once.
    """
    possible = (mask + geo[G_BOTTOM]) & geo[G_BOARD]
    forced = possible & threats
    if forced:
        if forced & (forced - 1):
            return 0  # two threats to block at once
        possible = forced
    return possible & ~(threats >> 1)  # never play right under an opponent's threat


@inlined
def stacked_threat(current: int, mask: int, candidates: int, theirs: int, geo: IntArray) -> int:
    """The safe moves right under two of the mover's threats, one on the other (0: none).

    The opponent must block the lower threat, which it cannot win by (``theirs``
    are its threats), and the mover then wins with the upper one: a win with its
    next disc but one.
    """
    own = winning_cells(current, mask, geo[G_HEIGHT], geo[G_BOARD])
    return candidates & (own >> 1) & (own >> 2) & ~(theirs >> 1)


@compiled
def book_code(red: int, mask: int, geo: IntArray, mirrored: bool) -> int:
    """A position's key in the BitBully opening books (a Huffman code of its columns).

    Columns left to right, each bottom up: a red disc is ``10``, a yellow one
    ``11``, and ``0`` ends the column; one more ``0`` ends the code.
    """
    width, height = geo[G_WIDTH], geo[G_HEIGHT]
    code = 0
    for index in range(width):
        column = width - 1 - index if mirrored else index
        for row in range(height):
            bit = 1 << (column * (height + 1) + row)
            if not mask & bit:
                break
            code = (code << 2) | (2 if red & bit else 3)
        code <<= 1
    code <<= 1
    if code & BOOK_SIGN_BIT:
        code -= 2 * BOOK_SIGN_BIT
    return code


@compiled
def red_discs(current: int, mask: int, moves: int) -> int:
    """Red's discs, from the mover's: red moves when an even number of discs are down."""
    return current if moves % 2 == 0 else current ^ mask


@compiled
def book_search(keys: IntArray, index: IntArray, code: int, geo: IntArray) -> int:
    """The place of ``code`` in the sorted ``keys``, or -1: a binary search of its bucket."""
    bucket = (code - geo[G_BOOK_LOWEST]) >> geo[G_BOOK_SHIFT]
    if bucket < 0 or bucket >= len(index) - 1:
        return -1
    low, high = int(index[bucket]), int(index[bucket + 1]) - 1
    while low <= high:
        middle = (low + high) // 2
        value = int(keys[middle])
        if value == code:
            return middle
        if value < code:
            low = middle + 1
        else:
            high = middle - 1
    return -1


@compiled
def book_score(  # noqa: PLR0917
    current: int,
    mask: int,
    moves: int,
    geo: IntArray,
    keys: IntArray,
    values: IntArray,
    index: IntArray,
) -> int:
    """The book's exact score for this position (side to move), or a value above the maximum.

    The book's values are distances: ``100 - d`` when the side to move (red, at an
    even depth) wins in ``d`` more discs, ``d - 100`` when it loses, 0 for a draw.
    """
    red = red_discs(current, mask, moves)
    found = book_search(keys, index, book_code(red, mask, geo, False), geo)
    if found < 0:
        found = book_search(keys, index, book_code(red, mask, geo, True), geo)
    if found < 0:
        return geo[G_MAX] + 1
    value = int(values[found])
    if value == 0:
        return 0
    distance = 100 - value if value > 0 else 100 + value
    disc_number = (moves + distance + 1) // 2  # the winner's disc that makes four
    score = (geo[G_CELLS] + 1) // 2 + 1 - disc_number
    return score if value > 0 else -score


@compiled
def negamax(  # noqa: PLR0917
    current: int,
    mask: int,
    moves: int,
    alpha: int,
    beta: int,
    geo: IntArray,
    table: IntArray,
    book_keys: IntArray,
    book_values: IntArray,
    book_index: IntArray,
    order: IntArray,
    scratch: IntArray,
    stack: IntArray,
    control: IntArray,
) -> int:
    """The score of a position whose mover cannot win at once, within (alpha, beta).

    Fail-soft: a result at or below alpha is an upper bound, at or above beta a
    lower bound. Returns 0 at once (storing nothing more) after a stop is asked for.

    The recursion runs on an explicit ``stack`` (one frame per ply, see ``S_*``),
    because Numba neither caches nor quickly compiles a recursive function.
    """
    root = moves
    frame = root * STACK_FIELDS
    stack[frame + S_CURRENT] = current
    stack[frame + S_MASK] = mask
    stack[frame + S_ALPHA] = alpha
    stack[frame + S_BETA] = beta
    ply = root
    while True:
        value = open_node(
            ply,
            geo,
            table,
            book_keys,
            book_values,
            book_index,
            order,
            scratch,
            stack,
            control,
        )
        while value != NEEDS_CHILDREN:  # settled: hand the value down the stack
            if control[C_STOP]:
                return 0
            if ply == root:
                return value
            ply -= 1
            value = close_child(ply, -value, geo, table, stack)
        enter_next_child(ply, geo, scratch, stack)
        ply += 1


@inlined
def enter_next_child(ply: int, geo: IntArray, scratch: IntArray, stack: IntArray) -> None:
    """Set up the frame above ``ply`` for its next move to try (with the negated window)."""
    frame = ply * STACK_FIELDS
    child = frame + STACK_FIELDS
    move = scratch[ply * 2 * geo[G_WIDTH] + stack[frame + S_NEXT]]
    stack[child + S_CURRENT] = stack[frame + S_CURRENT] ^ stack[frame + S_MASK]
    stack[child + S_MASK] = stack[frame + S_MASK] | move
    stack[child + S_ALPHA] = -stack[frame + S_BETA]
    stack[child + S_BETA] = -stack[frame + S_ALPHA]


@inlined
def open_node(  # noqa: PLR0911, PLR0917 (one return per way a node is settled, as in the paper)
    ply: int,
    geo: IntArray,
    table: IntArray,
    book_keys: IntArray,
    book_values: IntArray,
    book_index: IntArray,
    order: IntArray,
    scratch: IntArray,
    stack: IntArray,
    control: IntArray,
) -> int:
    """Settle the node at ``ply`` without search if possible, else order its moves.

    Returns its value, or ``NEEDS_CHILDREN`` with the moves in ``scratch`` (best
    last) and the frame's ``S_NEXT`` pointing at the first one to try.
    """
    control[C_NODES] += 1
    if control[C_NODES] & STOP_CHECK == 0 and control[C_STOP]:
        return 0
    frame = ply * STACK_FIELDS
    current, mask = stack[frame + S_CURRENT], stack[frame + S_MASK]
    alpha, beta = stack[frame + S_ALPHA], stack[frame + S_BETA]
    cells, min_score, max_score = geo[G_CELLS], geo[G_MIN], geo[G_MAX]
    theirs = winning_cells(current ^ mask, mask, geo[G_HEIGHT], geo[G_BOARD])
    candidates = non_losing_moves(mask, theirs, geo)
    if candidates == 0:
        return -((cells - ply) // 2)
    if ply >= cells - 2:
        return 0
    if stacked_threat(current, mask, candidates, theirs, geo):
        return (cells - 1 - ply) // 2  # a win with the next disc but one: the best there is
    low = -((cells - 2 - ply) // 2)
    if alpha < low:
        alpha = low
        if alpha >= beta:
            return alpha
    high = (cells - 1 - ply) // 2
    if kept_in_table(cells - ply):
        key, bits = current + mask, geo[G_TABLE_BITS]
        stored = table_bound(table[table_slot(key, bits)], table_tag(key, bits))
        alpha, high = narrowed(stored, alpha, high, min_score, max_score)
        if alpha >= beta:
            return alpha
    if ply == geo[G_BOOK_DEPTH]:
        exact = book_score(current, mask, ply, geo, book_keys, book_values, book_index)
        if exact <= max_score:
            return exact
    if beta > high:
        beta = high
        if alpha >= beta:
            return beta
    stack[frame + S_ALPHA] = alpha
    stack[frame + S_BETA] = beta
    stack[frame + S_NEXT] = sort_moves(current, mask, ply, candidates, geo, order, scratch) - 1
    return NEEDS_CHILDREN


@inlined
def close_child(
    ply: int,
    score: int,
    geo: IntArray,
    table: IntArray,
    stack: IntArray,
) -> int:
    """Take a child's score at ``ply``: the node's value if that settles it, else NEEDS_CHILDREN."""
    frame = ply * STACK_FIELDS
    min_score, max_score = geo[G_MIN], geo[G_MAX]
    if score >= stack[frame + S_BETA]:
        # Bounds are clamped to the scores that exist, so they fit the entry's top byte.
        bound = min(score, max_score) + max_score - 2 * min_score + 2
        store(ply, bound, geo, table, stack)
        return score
    stack[frame + S_ALPHA] = max(stack[frame + S_ALPHA], score)
    stack[frame + S_NEXT] -= 1
    if stack[frame + S_NEXT] >= 0:
        return NEEDS_CHILDREN
    alpha = stack[frame + S_ALPHA]
    store(ply, max(alpha, min_score) - min_score + 1, geo, table, stack)
    return alpha


@inlined
def store(ply: int, bound: int, geo: IntArray, table: IntArray, stack: IntArray) -> None:
    """Keep the bound (a table byte) of the node at ``ply`` if the table takes nodes that deep."""
    if not kept_in_table(geo[G_CELLS] - ply):
        return
    frame = ply * STACK_FIELDS
    key, bits = stack[frame + S_CURRENT] + stack[frame + S_MASK], geo[G_TABLE_BITS]
    table[table_slot(key, bits)] = table_tag(key, bits) | bound << BOUND_SHIFT


@inlined
def sort_moves(  # noqa: PLR0917
    current: int,
    mask: int,
    moves: int,
    candidates: int,
    geo: IntArray,
    order: IntArray,
    scratch: IntArray,
) -> int:
    """Fill row ``moves`` of ``scratch`` with the candidate moves, best last; return how many.

    Best means making the most new threats; among equals, nearer the centre.
    A row holds ``2 * width`` slots: the moves, then their scores.
    """
    width, height, board = geo[G_WIDTH], geo[G_HEIGHT], geo[G_BOARD]
    row = moves * 2 * width
    count = 0
    for rank in range(width - 1, -1, -1):
        move = candidates & column_mask(order[rank], height)
        if not move:
            continue
        threats = popcount(winning_cells(current | move, mask, height, board))
        position = count
        while position > 0 and scratch[row + width + position - 1] > threats:
            scratch[row + position] = scratch[row + position - 1]
            scratch[row + width + position] = scratch[row + width + position - 1]
            position -= 1
        scratch[row + position] = move
        scratch[row + width + position] = threats
        count += 1
    return count


@compiled
def solve(  # noqa: PLR0917
    current: int,
    mask: int,
    moves: int,
    weak: bool,
    geo: IntArray,
    table: IntArray,
    book_keys: IntArray,
    book_values: IntArray,
    book_index: IntArray,
    order: IntArray,
    scratch: IntArray,
    stack: IntArray,
    control: IntArray,
) -> int:
    """The exact score of a position that is not over (or, ``weak``, just its sign).

    Narrows the score's range with null-window searches, aiming first near 0.
    """
    cells = geo[G_CELLS]
    if can_win_next(current, mask, geo):
        return (cells + 1 - moves) // 2
    low = -((cells - moves) // 2)
    high = (cells + 1 - moves) // 2
    if weak:
        low, high = -1, 1
    while low < high:
        middle = low + (high - low) // 2
        if middle <= 0 and truncated_half(low) < middle:
            middle = truncated_half(low)
        elif middle >= 0 and high // 2 > middle:
            middle = high // 2
        result = negamax(
            current,
            mask,
            moves,
            middle,
            middle + 1,
            geo,
            table,
            book_keys,
            book_values,
            book_index,
            order,
            scratch,
            stack,
            control,
        )
        if control[C_STOP]:
            return 0
        if result <= middle:
            high = result
        else:
            low = result
    return low


@compiled
def truncated_half(value: int) -> int:
    """``value / 2`` rounded towards zero (as C does), for negative values too."""
    return -((-value) // 2) if value < 0 else value // 2
