"""A game review that teaches: each move judged by what it did to the outcome; accuracies.

Before every move the analysis (``ai.analysis``) says what each column leads to. Where
the solver proves every position (``ai.exact_boards``) that is its proof, as a score in
Pons's convention (from the mover's side: positive a win, larger the sooner; 0 a draw;
negative a loss, nearer 0 the later); the move played is judged against the best
score the mover could have had. Elsewhere (large boards, Pop Out) the search's
verdicts stand in: the review is marked as estimates, and it has no scores.

A move's verdict, from the best score the mover could get and the one its move left:

- **best**: as good as the best;
- **inaccuracy**: still a win, but slower, or still a loss, but faster;
- **mistake**: a win thrown to a draw, or a draw to a loss;
- **blunder**: a win thrown to a loss.

This loads the solver (through ``ai.analysis``): it runs in the search pool's
processes, never in the process that runs an event loop (``match.pool``). What it
answers, and the words for it, are ``ai.review_verdicts``, which loads no solver.
"""

from __future__ import annotations

from collections.abc import Sequence

from c4tui.ai.analysis import Analysis, ColumnVerdict, Outcome, analyse_columns, move_verdict
from c4tui.ai.proven_outcomes import positions_of
from c4tui.ai.review_verdicts import GameReview, MoveReview, Verdict, verdict_of_scores
from c4tui.ai.search import CancelFlag, SearchAborted
from c4tui.engine import GameState, Move, MoveKind

#: How long the search may think about one position where the solver cannot prove (estimates).
ESTIMATE_SECONDS = 0.3


def review_game(
    start: GameState,
    moves: Sequence[Move],
    cancel: CancelFlag | None = None,
    estimate_seconds: float = ESTIMATE_SECONDS,
) -> GameReview:
    """Every move of the game played from ``start`` judged.

    The positions are analysed last first: on 7 × 6 the late ones solve quickest and
    leave in the solver's table bounds the earlier ones reuse. Raises ValueError at an
    illegal move (naming it), SearchAborted if ``cancel`` is set.
    """
    positions = positions_of(start, moves)
    reviews = [
        review_move(ply, positions[ply - 1], moves[ply - 1], cancel, estimate_seconds)
        for ply in range(len(moves), 0, -1)
    ]
    return GameReview(tuple(reversed(reviews)))


def review_move(
    ply: int,
    before: GameState,
    move: Move,
    cancel: CancelFlag | None = None,
    seconds: float = ESTIMATE_SECONDS,
) -> MoveReview:
    """``move``, the game's ``ply``-th, judged from the analysis of ``before``, where it was played.

    Raises ValueError if the game is over in ``before``, SearchAborted if ``cancel`` is set.
    """
    if cancel is not None and cancel.is_set():
        raise SearchAborted
    analysis = analyse_columns(before, seconds, cancel)
    if analysis.exact and move.kind is MoveKind.DROP:
        return _proven_review(ply, before, move, analysis)
    played = (
        analysis.columns[move.column]
        if move.kind is MoveKind.DROP
        else move_verdict(before, move, seconds, cancel)
    )
    assert played is not None  # the move was legal
    return _estimated_review(ply, before, move, analysis, played)


def _proven_review(ply: int, before: GameState, move: Move, analysis: Analysis) -> MoveReview:
    """The verdict from the solver's scores: every column's, the played one's."""
    scores = {c: v.score for c, v in enumerate(analysis.columns) if v is not None}
    best_score = max(scores.values())
    played = scores[move.column]
    best = tuple(Move.drop(c) for c, score in scores.items() if score == best_score)
    verdict = verdict_of_scores(best_score, played)
    labels = _labels(analysis)
    return MoveReview(ply, move, before.turn, verdict, best_score, played, best, True, labels)


def _estimated_review(
    ply: int,
    before: GameState,
    move: Move,
    analysis: Analysis,
    played: ColumnVerdict,
) -> MoveReview:
    """The verdict from the search's: how far the played move's class falls below the best's.

    The classes are a win or "looks good" (1), a draw or "looks even" (0), a loss or
    "looks bad" (-1): one class down is a mistake, two a blunder; a move in the best's
    class but not among the best columns is an inaccuracy. ``played`` is the verdict on
    the move played (a pop, in Pop Out, searched on its own as the analysis searches drops).
    """
    best_columns = analysis.best_columns()
    best_verdict = analysis.columns[analysis.best_column()]
    assert best_verdict is not None  # the best column is a playable one
    fall = _estimated_class(best_verdict) - _estimated_class(played)
    if fall > 0:
        verdict = [Verdict.MISTAKE, Verdict.BLUNDER][fall - 1]
    elif move.kind is MoveKind.DROP and move.column in best_columns:
        verdict = Verdict.BEST
    else:
        verdict = Verdict.BEST if played.score >= best_verdict.score else Verdict.INACCURACY
    best = tuple(Move.drop(c) for c in sorted(best_columns))
    return MoveReview(ply, move, before.turn, verdict, None, None, best, False, _labels(analysis))


def _labels(analysis: Analysis) -> tuple[str, ...]:
    """The analysis row's labels, "" under a full column: what the app shows under the board."""
    return tuple("" if verdict is None else verdict.label for verdict in analysis.columns)


def _estimated_class(verdict: ColumnVerdict) -> int:
    """1, 0 or -1: a win or better-looking, a draw or even-looking, a loss or worse-looking."""
    if verdict.outcome in (Outcome.WIN, Outcome.BETTER):
        return 1
    if verdict.outcome in (Outcome.LOSS, Outcome.WORSE):
        return -1
    return 0
