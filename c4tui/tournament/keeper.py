"""What a tournament keeps as its games end: the results so far and, with a folder, its files.

After every game the record goes to ``games/`` and ``results.json`` is written again,
each whole or not at all, so a crash or Ctrl-C loses only the games under way. On
7 × 6 classic each game comes with the solver's review (``review.py``): its record
carries it as annotations, and the standings each player's accuracy and mistakes.
"""

from __future__ import annotations

import time
from pathlib import Path

from c4tui.records.format import RECORD_SUFFIX, GameRecord, Result, format_record
from c4tui.storage import write_atomically
from c4tui.tournament.results import GameResult, Plan, moves_text, write_results
from c4tui.tournament.review import GameReview, PlayerReview, player_reviews
from c4tui.tournament.standings import Outcome, Standing, standings

GAMES_FOLDER = "games"
LOGS_FOLDER = "logs"

_RESULTS = {Outcome.RED: Result.RED, Outcome.YELLOW: Result.YELLOW, Outcome.DRAW: Result.DRAW}


class Keeper:
    """The finished games of a tournament, and its folder (None: nothing is written).

    Args:
        plan: the tournament.
        folder: where its files go (``--out``), or None.
        finished: games already played (a resumed tournament's).
        reviews: the solver's review of each of them, in order, when the board has one.
    """

    def __init__(
        self,
        plan: Plan,
        folder: Path | None,
        finished: list[GameResult] | None = None,
        reviews: list[GameReview] | None = None,
    ) -> None:
        self.plan = plan
        self.folder = folder
        self.finished: list[GameResult] = list(finished or [])
        self.reviews: list[GameReview] = list(reviews or [])

    def standings(self) -> list[Standing]:
        """The table of the games finished so far, with the solver's verdicts when it gave them."""
        games = [game.played() for game in self.finished]
        return standings(self.plan.names, games, self._player_reviews())

    def _player_reviews(self) -> dict[str, PlayerReview] | None:
        """Each player's accuracy and costliest mistakes: None unless every game was reviewed."""
        if not self.finished or len(self.reviews) != len(self.finished):
            return None
        games = zip(self.finished, self.reviews, strict=True)
        return player_reviews([(game.red, game.yellow, review) for game, review in games])

    def add(self, result: GameResult, review: GameReview | None = None) -> None:
        """Count a finished game (and its review); with a folder, save its record and results.json.

        Games are numbered as they finish, as results.json lists them: the record
        ``games/0007-…`` is results.json's seventh game (the review's "game 7").
        """
        self.finished.append(result)
        if review is not None:
            self.reviews.append(review)
        if self.folder is None:
            return
        number = len(self.finished)
        name = f"{number:04d}-{result.red}-vs-{result.yellow}{RECORD_SUFFIX}"
        text = record_text(self.plan, number, result, review)
        write_atomically(self.folder / GAMES_FOLDER / name, text)
        self.write_results()

    def write_results(self) -> None:
        """Write results.json with the standings so far (a folder's only)."""
        if self.folder is not None:
            write_results(self.folder, self.standings(), self.finished, self.plan.checksums)


def record_text(
    plan: Plan, number: int, result: GameResult, review: GameReview | None = None
) -> str:
    """The game's c4tui record, with a comment naming the tournament's game and its opening."""
    options = plan.options
    record = GameRecord(
        options.columns,
        options.rows,
        plan.rules,
        result.moves,
        red=result.red,
        yellow=result.yellow,
        date=time.strftime("%Y-%m-%d %H:%M"),
        result=_RESULTS[result.outcome],
        reason=result.detail or result.reason.value,
        comments=review.comments() if review is not None else (),
    )
    total = len(plan.schedule)
    opening = moves_text(result.opening)
    first = len(result.opening) + 1
    note = (
        f"# Tournament game {number} of {total}; opening (moves 1-{first - 1}): {opening}; "
        f"the players chose from move {first}"
        if opening
        else f"# Tournament game {number} of {total}; no opening: the players chose every move"
    )
    header, rest = format_record(record).split("\n", 1)
    return f"{header}\n{note}\n{rest}"
