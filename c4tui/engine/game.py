"""The rules of Connect Four and Pop Out as an immutable game state.

Every rule of ``spec/rules.md`` lives here and nowhere else: front ends, the AI,
the server and the protocols ask this module what is legal and who has won.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from enum import Enum

from c4tui.engine import bitboard
from c4tui.engine.bitboard import Geometry
from c4tui.engine.errors import IllegalMoveError, PositionError
from c4tui.engine.moves import Move, MoveKind
from c4tui.engine.size import MAX_SIZE

DEFAULT_COLUMNS = 7
DEFAULT_ROWS = 6

# Moves are immutable values: build each once instead of on every legal_moves() call.
_DROPS = tuple(Move.drop(column) for column in range(MAX_SIZE))
_POPS = tuple(Move.pop(column) for column in range(MAX_SIZE))


class Player(Enum):
    """The two colours. RED always moves first."""

    RED = "R"
    YELLOW = "Y"

    @property
    def other(self) -> Player:
        """The opponent of this colour."""
        return Player.YELLOW if self is Player.RED else Player.RED

    @property
    def short(self) -> str:
        """One letter: ``R`` or ``Y``."""
        return self.value


#: Who a threat is for, by (RED would complete four there, YELLOW would).
_THREATENING = {
    (True, False): frozenset({Player.RED}),
    (False, True): frozenset({Player.YELLOW}),
    (True, True): frozenset(Player),
}


class Rules(Enum):
    """Which rule set a game follows."""

    CLASSIC = "classic"
    POPOUT = "popout"


#: Why a pop is refused in classic rules (the app's p says it too, with the way to Pop Out).
POP_OFF_IN_CLASSIC = "Pop Out is off in classic rules"


class DrawReason(Enum):
    """Why a game ended without a winner."""

    FULL_BOARD = "the board is full"
    NO_LEGAL_MOVE = "the player to move has no legal move"
    REPETITION = "the same position arose three times"


@dataclass(frozen=True, slots=True)
class GameState:
    """One position together with what is needed to judge the next move.

    States never change: ``play`` returns a new one. ``history`` holds the keys
    of the positions seen so far under Pop Out rules (for the threefold
    repetition draw); classic games cannot repeat a position and keep it empty.
    """

    geometry: Geometry
    rules: Rules = Rules.CLASSIC
    red: int = 0
    yellow: int = 0
    turn: Player = Player.RED
    winner: Player | None = None
    draw_reason: DrawReason | None = None
    history: tuple[int, ...] = field(default=(), repr=False)

    @classmethod
    def new(
        cls, columns: int = DEFAULT_COLUMNS, rows: int = DEFAULT_ROWS, rules: Rules = Rules.CLASSIC
    ) -> GameState:
        """An empty board, RED to move. Raises BoardSizeError for a size out of range."""
        return cls.from_cells(columns, rows, rules, {})

    @classmethod
    def from_cells(
        cls,
        columns: int,
        rows: int,
        rules: Rules,
        discs: Mapping[tuple[int, int], Player],
        turn: Player = Player.RED,
    ) -> GameState:
        """A position set up disc by disc, ``turn`` to move (a viewer joining a game under way).

        ``discs`` gives the owner of each occupied (column, row) cell, 0-based, row 0
        at the bottom. The position is taken as it stands: nobody has won or drawn it
        yet, and under Pop Out the positions before it are unknown, so repetitions
        count from here.

        Raises BoardSizeError for a size out of range, and PositionError for a disc
        off the board or above an empty cell (the highest, then leftmost, is named).
        """
        geo = bitboard.geometry(columns, rows)
        red = yellow = 0
        for column, row in sorted(discs, key=lambda cell: (-cell[1], cell[0])):
            if not (0 <= column < columns and 0 <= row < rows):
                raise PositionError(f"a disc off the board, at column {column + 1}, row {row + 1}")
            if row > 0 and (column, row - 1) not in discs:
                raise PositionError(f"a floating disc in column {column + 1}")
            bit = bitboard.cell_bit(geo, column, row)
            if discs[column, row] is Player.RED:
                red |= bit
            else:
                yellow |= bit
        state = cls(geometry=geo, rules=rules, red=red, yellow=yellow, turn=turn)
        if rules is Rules.POPOUT:
            state = replace(state, history=(state.position_key(),))
        return state

    # ----- what a person can see -------------------------------------------------

    @property
    def columns(self) -> int:
        """Number of columns."""
        return self.geometry.columns

    @property
    def rows(self) -> int:
        """Number of rows."""
        return self.geometry.rows

    @property
    def is_draw(self) -> bool:
        """True when the game ended without a winner."""
        return self.draw_reason is not None

    @property
    def is_over(self) -> bool:
        """True once somebody has won or the game is drawn."""
        return self.winner is not None or self.draw_reason is not None

    @property
    def disc_count(self) -> int:
        """How many discs are on the board."""
        return (self.red | self.yellow).bit_count()

    def cell(self, column: int, row: int) -> Player | None:
        """Who owns the cell (0-based, row 0 at the bottom), or None when empty."""
        bit = bitboard.cell_bit(self.geometry, column, row)
        if self.red & bit:
            return Player.RED
        if self.yellow & bit:
            return Player.YELLOW
        return None

    def column_height(self, column: int) -> int:
        """How many discs the 0-based ``column`` holds."""
        return bitboard.column_height(self.red | self.yellow, self.geometry, column)

    def cells_differing(self, other: GameState) -> set[tuple[int, int]]:
        """The (column, row) cells whose discs differ from ``other``'s (same size)."""
        changed = (self.red ^ other.red) | (self.yellow ^ other.yellow)
        return set(bitboard.cells(changed, self.geometry))

    def winning_cells(self) -> frozenset[tuple[int, int]]:
        """The (column, row) cells of the winner's lines of four; empty if nobody won."""
        if self.winner is None:
            return frozenset()
        bits = bitboard.four_cells(self._bits_of(self.winner), self.geometry.shifts)
        return frozenset(bitboard.cells(bits, self.geometry))

    def threats(self) -> dict[tuple[int, int], frozenset[Player]]:
        """The empty (column, row) cells where a disc would complete four, and for whom.

        Reachable or not: a threat higher up a column matters for later (the players
        of Connect Four call these odd and even threats).
        """
        geo = self.geometry
        empty = geo.full & ~(self.red | self.yellow)
        red = bitboard.completing_cells(self.red, geo) & empty
        yellow = bitboard.completing_cells(self.yellow, geo) & empty
        found: dict[tuple[int, int], frozenset[Player]] = {}
        for column, row in bitboard.cells(red | yellow, geo):
            bit = bitboard.cell_bit(geo, column, row)
            found[(column, row)] = _THREATENING[(bool(red & bit), bool(yellow & bit))]
        return found

    def position_key(self) -> int:
        """An int naming board and player to move (what the repetition rule compares)."""
        return position_key(self.geometry, self.red, self.yellow, self.turn)

    # ----- legality --------------------------------------------------------------

    def legal_moves(self) -> tuple[Move, ...]:
        """Every legal move: drops by column, then pops by column. Empty once over."""
        if self.is_over:
            return ()
        geo = self.geometry
        occupied = self.red | self.yellow
        moves = [_DROPS[c] for c in range(geo.columns) if not occupied & geo.top[c]]
        if self.rules is Rules.POPOUT:
            mine = self._bits_of(self.turn)
            moves.extend(_POPS[c] for c in range(geo.columns) if mine & geo.bottom[c])
        return tuple(moves)

    def is_legal(self, move: Move) -> bool:
        """True when ``move`` may be played now."""
        return self.refusal(move) is None

    def refusal(self, move: Move) -> str | None:  # noqa: PLR0911 (one return per rule)
        """Why ``move`` is illegal now, in words; None when it is legal."""
        if self.is_over:
            return "the game is over"
        geo = self.geometry
        if not 0 <= move.column < geo.columns:
            return f"column {move.column + 1} does not exist"
        occupied = self.red | self.yellow
        if move.kind is MoveKind.DROP:
            if occupied & geo.top[move.column]:
                return f"column {move.column + 1} is full"
            return None
        if self.rules is Rules.CLASSIC:
            return POP_OFF_IN_CLASSIC
        if not occupied & geo.bottom[move.column]:
            return f"column {move.column + 1} is empty"
        if not self._bits_of(self.turn) & geo.bottom[move.column]:
            return f"the bottom disc of column {move.column + 1} is not yours"
        return None

    # ----- playing ---------------------------------------------------------------

    def play(self, move: Move) -> GameState:
        """The state after ``move``. Raises IllegalMoveError (with the reason) if illegal."""
        reason = self.refusal(move)
        if reason is not None:
            raise IllegalMoveError(reason)
        geo = self.geometry
        mover = self._bits_of(self.turn)
        opponent = self._bits_of(self.turn.other)
        if move.kind is MoveKind.DROP:
            mover |= bitboard.drop_bit(mover | opponent, geo, move.column)
            winner = self.turn if bitboard.has_four(mover, geo.shifts) else None
        else:
            mover = bitboard.pop_column(mover, geo, move.column)
            opponent = bitboard.pop_column(opponent, geo, move.column)
            winner = self._winner_after_pop(mover, opponent)
        red, yellow = (mover, opponent) if self.turn is Player.RED else (opponent, mover)
        turn = self.turn.other
        draw_reason, history = None, self.history
        if winner is None:
            draw_reason, history = self._draw_after(red, yellow, turn)
        return GameState(geo, self.rules, red, yellow, turn, winner, draw_reason, history)

    def drop(self, column: int) -> GameState:
        """Shortcut for ``play(Move.drop(column))`` (0-based column)."""
        return self.play(Move.drop(column))

    def pop(self, column: int) -> GameState:
        """Shortcut for ``play(Move.pop(column))`` (0-based column)."""
        return self.play(Move.pop(column))

    def play_all(self, moves: list[Move] | tuple[Move, ...]) -> GameState:
        """The state after playing ``moves`` in order (raises on the first illegal one)."""
        state = self
        for move in moves:
            state = state.play(move)
        return state

    # ----- helpers ---------------------------------------------------------------

    def _bits_of(self, player: Player) -> int:
        return self.red if player is Player.RED else self.yellow

    def _winner_after_pop(self, mover: int, opponent: int) -> Player | None:
        """A pop can complete lines for both: the popper wins ties, else whoever has one."""
        shifts = self.geometry.shifts
        if bitboard.has_four(mover, shifts):
            return self.turn
        if bitboard.has_four(opponent, shifts):
            return self.turn.other
        return None

    def _draw_after(
        self, red: int, yellow: int, turn: Player
    ) -> tuple[DrawReason | None, tuple[int, ...]]:
        """Judge the draw rules for an undecided position reached from this one.

        Returns the draw reason (None to play on) and the position history to keep.
        """
        geo = self.geometry
        full = (red | yellow) == geo.full
        if self.rules is Rules.CLASSIC:
            return (DrawReason.FULL_BOARD if full else None), self.history
        key = position_key(geo, red, yellow, turn)
        history = (*self.history, key)
        if history.count(key) >= 3:
            return DrawReason.REPETITION, history
        to_move = red if turn is Player.RED else yellow
        # Unreachable on boards 4+ wide (a bottom row all of one colour is already a
        # four), but it is the rule, and it costs one test on a full board.
        if full and not to_move & geo.bottom_row:
            return DrawReason.NO_LEGAL_MOVE, history
        return None, history


def position_key(geo: Geometry, red: int, yellow: int, turn: Player) -> int:
    """An int naming board and player to move (what the repetition rule compares)."""
    size = geo.columns * geo.stride
    return (((red << size) | yellow) << 1) | (turn is Player.YELLOW)
