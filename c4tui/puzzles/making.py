"""Puzzles from real play: a 7 × 6 classic position with exactly one move that reaches the goal.

A position is a puzzle when its side to move (the solver side) has exactly one move
that wins (goal "win"), or, in a position that is not a win, exactly one move that
does not lose (goal "hold"). The solution follows the solver's proof: the solver
side's only move, the opponent's best defence (the move that loses slowest, by the
solver's score; among equals nearest the centre, as ``ai.best_line`` picks), then the
solver side's only move again, until the game ends, the depth is reached or the
solver side has more than one move reaching the goal. The solution always ends with
a solver-side move: a defence after which the way on is not unique is dropped. A win
in one (four at once) is left out: the threat marks already show it.

The positions come from games between two Easy levels (``ai.levels``' TacticalPlayer,
seeded from one ``random.Random``): they take the wins they see and block the ones
they see, so their positions look like play, and a seed gives the same games (no
level with a time budget, whose moves would depend on the machine's speed).

This loads the solver (through ``ai.perfect``): it runs where the solver may run,
never in the process that runs an event loop.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator

from c4tui.ai.best_line import best_column
from c4tui.ai.levels import ai_level
from c4tui.ai.perfect import exact_scores
from c4tui.ai.search import first_player_rows
from c4tui.engine import GameState, Move, Player, format_move, parse_move
from c4tui.engine.bitboard import cell_bit
from c4tui.engine.sequence import play_sequence
from c4tui.puzzles.attempt import Refutation
from c4tui.puzzles.puzzle import HOLD, WIN, WINNING_LINE, Puzzle

#: The most solver-side moves a solution holds.
MAX_SOLVER_MOVES = 6
#: A puzzle's starting rating: this for one solver move, and STEP_RATING more for each further.
#: A first guess, to be corrected by how players solve them (issue 41's Glicko-2 ratings).
BASE_RATING = 1200
STEP_RATING = 150
#: Positions before this many discs are not tried: the opening is the book's, not a puzzle's.
FIRST_PLY = 8
#: The themes read on the board after the solution (see ``_themes`` and ``is_zugzwang``).
DOUBLE_THREAT, ZUGZWANG = "double threat", "zugzwang"
#: A source game is cut after this many plies a cell of its board (only Pop Out's go on so).
MAX_GAME_PLIES = 2
#: The level whose games the puzzles are taken from (its moves are repeatable for a seed).
SOURCE_LEVEL = "easy"


def reaching_goal(scores: list[int | None], goal: str) -> list[int]:
    """The columns whose score reaches ``goal`` for the side to move: a win, or not a loss."""
    floor = 1 if goal == WIN else 0
    return [c for c, score in enumerate(scores) if score is not None and score >= floor]


def goal_of(scores: list[int | None]) -> str | None:
    """The goal a position with these scores is a puzzle for, or None when it is none.

    A win with exactly one winning move; a position that is not a win with exactly
    one move that does not lose.
    """
    if len(reaching_goal(scores, WIN)) == 1:
        return WIN
    best = max(score for score in scores if score is not None)
    if best <= 0 and len(reaching_goal(scores, HOLD)) == 1:
        return HOLD
    return None


def puzzle_at(
    state: GameState, digits: str, max_solver_moves: int = MAX_SOLVER_MOVES
) -> Puzzle | None:
    """The puzzle in ``state`` (reached by the column ``digits``), or None when it is none."""
    if state.is_over:
        return None
    scores = exact_scores(state)
    if scores is None:
        raise ValueError("puzzles are proven only on 7 × 6 classic")
    goal = goal_of(scores)
    if goal is None or state.drop(reaching_goal(scores, goal)[0]).winner is not None:
        return None  # no puzzle, or a win in one
    solution, last = _solution(state, scores, goal, max_solver_moves)
    themes = _themes(state, goal, solution, last)
    rating = BASE_RATING + STEP_RATING * ((len(solution) + 1) // 2 - 1)
    return Puzzle(digits, digits, solution, goal, themes, rating)


def _solution(
    state: GameState, scores: list[int | None], goal: str, max_solver_moves: int
) -> tuple[tuple[str, ...], GameState]:
    """The solution's moves from ``state`` and the position after its last solver move."""
    moves: list[Move] = []
    position = state
    for _ in range(max_solver_moves):
        only = reaching_goal(scores, goal)
        if len(only) != 1:
            break
        moves.append(Move.drop(only[0]))
        position = position.drop(only[0])
        defence_scores = exact_scores(position)
        if defence_scores is None:  # the game is over: the four, or a full board
            break
        moves.append(Move.drop(best_column(defence_scores)))
        position = position.play(moves[-1])
        next_scores = exact_scores(position)
        if next_scores is None:
            break
        scores = next_scores
    if len(moves) % 2 == 0:
        moves.pop()  # end on the solver side's move: the defence after it led nowhere unique
    last = state
    for move in moves:
        last = last.play(move)
    return tuple(map(format_move, moves)), last


