"""A game review's verdicts, and their words: what the app, the command line and records read.

The review itself (``ai.game_review``) loads the solver and runs in the search pool's
processes; this holds only what it answers, so a front end can show it without the
solver. A move is **best** (as good as the best move), an **inaccuracy** (a slower win
or a faster loss), a **mistake** (a win thrown to a draw, a draw to a loss) or a
**blunder** (a win thrown to a loss). A player's accuracy is the share of their moves
that were best, an inaccuracy counting one half.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from enum import Enum

from c4tui.engine import Move, Player, format_move

#: What a move counts for in its player's accuracy: a best move whole, an inaccuracy half.
ACCURACY_CREDIT = {"best": 1.0, "inaccuracy": 0.5, "mistake": 0.0, "blunder": 0.0}


class Verdict(Enum):
    """What a move did to the outcome its mover could force."""

    BEST = "best"
    INACCURACY = "inaccuracy"
    MISTAKE = "mistake"
    BLUNDER = "blunder"

    @property
    def credit(self) -> float:
        """What the move counts for in its player's accuracy (``ACCURACY_CREDIT``)."""
        return ACCURACY_CREDIT[self.value]

    @property
    def threw_outcome(self) -> bool:
        """A mistake or a blunder: the move changed the outcome, not only its speed."""
        return self in (Verdict.MISTAKE, Verdict.BLUNDER)


@dataclass(frozen=True)
class MoveReview:
    """One move judged.

    ``ply`` counts every move from 1; ``score_before`` is the best score the mover
    could get, ``score_after`` what the move played left it, from the same side (both
    None where unproven: ``exact`` is False); ``best`` is every move that gets the best.
    """

    ply: int
    move: Move
    mover: Player
    verdict: Verdict
    score_before: int | None
    score_after: int | None
    best: tuple[Move, ...]
    exact: bool
    #: Each column's outcome before the move, as the analysis row labels it ("W3", "D").
    labels: tuple[str, ...] = ()


@dataclass(frozen=True)
class GameReview:
    """Every move of a game judged, in order."""

    moves: tuple[MoveReview, ...]

    @property
    def exact(self) -> bool:
        """Whether the solver proved every verdict (False: some are the search's estimates)."""
        return all(move.exact for move in self.moves)

    def accuracy(self, player: Player) -> float | None:
        """The share of ``player``'s moves that were best, an inaccuracy counting one half.

        None if the player made no move.
        """
        credits = [move.verdict.credit for move in self.moves if move.mover is player]
        return sum(credits) / len(credits) if credits else None


def verdict_of_scores(before: int, after: int) -> Verdict:
    """The verdict on a move from the best score its mover could get and the one it left.

    Both are from the mover's side (Pons's convention: their signs are the outcomes).
    """
    if after >= before:
        return Verdict.BEST
    fall = _sign(before) - _sign(after)
    return [Verdict.INACCURACY, Verdict.MISTAKE, Verdict.BLUNDER][fall]


def _sign(score: int) -> int:
    return (score > 0) - (score < 0)


# ----- in words and as JSON -------------------------------------------------------------

#: Said beside a review the solver did not prove, wherever it is shown.
ESTIMATES_NOTE = "(estimates: not proven by the solver)"


def move_words(review: MoveReview) -> str:
    """``12. d4  red  mistake (best: d3)``: the ply, the move, its mover, its verdict.

    The best moves are named only beside a move that was not one of them.
    """
    line = f"{review.ply}. {format_move(review.move)}  {colour(review.mover)}  "
    return line + review.verdict.value + _best_words(review)


def _best_words(review: MoveReview) -> str:
    if review.verdict is Verdict.BEST:
        return ""
    return f" (best: {' '.join(format_move(move) for move in review.best)})"


def colour(player: Player) -> str:
    """``red`` or ``yellow``, as the JSON and the lines name a mover."""
    return player.name.lower()


def accuracy_words(review: GameReview) -> str:
    """``Accuracy: red 75 %, yellow 100 %`` (``no moves`` for a player who made none)."""
    return "Accuracy: " + ", ".join(accuracy_parts(review))


def accuracy_parts(review: GameReview) -> list[str]:
    """``["red 75 %", "yellow 100 %"]``: each player's accuracy, for a line or a narrow panel."""
    return [f"{colour(player)} {_percent(review.accuracy(player))}" for player in Player]


def _percent(share: float | None) -> str:
    return "no moves" if share is None else f"{round(share * 100)} %"


def review_lines(review: GameReview) -> list[str]:
    """The whole review as ``c4tui review`` prints it: a line a move, then the accuracies."""
    lines = [move_words(move) for move in review.moves]
    lines.append(accuracy_words(review))
    if not review.exact:
        lines.append(ESTIMATES_NOTE)
    return lines


JsonMove = dict[str, int | str | list[str] | None]


