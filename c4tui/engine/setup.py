"""A position set up by hand: its discs, who moves, and why it cannot be played on, if not.

A game in c4tui is its moves from the empty board (records, the driver's history, the
engine protocol's ``position``), so a position set up is played as drops that reach it
(``sequence.drops_reaching``). Under Pop Out the same holds: the position is played from
drops, so its colours must alternate as if no disc had ever been popped, and a full board
plays on while the side to move can pop. The checks name what is wrong in words a person
can act on (the editor shows them, and plays and analyses only a position without any).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace

from c4tui.engine import bitboard
from c4tui.engine.errors import PositionError
from c4tui.engine.game import DrawReason, GameState, Player, Rules
from c4tui.engine.moves import Move
from c4tui.engine.sequence import UndecidedPosition, drops_reaching
from c4tui.engine.size import check_size

#: Positions the search for drops may try before it gives up on a board (a key in the
#: editor checks the position: at most a second or two on a 20 x 20 board).
SEARCH_BUDGET = 100_000


def cell_name(column: int, row: int) -> str:
    """A cell named as a chess square: ``d1`` is column 4 (a is the first), row 1 the bottom."""
    return f"{chr(ord('a') + column)}{row + 1}"


def turn_from_counts(red: int, yellow: int) -> Player | None:
    """Who moves after ``red`` and ``yellow`` discs dropped in turn, red first (None: no one)."""
    if red == yellow:
        return Player.RED
    if red == yellow + 1:
        return Player.YELLOW
    return None


@dataclass(frozen=True)
class SetUp:
    """A position being set up: each column's discs (bottom first) and the side to move.

    Discs go on top of a column and come off its top, so no disc ever floats. Placing or
    taking a disc makes the side to move the one the discs' counts call for (when they
    call for one); ``with_turn`` chooses it outright.
    """

    columns: int
    rows: int
    rules: Rules
    stacks: tuple[tuple[Player, ...], ...]
    turn: Player = Player.RED

    @classmethod
    def empty(cls, columns: int, rows: int, rules: Rules = Rules.CLASSIC) -> SetUp:
        """An empty board, RED to move. Raises BoardSizeError for a size out of range."""
        check_size(columns, rows)
        return cls(columns, rows, rules, ((),) * columns)

    @classmethod
    def of_cells(
        cls, columns: int, rows: int, rules: Rules, discs: Mapping[tuple[int, int], Player]
    ) -> SetUp:
        """The discs at (column, row) cells, row 0 at the bottom; the counts say who moves.

        Raises BoardSizeError and PositionError as ``GameState.from_cells`` does (a
        floating disc: its column is named).
        """
        state = GameState.from_cells(columns, rows, rules, discs)
        stacks = tuple(
            tuple(discs[column, row] for row in range(state.column_height(column)))
            for column in range(columns)
        )
        return cls(columns, rows, rules, stacks)._turn_following_counts()

    # ----- what it holds ---------------------------------------------------------------

    def count(self, player: Player) -> int:
        """How many discs ``player`` has on the board."""
        return sum(stack.count(player) for stack in self.stacks)

    def state(self) -> GameState:
        """The position as the engine sees it (nobody has won it, whatever the board holds)."""
        discs = {
            (column, row): player
            for column, stack in enumerate(self.stacks)
            for row, player in enumerate(stack)
        }
        return GameState.from_cells(self.columns, self.rows, self.rules, discs, self.turn)

    def board_shown(self) -> GameState:
        """The position as a board shows it: a four already made is marked, as a win is."""
        state = self.state()
        for player in Player:
            if _first_line(_bits(state, player), state) is not None:
                return replace(state, winner=player)
        return state

    # ----- changing it -----------------------------------------------------------------

    def with_disc(self, column: int, player: Player) -> SetUp:
        """``player``'s disc on top of ``column`` (0-based). Raises PositionError if it is full."""
        stack = self._stack(column)
        if len(stack) >= self.rows:
            raise PositionError(f"column {column + 1} is full")
        return self._with_stack(column, (*stack, player))._turn_following_counts()

    def without_top(self, column: int) -> SetUp:
        """``column`` with its top disc taken off. Raises PositionError if it is empty."""
        stack = self._stack(column)
        if not stack:
            raise PositionError(f"column {column + 1} is empty")
        return self._with_stack(column, stack[:-1])._turn_following_counts()

    def with_turn(self, player: Player) -> SetUp:
        """The same discs, ``player`` to move."""
        return replace(self, turn=player)

    def _stack(self, column: int) -> tuple[Player, ...]:
        if not 0 <= column < self.columns:
            raise PositionError(f"column {column + 1} does not exist")
        return self.stacks[column]

    def _with_stack(self, column: int, stack: tuple[Player, ...]) -> SetUp:
        stacks = (*self.stacks[:column], stack, *self.stacks[column + 1 :])
        return replace(self, stacks=stacks)

    def _turn_following_counts(self) -> SetUp:
        """The side to move the counts call for; the same side when they call for none."""
        implied = turn_from_counts(self.count(Player.RED), self.count(Player.YELLOW))
        return self if implied is None else replace(self, turn=implied)

    # ----- can it be played on ---------------------------------------------------------

    def problem(self) -> str | None:
        """Why no game can go on from here, in words (None: it can be played on)."""
        state = self.state()
        found = _four_already(state) or self._counts_problem()
        if found is not None:
            return found
        try:
            drops = drops_reaching(state, SEARCH_BUDGET)
        except UndecidedPosition:
            return "no order of drops that builds this board was found in time (there may be none)"
        except PositionError:
            return (
                "no game reaches this board: no order of drops, RED first and then turn "
                "about, builds its columns"
            )
        return _nothing_left(state, drops)

    def drops(self) -> tuple[Move, ...]:
        """Drops, red first, from the empty board to this position, ``turn`` to move.

        Raises PositionError (saying ``problem``) when it cannot be played on.
        """
        problem = self.problem()
        if problem is not None:
            raise PositionError(problem)
        return drops_reaching(self.state(), SEARCH_BUDGET)

    def _counts_problem(self) -> str | None:
        """Why the counts of the colours do not fit the side to move (None: they do)."""
        red, yellow = self.count(Player.RED), self.count(Player.YELLOW)
        implied = turn_from_counts(red, yellow)
        counts = f"{red} red and {yellow} yellow discs"
        if implied is None:
            return (
                f"{counts} cannot come from turns taken in turn: RED moves first, so red "
                "has as many discs as yellow, or one more"
            )
        if implied is not self.turn:
            return f"with {counts}, {implied.name} is to move (RED moves first, then turn about)"
        return None


