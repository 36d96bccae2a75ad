"""The solver's review of a tournament's games: each move judged, each player's accuracy.

On 7 × 6 classic the solver proves what each position allows the side to move: a
win, a draw or a loss. A move *kept* the best outcome when the position after it
still allows its mover what the one before it did; otherwise it is a mistake, and
it cost the points between the two (a win 1, a draw ½, a loss 0, as the standings
count them): throwing a win away for a loss costs most. The opening's moves were
dealt, not chosen, so they are not judged. Each player gets its accuracy and its
costliest mistakes; each game's record gets the review as annotations.

The solving runs in the search pool's processes (``ai.proven_outcomes``, one job a
game); this module only reads their answers, so the solver never loads in the
process that runs the tournament.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING

from c4tui.engine import DEFAULT_COLUMNS, DEFAULT_ROWS, Move, Player, Rules, format_move

if TYPE_CHECKING:
    from c4tui.match.pool import SearchPool

#: How many of a player's mistakes the table and results.json show, costliest first.
MISTAKES_SHOWN = 3


class Outcome(Enum):
    """The best a position allows the side to move, as the solver proves it."""

    WIN = "win"
    DRAW = "draw"
    LOSS = "loss"

    @classmethod
    def proven(cls, outcome: int) -> Outcome:
        """The outcome of the solver's 1, 0 or -1."""
        return {1: cls.WIN, 0: cls.DRAW, -1: cls.LOSS}[outcome]

    @property
    def points(self) -> float:
        """What the outcome scores in the standings."""
        return {Outcome.WIN: 1.0, Outcome.DRAW: 0.5, Outcome.LOSS: 0.0}[self]


def reviewable(columns: int, rows: int, rules: Rules) -> bool:
    """Whether the solver can review this game's moves: 7 × 6 classic, its opening book's board."""
    return (columns, rows, rules) == (DEFAULT_COLUMNS, DEFAULT_ROWS, Rules.CLASSIC)


@dataclass(frozen=True)
class MoveVerdict:
    """One move judged: who played it and the best outcome its mover could force before and after.

    ``number`` counts from the game's first move, the opening's included.
    """

    number: int
    move: Move
    mover: Player
    before: Outcome
    after: Outcome

    @property
    def kept(self) -> bool:
        """Whether the move kept the best outcome its position allowed."""
        return self.after is self.before

    @property
    def cost(self) -> float:
        """The points the move threw away (0 when it kept the best outcome)."""
        return self.before.points - self.after.points

    def words(self) -> str:
        """``move 9 (Yellow, d3): win → loss``."""
        mover = self.mover.name.capitalize()
        return (
            f"move {self.number} ({mover}, {format_move(self.move)}): "
            f"{self.before.value} → {self.after.value}"
        )


@dataclass(frozen=True)
class GameReview:
    """Every move after the opening, judged (the opening's moves are not the players')."""

    verdicts: tuple[MoveVerdict, ...]
    opening_plies: int = 0

    def mistakes(self) -> tuple[MoveVerdict, ...]:
        """The moves that did not keep the best outcome, in the game's order."""
        return tuple(verdict for verdict in self.verdicts if not verdict.kept)

    def kept_and_judged(self, mover: Player) -> tuple[int, int]:
        """How many of ``mover``'s judged moves kept the best outcome, and how many were judged."""
        theirs = [verdict for verdict in self.verdicts if verdict.mover is mover]
        return sum(verdict.kept for verdict in theirs), len(theirs)

    def comments(self) -> tuple[str, ...]:
        """The record's annotations: what was judged, each side's share, then every mistake.

        Empty when no move was judged (the game ended within its opening).
        """
        if not self.verdicts:
            return ()
        lines = [
            "The solver's review: the best outcome each move's player could force, before → after"
        ]
        if self.opening_plies:
            lines.append(f"(the opening's {self.opening_plies} moves are not judged)")
        for mover in Player:
            kept, judged = self.kept_and_judged(mover)
            if judged:
                name, share = mover.name.capitalize(), percent(kept, judged)
                lines.append(
                    f"{name} kept the best outcome with {kept} of {judged} moves ({share})"
                )
        mistakes = self.mistakes()
        lines += [verdict.words() for verdict in mistakes] or ["No move threw an outcome away"]
        return tuple(lines)


def percent(kept: int, judged: int) -> str:
    """``89 %``: the share of moves kept, as the table and the annotations show it.

    Rounded down, so that a player with a mistake never shows a perfect 100 %.
    """
    return f"{kept * 100 // judged} %"


async def review_game(
    pool: SearchPool, moves: Sequence[Move], opening_plies: int, *, owner: object = None
) -> GameReview:
    """Judge every move of a 7 × 6 classic game after its first ``opening_plies``.

    ``moves`` is the game from the empty board, the opening included, up to its last
    move (a game lost by a crash or on time is judged up to there). The positions are
    solved in one of ``pool``'s processes, one job for the game, asked for ``owner``.
    Raises ValueError if ``moves`` is not a legal 7 × 6 classic game.
    """
    first = min(max(0, opening_plies), len(moves))
    if first == len(moves):
        return GameReview((), first)
    outcomes = await pool.proven_outcomes(moves, first, owner=owner)
    return GameReview(verdicts_from_outcomes(moves, first, outcomes), first)