def _themes(
    state: GameState, goal: str, solution: tuple[str, ...], last: GameState
) -> tuple[str, ...]:
    """The themes: the goal's, "double threat" when the last move makes two, and "zugzwang".

    A win whose solution ends in the four is "win in N" (N the solver side's moves);
    one cut short at the depth, or where the way on stops being unique, is "winning
    line": its solution is the start of a longer win, and saying "win in 14" for a
    six-move solution would ask for what the puzzle does not check.
    """
    if goal == WIN and last.winner is not None:
        themes = [f"win in {(last.disc_count - state.disc_count + 1) // 2}"]
    elif goal == WIN:
        themes = [WINNING_LINE]
    else:
        themes = [HOLD]
    if immediate_wins(last, state.turn) >= 2:
        themes.append(DOUBLE_THREAT)
    if is_zugzwang(state, solution):
        themes.append(ZUGZWANG)
    return tuple(themes)


def is_zugzwang(start: GameState, solution: tuple[str, ...]) -> bool:
    """Whether the solution wins or holds by a threat on the solver side's own row parity.

    In Connect Four theory (Allis) the first player wants threats on the odd rows
    (1-based from the bottom, on 7 × 6), the second on the even ones
    (``ai.search.first_player_rows`` says which on any size): as the board fills
    up, the opponent is at last forced to drop under such a threat. Precisely,
    with "a good cell" meaning an empty cell where a disc would give the solver
    side four, on a row of its own parity, the solution is "zugzwang" when

    - after its last move the game goes on and the solver side has a good cell
      with the cell under it empty and no threat of the opponent's lower in that
      column (a cell the opponent must never fill under), and the opponent has no
      such cell of its own (then it is a race of threats, not the solver's zugzwang); or
    - it ends in the four, made in a good cell that the last defence filled under.

    Both are read on the board alone (no solver), as a test can check them.
    """
    solver_side = start.turn
    positions = [start]
    for notation in solution:
        positions.append(positions[-1].play(parse_move(notation)))
    last = positions[-1]
    if last.winner is solver_side:
        if len(solution) < 3 or not solution[-1].startswith("d"):  # a four by a pop: no cell
            return False
        column = parse_move(solution[-1]).column
        row = last.column_height(column) - 1
        under_filled_by_defence = solution[-2] == solution[-1]  # a drop in the same column
        return under_filled_by_defence and row in own_rows(last, solver_side)
    if last.is_over or threats_to_fill_under(last, solver_side.other):
        return False
    return bool(threats_to_fill_under(last, solver_side))


def own_rows(state: GameState, player: Player) -> frozenset[int]:
    """The 0-based rows of ``player``'s own parity on this board (Allis's odd/even threats)."""
    first_rows = first_player_rows(state.geometry)
    firsts = {row for row in range(state.rows) if first_rows & cell_bit(state.geometry, 0, row)}
    mine = firsts if player is Player.RED else set(range(state.rows)) - firsts
    return frozenset(mine)


def threats_to_fill_under(state: GameState, player: Player) -> list[tuple[int, int]]:
    """The cells the opponent must not fill under: ``player``'s threats on its own rows.

    Not yet playable (the cell under is empty), with no threat of the opponent's
    lower in their column.
    """
    threats = state.threats()
    rows = own_rows(state, player)
    return [
        (column, row)
        for (column, row), owners in threats.items()
        if player in owners
        and row in rows
        and row > state.column_height(column)
        and not any(
            state.column_height(column) <= below < row
            and player.other in threats.get((column, below), frozenset())
            for below in range(row)
        )
    ]


def immediate_wins(state: GameState, player: Player) -> int:
    """How many columns would give ``player`` four at once in ``state`` (whoever is to move)."""
    if state.is_over:
        return 0
    reachable = {(c, state.column_height(c)) for c in range(state.columns)}
    return sum(
        1 for cell, owners in state.threats().items() if cell in reachable and player in owners
    )