def _four_already(state: GameState) -> str | None:
    """Which colour already has four in a row, and where (None: neither)."""
    for player in Player:
        line = _first_line(_bits(state, player), state)
        if line is not None:
            start, end = (cell_name(*cell) for cell in line)
            return (
                f"{player.name} already has four in a row at {start}–{end}: "
                "a won position cannot be played on"
            )
    return None


def _bits(state: GameState, player: Player) -> int:
    """``player``'s discs in ``state``, as bits."""
    return state.red if player is Player.RED else state.yellow


def _first_line(bits: int, state: GameState) -> tuple[tuple[int, int], tuple[int, int]] | None:
    """The first and last cells of a line of four or more in ``bits`` (None: none).

    The lowest cell that starts four in a direction begins its line (a cell before it
    would start four too, and be lower); the line runs on while its cells are held.
    """
    geo = state.geometry
    for shift in geo.shifts:
        starts = bits & (bits >> shift) & (bits >> (2 * shift)) & (bits >> (3 * shift))
        if starts:
            first = last = starts & -starts
            while bits & (last << shift):
                last <<= shift
            (start,), (end,) = bitboard.cells(first, geo), bitboard.cells(last, geo)
            return start, end
    return None


def _nothing_left(state: GameState, drops: tuple[Move, ...]) -> str | None:
    """Why a full board ends the game there (classic; Pop Out with nothing to pop)."""
    reached = GameState.new(state.columns, state.rows, state.rules).play_all(drops)
    if reached.draw_reason is DrawReason.FULL_BOARD:
        return "the board is full: a drawn game cannot be played on"
    if reached.draw_reason is not None:
        return f"{reached.draw_reason.value}: a drawn game cannot be played on"
    return None
