"""The first move where the loser could have saved the game, found on short proven endgames."""

from __future__ import annotations

import pytest

from c4tui.ai.analysis import Analysis, Outcome, analyse_columns
from c4tui.ai.turning_point import TurningPoint, standing, turning_point
from c4tui.engine import GameState, Move, Player

#: 16 moves in, RED to move: columns 3 and 5 hold a draw, every other column loses.
OPENING = "3651433667521135"
#: From there RED holds (3), YELLOW answers (3), then RED plays 1 where 5 held a draw,
#: and YELLOW wins with best play on both sides.
ENDGAME = "33155444"


def played(digits: str, state: GameState) -> tuple[tuple[GameState, ...], tuple[Move, ...]]:
    """The positions (the last one after the last move) and moves of ``digits`` from ``state``."""
    positions, moves = [state], []
    for digit in digits:
        moves.append(Move.drop(int(digit) - 1))
        positions.append(positions[-1].play(moves[-1]))
    return tuple(positions), tuple(moves)


def proven(positions: tuple[GameState, ...]) -> list[Analysis]:
    """The solver's analysis of every position a move was played in."""
    return [analyse_columns(state, 1.0) for state in positions[:-1]]


@pytest.fixture(scope="module")
def endgame() -> tuple[tuple[GameState, ...], tuple[Move, ...], list[Analysis]]:
    (*_, start), _ = played(OPENING, GameState.new(7, 6))
    positions, moves = played(ENDGAME, start)
    return positions, moves, proven(positions)


def test_the_blunder_is_the_first_move_into_a_lost_position(
    endgame: tuple[tuple[GameState, ...], tuple[Move, ...], list[Analysis]],
) -> None:
    positions, moves, analyses = endgame
    assert positions[-1].winner is Player.YELLOW
    found = turning_point(positions, moves, analyses, Player.RED, first=17)
    assert found == TurningPoint(19, Move.drop(0), Player.RED, instead=4, won=False)
    assert found.words("ann") == (
        "Move 10 (ann, column 1) lost the game: column 5 would have held a draw"
    )  # the 19th move is the move list's "10. d1"
    # The move before it (17) held: column 3 keeps the draw, as the opening's note says.
    assert standing(analyses[0].columns[2]) == 0


def test_the_winner_never_blundered_and_the_move_kept_is_a_loss_with_a_draw_beside_it(
    endgame: tuple[tuple[GameState, ...], tuple[Move, ...], list[Analysis]],
) -> None:
    positions, moves, analyses = endgame
    assert turning_point(positions, moves, analyses, Player.YELLOW, first=17) is None
    before_blunder = analyses[2]
    assert before_blunder.columns[0] is not None
    assert before_blunder.columns[0].outcome is Outcome.LOSS
    assert before_blunder.columns[4] is not None
    assert before_blunder.columns[4].outcome is Outcome.DRAW


def test_a_loser_lost_from_the_start_made_no_losing_move(
    endgame: tuple[tuple[GameState, ...], tuple[Move, ...], list[Analysis]],
) -> None:
    """From just after the blunder RED was lost already: nothing RED did later lost it."""
    positions, moves, analyses = endgame
    assert turning_point(positions[3:], moves[3:], analyses[3:], Player.RED, first=20) is None


def test_a_win_thrown_away_names_the_winning_column() -> None:
    """YELLOW could win at once (column 4 makes four), plays 7, and RED makes four in 1."""
    (*_, start), _ = played("1414142", GameState.new(7, 6))  # RED: 1 1 1 2; YELLOW: 4 4 4
    positions, moves = played("71", start)
    assert positions[-1].winner is Player.RED
    analyses = proven(positions)
    found = turning_point(positions, moves, analyses, Player.YELLOW, first=8)
    assert found is not None and (found.number, found.instead, found.won) == (8, 3, True)
    assert "column 4 would have won" in found.words("bob")


def test_analyses_must_be_proven_and_one_a_move(
    endgame: tuple[tuple[GameState, ...], tuple[Move, ...], list[Analysis]],
) -> None:
    positions, moves, analyses = endgame
    with pytest.raises(ValueError, match="proven analysis"):
        turning_point(positions, moves, analyses[:-1], Player.RED)
    guessed = [Analysis(False, analysis.columns) for analysis in analyses]
    with pytest.raises(ValueError, match="proven analysis"):
        turning_point(positions, moves, guessed, Player.RED)
