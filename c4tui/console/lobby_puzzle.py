"""``puzzle`` at ``lobby>`` (§8, issue 41): the lobby's daily puzzle, solved in plain text.

The server gives the puzzle with its solution; the try is judged here by
``puzzles.attempt.Attempt``, move by move (a right move is answered by the defence at
once, a wrong one ends the try), and the moves played are reported, so the server
judges them again and keeps the puzzle rating on the account: the same rating on every
machine. No solver runs here (the console runs an event loop): a wrong move is answered
with the solution, not with the solver's refutation.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from c4tui.client.link import LobbyLink
from c4tui.client.puzzles import fetch_puzzle, report_try, verdict_words
from c4tui.engine import Move, MoveKind, MoveSyntaxError, format_move, parse_move, render_board
from c4tui.protocols.puzzles import PuzzleOffer
from c4tui.puzzles.attempt import Attempt, Verdict, task_words
from c4tui.puzzles.puzzle import Puzzle

#: What the console shows while it waits for a puzzle's move.
PUZZLE_PROMPT = "puzzle> "
#: The words that give a try up (the solution is shown, the try counts as failed).
GIVE_UP = ("give up", "solution", "quit")
#: The command's line of ``help``.
HELP = (
    "  puzzle [next]                  the lobby's daily puzzle (next: one near your puzzle\n"
    "                                 rating); the server keeps your puzzle rating"
)
USAGE = "Type puzzle for the daily puzzle, or puzzle next."
NO_PUZZLE = "The server has no puzzle to give."
NO_LONGER_KNOWN = "The server no longer knows this puzzle: the try was not kept."


async def puzzle(
    link: LobbyLink, rest: str, ask: Callable[[str], Awaitable[str]], say: Callable[[str], None]
) -> None:
    """Fetch the daily (or, ``rest`` "next", the next) puzzle, let it be solved, report the try."""
    if rest.strip() not in ("", "next"):
        say(USAGE)
        return
    offer = await fetch_puzzle(link, following=rest.strip() == "next")
    if offer is None:
        say(NO_PUZZLE)
        return
    attempt = Attempt(puzzle_of(offer))
    ratings = f"rated {offer.rating}; your puzzle rating {offer.player_rating}"
    say(f"Puzzle {offer.puzzle_id} ({ratings}).")
    say(f"{task_words(attempt.puzzle)}. Type a column (give up shows the solution).")
    played = await _solve(attempt, ask, say)
    if attempt.solved:
        say(render_board(attempt.state, mark_win=attempt.state.is_over))
    else:
        say(f"The solution: {' '.join(attempt.puzzle.solution)}")
    verdict = await report_try(link, offer.puzzle_id, played)
    say(NO_LONGER_KNOWN if verdict is None else verdict_words(verdict))


def puzzle_of(offer: PuzzleOffer) -> Puzzle:
    """The puzzle PUZZLE's answer carries, in the trainer's shape."""
    return Puzzle(
        offer.puzzle_id, offer.moves, offer.solution, offer.goal, offer.themes, offer.rating
    )


async def _solve(
    attempt: Attempt, ask: Callable[[str], Awaitable[str]], say: Callable[[str], None]
) -> list[Move]:
    """The moves played until the try is over or given up; a move that cannot be is asked again.

    The board is shown at the start and after each defence: what changed.
    """
    played: list[Move] = []
    say(render_board(attempt.state))
    while not attempt.finished:
        typed = (await ask(PUZZLE_PROMPT)).strip()
        if typed.lower() in GIVE_UP:
            return played
        move = _drop_in(typed, attempt, say)
        if move is None:
            continue
        verdict, defence = attempt.play(move.column)
        played.append(move)
        if verdict is Verdict.WRONG:
            say(f"{format_move(move)} is not the move.")
        elif defence is not None:
            say(f"Right. The answer: {format_move(defence)}.")
            say(render_board(attempt.state))
    return played


def _drop_in(typed: str, attempt: Attempt, say: Callable[[str], None]) -> Move | None:
    """The drop ``typed`` names, if it can be played now; None (and why, said) if not."""
    try:
        move = parse_move(typed)
    except MoveSyntaxError as error:
        say(f"{error}: type a column (1-{attempt.state.columns}).")
        return None
    refusal = attempt.state.refusal(move)
    if move.kind is not MoveKind.DROP:
        refusal = "a puzzle is solved with drops only"
    if refusal is not None:
        say(f"{refusal[:1].upper()}{refusal[1:]}.")
        return None
    return move
