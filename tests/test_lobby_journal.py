"""The rooms' journal: what happened to each game, in order, for the server to keep."""

from __future__ import annotations

from c4tui.engine import Move, Rules
from c4tui.lobby import CONNECT_FOUR, TIC_TAC_TOE, Lobby, Member
from c4tui.lobby.journal import EndReason, GameBegan, GameFinished, MoveMade
from c4tui.protocols import lobby as wire

GAME = (4, 4, Rules.CLASSIC)


def _playing() -> tuple[Lobby[tuple[int, int, Rules], Move], Member, Member]:
    lobby: Lobby[tuple[int, int, Rules], Move] = Lobby(CONNECT_FOUR)
    ann, bob = Member("ann"), Member("bob")
    lobby.create(ann, "r", GAME)
    assert lobby.take_journal() == []  # a waiting room is no game yet
    lobby.join(bob, "r", wire.Mode.PLAYER)
    return lobby, ann, bob


def test_a_game_won_on_the_board_is_journalled_move_by_move() -> None:
    lobby, ann, bob = _playing()
    assert lobby.take_journal() == [GameBegan("r", "ann", "bob", GAME)]
    for mover, column in [(ann, 0), (bob, 1), (ann, 0), (bob, 1), (ann, 0), (bob, 1)]:
        lobby.play(mover, Move.drop(column))
    lobby.play(bob, Move.drop(3))  # out of turn: refused, so not in the journal
    lobby.play(ann, Move.drop(0))
    assert lobby.take_journal() == [
        *(MoveMade("r", ply, Move.drop((ply - 1) % 2)) for ply in range(1, 7)),
        MoveMade("r", 7, Move.drop(0)),
        GameFinished("r", "ann", EndReason.FOUR),
    ]
    assert lobby.take_journal() == []  # taken once


def test_a_draw_a_forfeit_and_a_disconnect_say_why() -> None:
    lobby, ann, bob = _playing()
    for index, column in enumerate("1113233214423442"):
        lobby.play(ann if index % 2 == 0 else bob, Move.drop(int(column) - 1))
    assert lobby.take_journal()[-1] == GameFinished("r", None, EndReason.FULL)
    lobby, ann, bob = _playing()
    lobby.forfeit(bob)
    assert lobby.take_journal()[-1] == GameFinished("r", "ann", EndReason.FORFEIT)
    lobby, ann, bob = _playing()
    lobby.leave(ann)
    assert lobby.take_journal()[-1] == GameFinished("r", "bob", EndReason.DISCONNECT)


def test_pop_out_repetition_is_its_own_reason() -> None:
    lobby: Lobby[tuple[int, int, Rules], Move] = Lobby(CONNECT_FOUR)
    ann, bob = Member("ann"), Member("bob")
    lobby.create(ann, "r", (4, 4, Rules.POPOUT))
    lobby.join(bob, "r", wire.Mode.PLAYER)
    # Each drops in its own column, then each pops it out: back to the start, twice more.
    for _ in range(3):
        for mover, move in [
            (ann, Move.drop(0)),
            (bob, Move.drop(3)),
            (ann, Move.pop(0)),
            (bob, Move.pop(3)),
        ]:
            lobby.play(mover, move)
    assert lobby.take_journal()[-1] == GameFinished("r", None, EndReason.REPETITION)


def test_tic_tac_toe_rooms_journal_the_same_way() -> None:
    lobby = Lobby(TIC_TAC_TOE)
    ann, bob = Member("ann"), Member("bob")
    lobby.create(ann, "t", None)
    lobby.join(bob, "t", wire.Mode.PLAYER)
    for mover, cell in [(ann, (0, 0)), (bob, (0, 1)), (ann, (1, 0)), (bob, (1, 1)), (ann, (2, 0))]:
        lobby.play(mover, cell)
    journal = lobby.take_journal()
    assert journal[0] == GameBegan("t", "ann", "bob", None)
    assert journal[-1] == GameFinished("t", "ann", EndReason.FOUR)
