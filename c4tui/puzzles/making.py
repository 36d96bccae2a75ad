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
from c4tui.engine import GameState, Move, Player, format_move
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
    themes = _themes(state, scores, goal, last)
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
    state: GameState, scores: list[int | None], goal: str, last: GameState
) -> tuple[str, ...]:
    """The themes: the goal's, and "double threat" when the last move makes two.

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
        themes.append("double threat")
    return tuple(themes)


def immediate_wins(state: GameState, player: Player) -> int:
    """How many columns would give ``player`` four at once in ``state`` (whoever is to move)."""
    if state.is_over:
        return 0
    reachable = {(c, state.column_height(c)) for c in range(state.columns)}
    return sum(
        1 for cell, owners in state.threats().items() if cell in reachable and player in owners
    )


def positions_of_game(seed: int) -> Iterator[tuple[GameState, str]]:
    """Each position of one game between two Easy levels seeded from ``seed``, with its digits."""
    chooser = random.Random(seed)
    pickers = {
        Player.RED: ai_level(SOURCE_LEVEL).make(chooser.randrange(2**31)),
        Player.YELLOW: ai_level(SOURCE_LEVEL).make(chooser.randrange(2**31)),
    }
    state, digits = GameState.new(), ""
    while not state.is_over:
        move = pickers[state.turn].choose_move(state)
        state, digits = state.play(move), digits + str(move.column + 1)
        if state.disc_count >= FIRST_PLY:
            yield state, digits


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
    games = random.Random(seed)
    found: dict[int, Puzzle] = {}
    while len(found) < count:
        for state, digits in positions_of_game(games.randrange(2**31)):
            key = state.position_key()
            puzzle = None if key in found else puzzle_at(state, digits)
            if puzzle is not None:
                found[key] = puzzle
                if on_found is not None:
                    on_found(len(found))
                if len(found) == count:
                    break
    return list(found.values())


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