def review_json(review: GameReview) -> dict[str, object]:
    """``{"moves": [{"ply": 1, "move": "d4", …}, …], "accuracy": {"red": 0.97, …}}``.

    Scores are the solver's (Pons's convention, from the mover's side), null where
    unproven; accuracies are rounded to two places, null for a player with no moves.
    """
    return {
        "moves": [_move_json(move) for move in review.moves],
        "accuracy": {colour(player): _rounded(review.accuracy(player)) for player in Player},
    }


def _move_json(review: MoveReview) -> JsonMove:
    return {
        "ply": review.ply,
        "move": format_move(review.move),
        "mover": colour(review.mover),
        "verdict": review.verdict.value,
        "score_before": review.score_before,
        "score_after": review.score_after,
        "best": [format_move(move) for move in review.best],
    }


def _rounded(share: float | None) -> float | None:
    return None if share is None else round(share, 2)


# ----- as a record's annotations ----------------------------------------------------------

#: The first annotation of a review saved in a record: the lines after it are the review's.
ANNOTATIONS_HEADING = "c4tui review: the moves that were not best, and each player's accuracy"


def review_annotations(review: GameReview, earlier: tuple[str, ...] = ()) -> tuple[str, ...]:
    """A record's annotations with the review's: one line a move that was not best, the accuracies.

    ``earlier`` is what the record held; a review saved before (from its heading on) is
    replaced, anything above it (a tournament's review) kept.
    """
    earlier = tuple(
        itertools.takewhile(lambda line: not line.startswith(ANNOTATIONS_HEADING), earlier)
    )
    heading = ANNOTATIONS_HEADING + ("" if review.exact else " " + ESTIMATES_NOTE)
    moves = [move_words(move) for move in review.moves if move.verdict is not Verdict.BEST]
    return (*earlier, heading, *moves, accuracy_words(review))


# ----- in the app: marks and the evaluation graph ---------------------------------------------

#: After a move in the move list, as chess marks them (a best move has none).
VERDICT_MARKS = {Verdict.INACCURACY: "?!", Verdict.MISTAKE: "?", Verdict.BLUNDER: "??"}

#: The evaluation graph's characters, lowest first: yellow wins fast … a draw (the middle)
#: … red wins fast. Heights, not colours, so that it reads without colour.
GRAPH_BLOCKS = "▁▂▃▄▆▇█"
#: The same with ASCII only (``--ascii``): low to high.
GRAPH_ASCII = "_.-=+*#"
#: A move whose outcome is not proven (an estimate).
GRAPH_UNKNOWN = "?"
#: Pons's scores from this far from 0 count as fast (higher or lower in the graph), then faster.
FAST_SCORE, FASTER_SCORE = 4, 10


def verdict_mark(review: MoveReview) -> str:
    """``?!``, ``?`` or ``??`` after a move that was not best; "" after a best one."""
    return VERDICT_MARKS.get(review.verdict, "")


def evaluation_graph(review: GameReview, ascii_only: bool = False) -> str:
    """One character a move: the proven outcome after it, from red's side, as a height.

    A draw is the middle height; a red win is higher (the sooner, the higher), a yellow
    win lower; an unproven move is ``?``.
    """
    blocks = GRAPH_ASCII if ascii_only else GRAPH_BLOCKS
    return "".join(_graph_character(move, blocks) for move in review.moves)


def _graph_character(move: MoveReview, blocks: str) -> str:
    if move.score_after is None:
        return GRAPH_UNKNOWN
    red_score = move.score_after if move.mover is Player.RED else -move.score_after
    middle = len(blocks) // 2
    speed = (abs(red_score) >= FAST_SCORE) + (abs(red_score) >= FASTER_SCORE)
    if red_score > 0:
        return blocks[middle + 1 + speed]
    if red_score < 0:
        return blocks[middle - 1 - speed]
    return blocks[middle]


def shown_move_words(review: GameReview, ply: int) -> str:
    """What the review says of move ``ply`` (1: the first): ``d5: mistake, best was d4``.

    "" for the empty board (0) or a move the review did not judge; an estimate says so.
    """
    if not 0 < ply <= len(review.moves):
        return ""
    move = review.moves[ply - 1]
    words = f"{format_move(move.move)}: {move.verdict.value}"
    if move.verdict is not Verdict.BEST:
        words += f", best was {' '.join(format_move(best) for best in move.best)}"
    return words + ("" if move.exact else " (estimated)")


def next_mistake(review: GameReview, ply: int, step: int) -> int | None:
    """The ply of the next (``step`` 1) or previous (-1) mistake or blunder; None if none.

    Inaccuracies are passed over: they change how soon, not the outcome.
    """
    plies = [move.ply for move in review.moves if move.verdict.threw_outcome]
    ahead = [p for p in plies if (p - ply) * step > 0]
    if not ahead:
        return None
    return min(ahead) if step > 0 else max(ahead)