def positions_of_game(
    seed: int, board: GameState | None = None
) -> Iterator[tuple[GameState, list[Move]]]:
    """Each position from ``FIRST_PLY`` plies on of a game between two seeded Easy levels.

    The levels are seeded from ``seed``; the game starts on the empty ``board``
    (None: 7 × 6 classic); each position comes with the moves that reached it (one
    list, growing: copy it to keep it). A game lasts at most ``MAX_GAME_PLIES`` a
    cell of the board (Pop Out games may go on long).
    """
    chooser = random.Random(seed)
    pickers = {
        Player.RED: ai_level(SOURCE_LEVEL).make(chooser.randrange(2**31)),
        Player.YELLOW: ai_level(SOURCE_LEVEL).make(chooser.randrange(2**31)),
    }
    state = GameState.new() if board is None else board
    moves: list[Move] = []
    longest = MAX_GAME_PLIES * state.columns * state.rows
    while not state.is_over and len(moves) < longest:
        move = pickers[state.turn].choose_move(state)
        state = state.play(move)
        moves.append(move)
        if len(moves) >= FIRST_PLY:
            yield state, moves


def puzzles_in_game(digits: str) -> list[Puzzle]:
    """The puzzles in one finished 7 × 6 classic game's positions (a server's games, issue 41).

    Each position from ``FIRST_PLY`` discs on is tried, as for the Easy levels' games; one
    position reached twice is one puzzle. Raises ValueError for digits that are not a game.
    """
    play_sequence(digits)  # raises for a move that is not a column or not legal
    found: dict[int, Puzzle] = {}
    state = GameState.new()
    for ply, character in enumerate(digits, start=1):
        state = state.drop(int(character) - 1)
        key = state.position_key()
        if ply >= FIRST_PLY and key not in found:
            puzzle = puzzle_at(state, digits[:ply])
            if puzzle is not None:
                found[key] = puzzle
    return list(found.values())


def make_puzzles(
    count: int, seed: int, on_found: Callable[[int], None] | None = None
) -> list[Puzzle]:
    """``count`` distinct puzzles from games seeded from ``seed``: the same ones for a seed.

    Distinct positions, not digits: two move orders reaching one position are one
    puzzle (the first found). ``on_found`` is told how many have been found after
    each new one (a progress bar).
    """
    return collect_puzzles(
        count, seed, lambda state, moves: puzzle_at(state, column_digits(moves)), None, on_found
    )


#: What finds the puzzle in a position reached by these moves (or None: there is none).
PuzzleFinder = Callable[[GameState, list[Move]], "Puzzle | None"]


def collect_puzzles(
    count: int,
    seed: int,
    find: PuzzleFinder,
    board: GameState | None = None,
    on_found: Callable[[int], None] | None = None,
) -> list[Puzzle]:
    """``count`` puzzles ``find`` finds in the positions of games seeded from ``seed``.

    The games start on the empty ``board`` (None: 7 × 6 classic); each position
    counts once (the first found), however many games reach it.
    """
    games = random.Random(seed)
    found: dict[int, Puzzle] = {}
    while len(found) < count:
        for state, moves in positions_of_game(games.randrange(2**31), board):
            key = state.position_key()
            puzzle = None if key in found else find(state, moves)
            if puzzle is not None:
                found[key] = puzzle
                if on_found is not None:
                    on_found(len(found))
                if len(found) == count:
                    break
    return list(found.values())


def column_digits(moves: list[Move]) -> str:
    """The drops as the solvers' column digits ("4453")."""
    return "".join(str(move.column + 1) for move in moves)


def refutation(after_wrong: GameState) -> Refutation:
    """The best reply to a wrong move and the outcome it leads to, proven by the solver.

    ``after_wrong`` is the position the wrong move made, the opponent to move. A wrong
    move never makes four (it would have been a winning move), so the game goes on,
    unless the board is full: then a draw, with no reply.
    """
    scores = exact_scores(after_wrong)
    if scores is None:
        return Refutation(None, after_wrong.winner)
    best = max(score for score in scores if score is not None)
    winner = after_wrong.turn if best > 0 else after_wrong.turn.other if best < 0 else None
    return Refutation(Move.drop(best_column(scores)), winner)