def verdicts_from_outcomes(
    moves: Sequence[Move], first: int, outcomes: Sequence[int]
) -> tuple[MoveVerdict, ...]:
    """The verdicts on ``moves[first:]`` from their positions' proven outcomes.

    ``outcomes[k]`` is the outcome for the side to move before ``moves[first + k]``,
    the last one the position after the last move (``ai.proven_outcomes``): a move's
    "after" is its opponent's outcome next, seen from the other side. Red moves first
    and the sides alternate (classic rules). Raises ValueError on a count that does
    not match.
    """
    if len(outcomes) != len(moves) - first + 1:
        raise ValueError(f"{len(outcomes)} outcomes for {len(moves) - first} moves")
    return tuple(
        MoveVerdict(
            number=index + 1,
            move=moves[index],
            mover=Player.RED if index % 2 == 0 else Player.YELLOW,
            before=Outcome.proven(outcomes[index - first]),
            after=Outcome.proven(-outcomes[index - first + 1]),
        )
        for index in range(first, len(moves))
    )


@dataclass(frozen=True)
class Mistake:
    """A move that threw an outcome away, with its game (1: the tournament's first) and player."""

    game: int
    mover: str
    verdict: MoveVerdict

    @property
    def number(self) -> int:
        """The move's number in its game (1: the first, the opening counted)."""
        return self.verdict.number

    @property
    def before(self) -> Outcome:
        """The best outcome its mover could force before it."""
        return self.verdict.before

    @property
    def after(self) -> Outcome:
        """The best outcome its mover could force after it."""
        return self.verdict.after

    def words(self) -> str:
        """``move 9: win → loss``."""
        return f"move {self.number}: {self.before.value} → {self.after.value}"

    def words_with_game(self) -> str:
        """``game 7, move 9: win → loss``, for a table of the whole tournament."""
        return f"game {self.game}, {self.words()}"

    def to_json(self) -> dict[str, int | str]:
        """``{"game": 7, "move": 9, "played": "d3", "before": "win", "after": "loss"}``."""
        return {
            "game": self.game,
            "move": self.number,
            "played": format_move(self.verdict.move),
            "before": self.before.value,
            "after": self.after.value,
        }


@dataclass(frozen=True)
class PlayerReview:
    """One player's moves over the tournament: how many kept the best outcome, its worst mistakes.

    ``mistakes`` holds at most ``MISTAKES_SHOWN``, costliest first (see ``costliest``).
    """

    kept: int
    judged: int
    mistakes: tuple[Mistake, ...]

    @property
    def accuracy(self) -> float | None:
        """The share of its judged moves that kept the best outcome (None: none judged)."""
        return self.kept / self.judged if self.judged else None

    def accuracy_words(self) -> str:
        """``89 %``, or ``–`` when none of its moves was judged."""
        return percent(self.kept, self.judged) if self.judged else "–"

    def to_json(self) -> dict[str, float | list[dict[str, int | str]] | None]:
        """results.json's ``"accuracy"`` (a share, 0 to 1, or null) and ``"mistakes"``."""
        accuracy = None if self.accuracy is None else round(self.accuracy, 4)
        return {"accuracy": accuracy, "mistakes": [m.to_json() for m in self.mistakes]}


def player_reviews(games: Sequence[tuple[str, str, GameReview]]) -> dict[str, PlayerReview]:
    """Each player's review over ``games``, each (red's name, yellow's name, its review).

    The games come in the tournament's order: a mistake's game is its place there
    (1: the first). Every player of every game has an entry, in the order they first appear.
    """
    kept: dict[str, int] = {}
    judged: dict[str, int] = {}
    mistakes: dict[str, list[Mistake]] = {}
    for game, (red, yellow, review) in enumerate(games, start=1):
        names = {Player.RED: red, Player.YELLOW: yellow}
        for name in names.values():
            kept.setdefault(name, 0)
            judged.setdefault(name, 0)
            mistakes.setdefault(name, [])
        for verdict in review.verdicts:
            name = names[verdict.mover]
            kept[name] += verdict.kept
            judged[name] += 1
            if not verdict.kept:
                mistakes[name].append(Mistake(game, name, verdict))
    return {
        name: PlayerReview(kept[name], judged[name], costliest(mistakes[name])) for name in kept
    }


def costliest(mistakes: Sequence[Mistake], shown: int = MISTAKES_SHOWN) -> tuple[Mistake, ...]:
    """The ``shown`` costliest mistakes, worst first and earlier first among equals.

    A win thrown away for a loss (a point) comes before a win for a draw or a draw
    for a loss (half a point each).
    """
    return tuple(sorted(mistakes, key=lambda m: (-m.verdict.cost, m.game, m.number))[:shown])
