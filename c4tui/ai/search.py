"""Negamax with alpha-beta over the engine's bitboards, for every size and both rule sets.

Positions are seen from the side to move: ``mine`` and ``theirs`` bitboards. The
search uses iterative deepening under a time budget, a transposition table, and
move ordering (the previous best move, then moves that create threats, then the
centre). It stops promptly when its deadline passes or its cancel event is set,
answering with the best move of the last finished depth.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Protocol

from c4tui.engine import GameState, Move, MoveKind, Player, Rules
from c4tui.engine import bitboard as bb
from c4tui.engine.errors import C4Error

WIN = 1_000_000
#: Scores this close to WIN are forced wins (or, negated, forced losses).
DECIDED = WIN - 10_000
CHECK_EVERY = 63  # nodes between looks at the clock and the cancel flag (a power of 2, minus 1)
EXACT, LOWER, UPPER = 0, 1, 2
#: Position (mine, theirs) -> (depth, score, bound kind, best move).
Table = dict[tuple[int, int], tuple[int, int, int, Move | None]]


class SearchAborted(C4Error):
    """The deadline passed or the search was cancelled."""


class CancelFlag(Protocol):
    """Anything that says whether to stop: a ``threading.Event``, a flag in shared memory."""

    def is_set(self) -> bool:
        """True once the search should stop."""
        ...


@dataclass(frozen=True)
class SearchResult:
    """The best move found, its score for the mover, and how deep the search got."""

    move: Move
    score: int
    depth: int
    nodes: int

    @property
    def outlook(self) -> str | None:
        """``won`` / ``lost`` when the search proved it, else None (unknown)."""
        if self.score >= DECIDED:
            return "won"
        if self.score <= -DECIDED:
            return "lost"
        return None


def winning_cells(me: int, geo: bb.Geometry) -> int:
    """Every cell (empty or not) that would complete a line of four for ``me``."""
    found = (me << 1) & (me << 2) & (me << 3)  # vertical: three below
    for shift in geo.shifts[1:]:
        pair = (me << shift) & (me << 2 * shift)
        found |= pair & (me << 3 * shift)
        found |= pair & (me >> shift)
        pair = (me >> shift) & (me >> 2 * shift)
        found |= pair & (me << shift)
        found |= pair & (me >> 3 * shift)
    return found & geo.full


def _lowest_per_column(cells: int, geo: bb.Geometry) -> int:
    """The lowest set cell of each column of ``cells``.

    Bits rise column after column, so the lowest bit left is always the lowest
    of its column; only columns holding a cell are visited (few: this runs at
    every leaf of the search).
    """
    lowest = 0
    while cells:
        bit = cells & -cells
        lowest |= bit
        cells &= ~geo.column_mask[(bit.bit_length() - 1) // geo.stride]
    return lowest


def first_player_rows(geo: bb.Geometry) -> int:
    """The rows whose cells the first player gets when the board fills up, as a mask.

    When every other column is full, the player to move at a cell in row r
    (1-based) of the last column has seen (columns - 1) * rows + r - 1 discs
    played: the first player moves when that number is even. So on 7 × 6 the
    first player's rows are the odd ones (1, 3, 5), but where (columns - 1) *
    rows is odd (an even number of columns of odd height: 8 × 7) the even ones.
    """
    start = ((geo.columns - 1) * geo.rows) % 2  # 0: rows 1, 3, 5 …; 1: rows 2, 4 …
    return sum(geo.bottom_row << row for row in range(start, geo.rows, 2))


def decode_key(key: int, geo: bb.Geometry) -> tuple[int, int]:
    """(mover's discs, opponent's discs) from an engine position key."""
    size = geo.columns * geo.stride
    yellow_to_move = key & 1
    boards = key >> 1
    red, yellow = boards >> size, boards & ((1 << size) - 1)
    return (yellow, red) if yellow_to_move else (red, yellow)


class Searcher:
    """One search: its clock, its table and its counters."""

    def __init__(
        self,
        state: GameState,
        deadline: float,
        cancel: CancelFlag | None = None,
        table: Table | None = None,
    ) -> None:
        self.geo = state.geometry
        self.popout = state.rules is Rules.POPOUT
        self.deadline = deadline
        self.cancel = cancel
        self.table = table if table is not None else {}
        self.nodes = 0
        geo = self.geo
        centre = geo.columns // 2
        # Columns from the centre outwards: central discs take part in more lines.
        self.column_order = sorted(range(geo.columns), key=lambda c: abs(2 * c + 1 - geo.columns))
        self.centre_mask = sum(
            geo.column_mask[c] for c in range(geo.columns) if abs(c - centre) <= geo.columns // 4
        )
        self.first_player_rows = first_player_rows(geo)
        # Pop Out: positions already on the game's record, seen from their mover.
        self.repeated = {decode_key(key, geo) for key in state.history}
        self.path: set[tuple[int, int]] = set()

    # ----- the moves of a position ---------------------------------------------------

    def children(self, mine: int, theirs: int) -> list[tuple[Move, int, int, int]]:
        """(move, new mine, new theirs, outcome) for every legal move, outcome for the mover.

        outcome: 1 the mover wins, -1 the mover loses (a pop that completes only the
        opponent's line), 0 otherwise.
        """
        geo = self.geo
        occupied = mine | theirs
        result = []
        for column in self.column_order:
            if not occupied & geo.top[column]:
                bit = (occupied + geo.bottom[column]) & geo.column_mask[column]
                new_mine = mine | bit
                outcome = 1 if bb.has_four(new_mine, geo.shifts) else 0
                result.append((Move(MoveKind.DROP, column), new_mine, theirs, outcome))
        if self.popout:
            for column in self.column_order:
                if mine & geo.bottom[column]:
                    new_mine = bb.pop_column(mine, geo, column)
                    new_theirs = bb.pop_column(theirs, geo, column)
                    if bb.has_four(new_mine, geo.shifts):
                        outcome = 1
                    elif bb.has_four(new_theirs, geo.shifts):
                        outcome = -1
                    else:
                        outcome = 0
                    result.append((Move(MoveKind.POP, column), new_mine, new_theirs, outcome))
        return result

    # ----- judging a position without search -----------------------------------------

    def evaluate(self, mine: int, theirs: int) -> int:
        """A heuristic score for the side to move: threats that can matter, then the centre.

        A threat (an empty cell that would complete four) counts for little when
        the cell below it is empty but it is not the lowest threat of its column;
        the lowest threat of a column is the one the game reaches, and counts
        most when it lies on its owner's row parity (``first_player_rows``),
        because in a filling board that is the threat the opponent is finally
        forced to allow.
        """
        geo = self.geo
        empty = geo.full & ~(mine | theirs)
        my_threats = winning_cells(mine, geo) & empty
        their_threats = winning_cells(theirs, geo) & empty
        lowest = _lowest_per_column(my_threats | their_threats, geo)
        mine_first = (mine | theirs).bit_count() % 2 == 0  # the mover is the first player
        firsts = self.first_player_rows
        my_rows, their_rows = (firsts, ~firsts) if mine_first else (~firsts, firsts)
        score = 20 * (my_threats.bit_count() - their_threats.bit_count())
        score += 40 * ((my_threats & lowest).bit_count() - (their_threats & lowest).bit_count())
        score += 80 * (
            (my_threats & lowest & my_rows).bit_count()
            - (their_threats & lowest & their_rows).bit_count()
        )
        score += 3 * (
            (mine & self.centre_mask).bit_count() - (theirs & self.centre_mask).bit_count()
        )
        return score

    # ----- the search ----------------------------------------------------------------

    def tick(self) -> None:
        """Every few hundred nodes: give up if time is out or the UI cancelled."""
        if time.perf_counter() >= self.deadline or (self.cancel and self.cancel.is_set()):
            raise SearchAborted

    def negamax(  # noqa: PLR0917 (the hot recursive path: plain positional arguments)
        self, mine: int, theirs: int, depth: int, alpha: int, beta: int, ply: int
    ) -> tuple[int, Move | None]:
        """The score of this position for the side to move, and its best move."""
        self.nodes += 1
        if self.nodes & CHECK_EVERY == 0:
            self.tick()
        key = (mine, theirs)
        if self.popout and ply > 0 and (key in self.path or key in self.repeated):
            return 0, None  # heading for a repetition: call it a draw
        cached, hint = self.probe(key, depth, alpha, beta, ply)
        if cached is not None:
            return cached, hint
        children = self.children(mine, theirs)
        settled = self.settled(children, mine, theirs, depth, ply)
        if settled is not None:
            return settled
        if self.popout:
            self.path.add(key)
        try:
            best_score, best_move = self.best_child(
                self.order(children, mine, theirs, hint), depth, alpha, beta, ply
            )
        finally:
            if self.popout:
                self.path.discard(key)
        flag = EXACT
        if best_score <= alpha:
            flag = UPPER
        elif best_score >= beta:
            flag = LOWER
        self.table[key] = (depth, best_score, flag, best_move)
        return best_score, best_move

    def probe(
        self, key: tuple[int, int], depth: int, alpha: int, beta: int, ply: int
    ) -> tuple[int | None, Move | None]:
        """A score the table already proves for this window (or None), and its best move."""
        entry = self.table.get(key)
        if entry is None:
            return None, None
        entry_depth, value, flag, move = entry
        if entry_depth < depth or ply == 0:
            return None, move
        if flag == EXACT or (flag == LOWER and value >= beta) or (flag == UPPER and value <= alpha):
            return value, move
        return None, move

    def settled(
        self,
        children: list[tuple[Move, int, int, int]],
        mine: int,
        theirs: int,
        depth: int,
        ply: int,
    ) -> tuple[int, Move | None] | None:
        """The score when no search is needed: no move, a win in one, a full board, depth 0."""
        if not children:
            return 0, None  # no legal move: a draw
        for move, _, _, outcome in children:
            if outcome == 1:
                return WIN - ply, move
        if depth <= 0:
            return self.evaluate(mine, theirs), None
        return None

    def best_child(
        self,
        children: list[tuple[Move, int, int, int]],
        depth: int,
        alpha: int,
        beta: int,
        ply: int,
    ) -> tuple[int, Move]:
        """Alpha-beta over the ordered children: the best score and move."""
        best_score, best_move = -WIN - 1, children[0][0]
        full = self.geo.full
        first = True
        for move, new_mine, new_theirs, outcome in children:
            if outcome == -1:
                score = -(WIN - ply - 1)
            elif not self.popout and (new_mine | new_theirs) == full:
                score = 0  # the last cell, no line: a draw
            elif first:
                score = -self.negamax(new_theirs, new_mine, depth - 1, -beta, -alpha, ply + 1)[0]
            else:
                # Principal variation search: prove the rest worse with a null window,
                # and search again with the full window only when one is not.
                score = -self.negamax(new_theirs, new_mine, depth - 1, -alpha - 1, -alpha, ply + 1)[
                    0
                ]
                if alpha < score < beta:
                    score = -self.negamax(new_theirs, new_mine, depth - 1, -beta, -score, ply + 1)[
                        0
                    ]
            first = False
            if score > best_score:
                best_score, best_move = score, move
            alpha = max(alpha, score)
            if alpha >= beta:
                break
        return best_score, best_move

    def order(
        self,
        children: list[tuple[Move, int, int, int]],
        mine: int,
        theirs: int,
        hint: Move | None,
    ) -> list[tuple[Move, int, int, int]]:
        """Best first: the table's move, blocks of the opponent's threats, new threats, centre."""
        geo = self.geo
        occupied = mine | theirs
        playable = (occupied + geo.bottom_row) & geo.full
        their_now = winning_cells(theirs, geo) & playable & ~occupied

        def rank(child: tuple[Move, int, int, int]) -> int:
            move, new_mine, new_theirs, _ = child
            if move == hint:
                return -1_000_000
            empty = geo.full & ~(new_mine | new_theirs)
            score = -10 * (winning_cells(new_mine, geo) & empty).bit_count()
            if move.kind is MoveKind.DROP and (new_mine & ~mine) & their_now:
                score -= 10_000  # must block
            return score

        return sorted(children, key=rank)


#: Tables kept from one search to the next in this process, one per classic board size.
_kept_tables: dict[tuple[int, int], Table] = {}
#: A kept table is started afresh past this many positions (about 50 MB).
KEPT_TABLE_LIMIT = 200_000


def kept_table(state: GameState) -> Table | None:
    """The table carried over between this board's searches (None under Pop Out).

    What a search proved about a position stays true on the next move, so the
    next search starts with good move orders and many bounds already known. Pop
    Out scores depend on the positions already seen (repetition), so none are kept.
    """
    if state.rules is Rules.POPOUT:
        return None
    table = _kept_tables.setdefault((state.columns, state.rows), {})
    if len(table) > KEPT_TABLE_LIMIT:
        table.clear()
    return table


def search(
    state: GameState,
    seconds: float,
    max_depth: int = 64,
    cancel: CancelFlag | None = None,
    table: Table | None = None,
) -> SearchResult:
    """Iterative deepening from ``state`` for at most ``seconds`` (or ``max_depth`` plies).

    ``table`` carries bounds from earlier searches (see ``kept_table``).
    Always returns a legal move, even if time runs out before depth 1 finishes.
    Raises ValueError if the game is over.
    """
    legal = state.legal_moves()
    if not legal:
        raise ValueError("the game is over: there is no move to search")
    mine, theirs = (
        (state.red, state.yellow) if state.turn is Player.RED else (state.yellow, state.red)
    )
    searcher = Searcher(state, time.perf_counter() + seconds, cancel, table)
    best = SearchResult(legal[0], 0, 0, 0)
    for child in searcher.children(mine, theirs):
        if child[3] == 1:
            return SearchResult(child[0], WIN, 1, 1)  # an immediate win needs no search
    remaining_cells = (state.geometry.full & ~(mine | theirs)).bit_count()
    depth_cap = max_depth if state.rules is Rules.POPOUT else min(max_depth, remaining_cells)
    for depth in range(1, depth_cap + 1):
        try:
            score, move = searcher.negamax(mine, theirs, depth, -WIN - 1, WIN + 1, 0)
        except SearchAborted:
            break
        if move is not None:
            best = SearchResult(move, score, depth, searcher.nodes)
        if abs(score) >= DECIDED:
            break  # a forced result: deeper search cannot change it
    return best
