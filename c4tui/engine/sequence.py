"""Games as sequences of drops: column digits, and the drops that rebuild a classic board.

Column digits ("4453", red first) are the solvers' notation; the drops that rebuild
a board serve a program that wants the game so far when only the board is known.
"""

from __future__ import annotations

from c4tui.engine.errors import IllegalMoveError, MoveSyntaxError, PositionError
from c4tui.engine.game import DEFAULT_COLUMNS, DEFAULT_ROWS, GameState, Player
from c4tui.engine.moves import Move

#: One digit a column: boards wider than this cannot be written this way.
MAX_SEQUENCE_COLUMNS = 9


def play_sequence(text: str, columns: int = DEFAULT_COLUMNS, rows: int = DEFAULT_ROWS) -> GameState:
    """The classic position after the drops in ``text`` (digits 1 to ``columns``).

    Raises MoveSyntaxError for a character that is not a column, and
    IllegalMoveError for a drop into a full column or after the game ended.
    """
    if columns > MAX_SEQUENCE_COLUMNS:
        raise MoveSyntaxError(f"a digit sequence cannot name the columns of a {columns}-wide board")
    state = GameState.new(columns, rows)
    for number, character in enumerate(text, start=1):
        if not ("1" <= character <= str(columns)):
            raise MoveSyntaxError(f"move {number}: {character!r} is not a column (1-{columns})")
        if state.is_over:
            raise IllegalMoveError(f"move {number}: the game was already over")
        move = Move.drop(int(character) - 1)
        reason = state.refusal(move)
        if reason is not None:
            raise IllegalMoveError(f"move {number}: {reason}")
        state = state.play(move)
    return state


def drops_reaching(state: GameState, budget: int | None = None) -> tuple[Move, ...]:
    """Drops, red first, that lead from the empty board to ``state``'s board and turn.

    For a program that wants the game so far when only the board is known (a game
    come into under way), and for a position set up by hand: any order that
    alternates the colours and fills each column from the bottom will do, since a
    board without four in a row had none on the way. A Pop Out board does not tell
    its past: the drops reach the same board, not the positions seen before it
    (repetitions count from here, as for ``GameState.from_cells``). Raises
    PositionError when no order exists (the colours' counts cannot alternate, say
    after a pop, or the columns cannot be interleaved), and UndecidedPosition (a
    PositionError) when ``budget`` positions were tried without finding out (None:
    no bound).
    """
    stacks = [
        [state.cell(column, row) for row in range(state.column_height(column))]
        for column in range(state.columns)
    ]
    red = sum(stack.count(Player.RED) for stack in stacks)
    if red - (state.disc_count - red) != (0 if state.turn is Player.RED else 1):
        raise PositionError("the discs' colours do not alternate from red's first move")
    order = _Interleaving(stacks, budget).order()
    if order is None:
        raise PositionError("no order of drops reaches this board")
    return tuple(Move.drop(column) for column in order)


class UndecidedPosition(PositionError):
    """The search for drops that reach a board gave up before it knew whether any do."""


def _slot_parity(player: Player | None) -> int:
    """Red's drops are the even ones (0, 2, …), yellow's the odd ones."""
    return 0 if player is Player.RED else 1


class _Interleaving:
    """The columns to drop in, one after another, that rebuild ``stacks`` (bottom first).

    A depth-first search, leftmost column first, remembering the heights it found
    no way on from (``dead``), so each set of heights is tried once; and giving up on
    heights from which the discs left cannot all find a drop of their colour in time
    (``_hopeless``: a disc's earliest drop after the one below it comes after its
    latest before the one above it, or more discs of a colour must drop by some
    move than that colour has drops by then). Those checks only cut branches that
    lead nowhere, so the order found is the one the plain search would find, sooner:
    a 10 × 10 board with no order took 8 s without them.
    """

    def __init__(self, stacks: list[list[Player | None]], budget: int | None) -> None:
        self._stacks = stacks
        self._budget = budget
        self._total = sum(len(stack) for stack in stacks)
        self._latest = [self._latest_drops(stack) for stack in stacks]
        self._dead: set[tuple[int, ...]] = set()
        self._tried = 0

    def order(self) -> list[int] | None:
        """The columns in order (None: no order rebuilds the stacks)."""
        return self._from([0] * len(self._stacks), 0)

    def _latest_drops(self, stack: list[Player | None]) -> list[int]:
        """The latest drop (0-based) each disc of ``stack`` can be, the top one's last."""
        latest = [0] * len(stack)
        before = self._total  # the drop after the disc above
        for height in reversed(range(len(stack))):
            drop = before - 1
            if drop % 2 != _slot_parity(stack[height]):
                drop -= 1
            latest[height] = before = drop
        return latest

    def _from(self, heights: list[int], dropped: int) -> list[int] | None:
        """Columns to drop in, from ``heights`` on (``dropped`` discs down); None if none."""
        if dropped == self._total:
            return []
        key = tuple(heights)
        if key in self._dead:
            return None
        self._tried += 1
        if self._budget is not None and self._tried > self._budget:
            raise UndecidedPosition("no order of drops was found in time for this board")
        if not self._hopeless(heights, dropped):
            mover = Player.RED if dropped % 2 == 0 else Player.YELLOW
            for column, stack in enumerate(self._stacks):
                if heights[column] < len(stack) and stack[heights[column]] is mover:
                    heights[column] += 1
                    rest = self._from(heights, dropped + 1)
                    heights[column] -= 1
                    if rest is not None:
                        return [column, *rest]
        self._dead.add(key)
        return None

    def _hopeless(self, heights: list[int], dropped: int) -> bool:
        """True when the discs left cannot all drop in time, whatever the order."""
        deadlines: tuple[list[int], list[int]] = ([], [])
        for column, stack in enumerate(self._stacks):
            earliest = dropped - 1
            for height in range(heights[column], len(stack)):
                parity = _slot_parity(stack[height])
                earliest += 1 if (earliest + 1) % 2 == parity else 2
                latest = self._latest[column][height]
                if earliest > latest:
                    return True
                deadlines[parity].append(latest)
        for parity, latest_drops in enumerate(deadlines):
            first = dropped if dropped % 2 == parity else dropped + 1
            if any(latest < first + 2 * i for i, latest in enumerate(sorted(latest_drops))):
                return True
        return False
