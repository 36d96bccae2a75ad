"""The chaos run's referee (bench/chaos.py) passes legal games and catches every kind of wrong one.

The chaos run's "every completed game legal" is only worth what its referee can see:
here it is handed games the engine played, and the same games tampered with.
"""

from __future__ import annotations

from types import ModuleType

import pytest

from c4tui.engine import GameState, Move, Rules
from c4tui.protocols import lobby as wire
from c4tui.tictactoe import Board
from tests.bench_modules import bench_module

#: Red drops in column 1, yellow in column 2, red wins with its fourth disc.
RED_WINS = [Move.drop(0), Move.drop(1)] * 3 + [Move.drop(0)]
CLASSIC_4X4 = (4, 4, Rules.CLASSIC)


@pytest.fixture(scope="module")
def chaos() -> ModuleType:
    """bench/chaos.py, imported from its file."""
    return bench_module("chaos")


def test_games_against_the_ai(chaos: ModuleType) -> None:
    def verdict(moves: list[Move], end: str) -> str | None:
        game = chaos.AIGame("i32cfsp", CLASSIC_4X4, moves, end)
        return chaos.referee_ai_game(game)  # type: ignore[no-any-return]

    assert verdict(RED_WINS, "WINNER_RED") is None
    assert "engine says 'WINNER_RED'" in (verdict(RED_WINS, "WINNER_YELLOW") or "")
    assert "illegal" in (verdict([Move.pop(0), *RED_WINS], "WINNER_RED") or "")
    assert "still going on" in (verdict(RED_WINS[:-1], "WINNER_RED") or "")
    assert "after the end" in (verdict([*RED_WINS, Move.drop(3)], "WINNER_RED") or "")


def boards_of(moves: list[Move]) -> tuple[list[str], str]:
    """BOARDSTATUS after each move but the last, and GAMEEND's board."""
    state, boards = GameState.new(*CLASSIC_4X4), []
    for move in moves:
        state = state.play(move)
        boards.append(wire.cells(state))
    return boards[:-1], boards[-1]


def test_room_games_as_players_and_viewers_saw_them(chaos: ModuleType) -> None:
    boards, last = boards_of(RED_WINS)

    def verdict(seen: list[str], end: str, start: str = "", red_to_move: bool = True) -> object:
        view = chaos.RoomView(
            "lobby", CLASSIC_4X4, "ann", "bob", start, red_to_move, boards=seen, end=end
        )
        return chaos.referee_room_view(view)

    assert verdict(boards, f"GAMEEND:{last}:0:ann") is None
    assert verdict(boards[2:], f"GAMEEND:{last}:0:ann", start=boards[1]) is None  # joined midway
    assert verdict(boards, f"GAMEEND:{last}:0:bob") is not None  # the wrong winner
    assert verdict(boards, f"GAMEEND:{last}:1") is not None  # a draw that is none
    assert verdict(boards[:2] + boards[3:], f"GAMEEND:{last}:0:ann") is not None  # a move lost
    assert verdict(boards, f"GAMEEND:{boards[-1]}:2:ann") is None  # bob forfeited
    assert verdict(boards, f"GAMEEND:{last}:2:ann") is not None  # a forfeit that moved a disc
    wrong_turn = verdict(boards[2:], f"GAMEEND:{last}:0:ann", start=boards[1], red_to_move=False)
    assert wrong_turn is not None


def test_a_viewers_pop_out_draw_by_repetition_cannot_be_checked(chaos: ModuleType) -> None:
    """A viewer that joined midway has not seen the repetitions before it joined."""
    game = (4, 4, Rules.POPOUT)
    state = GameState.new(*game).play_all([Move.drop(0), Move.drop(1)])
    boards = [wire.cells(state.play(Move.drop(2)))]
    view = chaos.RoomView("lobby", game, "ann", "bob", wire.cells(state), True, boards=boards)
    view.end = f"GAMEEND:{wire.cells(state.play(Move.drop(2)).play(Move.drop(3)))}:1"
    assert chaos.referee_room_view(view).startswith(chaos.UNCHECKABLE)
    view.start = ""  # a player saw it all: no draw there
    view.boards = [wire.cells(GameState.new(*game).play(Move.drop(0))), wire.cells(state), *boards]
    assert "a draw the engine does not see" in chaos.referee_room_view(view)


def test_tictactoe_rooms(chaos: ModuleType) -> None:
    board, boards = Board(), []
    for x, y in [(0, 0), (1, 1), (0, 1), (2, 2), (0, 2)]:  # X wins down the left
        board = board.place(x, y)
        boards.append(board.text())

    def verdict(seen: list[str], end: str) -> object:
        view = chaos.RoomView("tictactoe", None, "ann", "bob", boards=seen, end=end)
        return chaos.referee_room_view(view)

    assert verdict(boards[:-1], f"GAMEEND:{boards[-1]}:0:ann") is None
    assert verdict(boards[:-1], f"GAMEEND:{boards[-1]}:0:bob") is not None
    assert verdict(boards[:-2], f"GAMEEND:{boards[-1]}:0:ann") is not None  # two moves at once


def test_a_player_back_after_a_restart_may_find_two_moves_made(chaos: ModuleType) -> None:
    """Its move sent before the drop and the reply made while it was away: one REJOIN board."""
    boards, last = boards_of(RED_WINS)
    skipped = boards[:2] + boards[3:]  # the board after the third move never came on its own
    view = chaos.RoomView("lobby", CLASSIC_4X4, "ann", "bob", boards=skipped, me="ann")
    view.end = f"GAMEEND:{last}:0:ann"
    assert chaos.referee_room_view(view) is not None  # two moves at once, with no REJOIN
    view.resumes = {2}  # the REJOIN's board
    assert chaos.referee_room_view(view) is None
    view.boards = boards[:1] + boards[4:]  # three moves are too many even there
    view.resumes = {1}
    assert chaos.referee_room_view(view) is not None


def test_no_game_lost_needs_the_end_both_saw_kept_by_game(chaos: ModuleType) -> None:
    boards, last = boards_of(RED_WINS)
    moves = " ".join(f"d{move.column + 1}" for move in RED_WINS)
    kept = {7: ["7", "ann", "bob", "4", "4", "classic", "ann", "four", moves, "0", "2026"]}

    def verdict(games: dict[int, list[str]], bob_saw: str = f"GAMEEND:{last}:0:ann") -> str:
        views = [
            chaos.RoomView("lobby", CLASSIC_4X4, "ann", "bob", boards=boards, me=me, room="q")
            for me in ("ann", "bob")
        ]
        views[0].end, views[1].end = f"GAMEEND:{last}:0:ann", bob_saw
        for view in views:
            view.outcome = "ended"
        return chaos.judge_one_game(views, dict(games))  # type: ignore[no-any-return]

    assert verdict(kept) == "both saw"
    assert verdict({}).startswith("lost: GAME has no record")
    assert verdict(kept, bob_saw=f"GAMEEND:{last}:0:bob").startswith("lost: the players saw")
    wrong = {7: [*kept[7][:8], moves.rsplit(" ", 2)[0] + " d4 d1", "0", "2026"]}
    assert verdict(wrong).startswith("lost:")  # other moves than those the players saw
