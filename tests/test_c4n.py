"""C4N without sockets: the codec, the stream splitter and both state machines (§3)."""

from __future__ import annotations

import pytest

from c4tui.engine import GameState, Move, Player, Rules
from c4tui.net.errors import ProtocolError, ServerConceded
from c4tui.protocols import c4n
from c4tui.protocols.common import Reply
from tests.protocol_helpers import serve_one

EMPTY_BOARD = "C4N 1.0 BOARD\n6 7 " + " ".join(["0"] * 42)


def board(state: GameState, player: Player = Player.RED) -> str:
    return c4n.message(c4n.Kind.BOARD, c4n.format_board(state, player))


def test_messages_round_trip() -> None:
    for kind, payload in [
        (c4n.Kind.START, ""),
        (c4n.Kind.MOVE, "3"),
        (c4n.Kind.RESULT, "-1"),
        (c4n.Kind.ERROR, "99"),
        (c4n.Kind.STOP, ""),
    ]:
        text = c4n.Message(kind, payload).encode()
        assert c4n.decode(text) == c4n.Message(kind, payload)
    assert c4n.message(c4n.Kind.START) == "C4N 1.0 START"
    assert c4n.message(c4n.Kind.MOVE, 0) == "C4N 1.0 MOVE\n0"


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("hello", "not a C4N message"),
        ("C4N 2.0 START", "version"),
        ("C4N 1.0 JUMP", "no C4N message type"),
        ("C4N 1.0 MOVE", "without its payload"),
        ("C4N 1.0 START\nextra", "with a payload"),
        ("C4N 1.0", "not a C4N message"),
    ],
)
def test_garbage_is_named(text: str, problem: str) -> None:
    with pytest.raises(ProtocolError, match=problem):
        c4n.decode(text)


def test_the_empty_board_rows_first_from_the_top() -> None:
    assert board(GameState.new(7, 6, Rules.CLASSIC)) == EMPTY_BOARD
    state = GameState.new(7, 6, Rules.CLASSIC).drop(0).drop(6).drop(0)
    cells = c4n.format_board(state, Player.RED).split()[2:]
    assert cells[35] == "1" and cells[41] == "2" and cells[28] == "1"  # bottom row is last
    assert c4n.parse_board(c4n.format_board(state, Player.RED))[0][:7] == [1, 0, 0, 0, 0, 0, 2]


def test_split_takes_digits_python_reads_as_digits_but_int_does_not() -> None:
    """Found by fuzzing: a BOARD's size in superscript digits raised ValueError."""
    assert c4n.split_messages("C4N 1.0 BOARD\n6 ³³7") == (["C4N 1.0 BOARD\n6 ³³7"], "")


def test_split_cuts_merged_messages_and_keeps_unfinished_ones() -> None:
    merged = "C4N 1.0 RESULT\n1" + EMPTY_BOARD
    assert c4n.split_messages(merged) == (["C4N 1.0 RESULT\n1", EMPTY_BOARD], "")
    half = EMPTY_BOARD[:40]
    assert c4n.split_messages("C4N 1.0 RESULT\n2" + half) == (["C4N 1.0 RESULT\n2"], half)
    assert c4n.split_messages(half + EMPTY_BOARD[40:]) == ([EMPTY_BOARD], "")
    for prefix in ["C", "C4N", "C4N 1.0", "C4N 1.0 MO", "C4N 1.0 MOVE", "C4N 1.0 MOVE\n"]:
        assert c4n.split_messages(prefix) == ([], prefix)
    assert c4n.split_messages("C4N 1.0 START") == (["C4N 1.0 START"], "")
    assert c4n.split_messages("garbageC4N 1.0 STOP") == (["garbage", "C4N 1.0 STOP"], "")
    assert c4n.split_messages("xyz") == (["xyz"], "")


def serve(session: c4n.ServerSession, state: GameState, text: str, ai_column: int) -> tuple:
    """The server's answer to one message, and the new position."""
    served = serve_one(session, state, text, Move.drop(ai_column))
    return Reply(served.messages, served.close), served.state


def test_a_whole_game_on_the_server_side() -> None:
    session = c4n.ServerSession()
    assert session.receive("C4N 1.0 START").messages == [EMPTY_BOARD]
    assert session.game == (7, 6, Rules.CLASSIC)
    state = GameState.new(*session.game)
    for bad in ["-1", "7", "99"]:
        reply, state = serve(session, state, f"C4N 1.0 MOVE\n{bad}", 6)
        assert reply.messages == ["C4N 1.0 ERROR\n2"] and not reply.close
    for _ in range(3):
        reply, state = serve(session, state, "C4N 1.0 MOVE\n0", 6)
        assert reply.messages == [board(state)] and not reply.close
    reply, state = serve(session, state, "C4N 1.0 MOVE\n0", 6)
    assert reply.messages == ["C4N 1.0 RESULT\n1", board(state)] and reply.close


def test_the_ai_winning_and_garbage_and_stop() -> None:
    session = c4n.ServerSession()
    session.receive("C4N 1.0 START")
    state = GameState.new(7, 6, Rules.CLASSIC)
    for column in (1, 2, 3):
        reply, state = serve(session, state, f"C4N 1.0 MOVE\n{column}", 0)
    reply, state = serve(session, state, "C4N 1.0 MOVE\n6", 0)
    assert reply.messages == ["C4N 1.0 RESULT\n2", board(state)] and reply.close
    for text in ["C4N 1.0 BOARD\n6 7", "MOVE 3", "C4N 1.0 MOVE\nthree"]:
        fresh = c4n.ServerSession()
        fresh.receive("C4N 1.0 START")
        reply = fresh.read_move(text)
        assert isinstance(reply, Reply) and reply.messages == ["C4N 1.0 ERROR\n1"] and reply.close
    assert c4n.ServerSession().receive("C4N 1.0 MOVE\n3").messages == ["C4N 1.0 ERROR\n1"]
    stop = c4n.ServerSession().receive("C4N 1.0 STOP")
    assert stop.close and stop.messages == []


def test_client_takes_each_board_as_our_board_plus_one_ai_disc() -> None:
    client = c4n.ClientSession()
    assert client.first_board(EMPTY_BOARD) is False
    assert client.send_move(Move.drop(3)) == "C4N 1.0 MOVE\n3"
    expected = GameState.new(7, 6, Rules.CLASSIC).drop(3).drop(3)
    assert client.reply(board(expected)) is c4n.Kind.BOARD
    assert client.ai_moves == [Move.drop(3)] and client.state == expected


@pytest.mark.parametrize(
    ("after", "problem"),
    [
        (lambda s: s, "not our board plus one AI disc"),  # no AI disc
        (lambda s: s.drop(1).drop(2), "not our board plus one AI disc"),  # two discs
        (lambda s: s.drop(1).drop(1), "not our board plus one AI disc"),
    ],
)
def test_client_refuses_boards_that_do_not_fit(after, problem: str) -> None:
    client = c4n.ClientSession()
    client.first_board(EMPTY_BOARD)
    client.send_move(Move.drop(3))
    with pytest.raises(ProtocolError, match=problem):
        client.reply(board(after(client.state)))


def test_client_refuses_a_floating_disc_and_a_wrong_size() -> None:
    client = c4n.ClientSession()
    client.first_board(EMPTY_BOARD)
    client.send_move(Move.drop(3))
    cells = ["0"] * 42
    cells[38] = "1"  # ours, bottom row, column 4
    cells[3] = "2"  # the AI's, top row: floating
    with pytest.raises(ProtocolError, match="floating in column 4"):
        client.reply("C4N 1.0 BOARD\n6 7 " + " ".join(cells))
    with pytest.raises(ProtocolError, match="not 6 rows"):
        client.reply("C4N 1.0 BOARD\n7 6 " + " ".join(cells))


def test_first_board_with_the_ais_disc_makes_the_ai_red() -> None:
    client = c4n.ClientSession()
    cells = ["0"] * 42
    cells[38] = "2"
    assert client.first_board("C4N 1.0 BOARD\n6 7 " + " ".join(cells)) is True
    assert client.player is Player.YELLOW and client.ai_moves == [Move.drop(3)]
    cells[39] = "2"
    with pytest.raises(ProtocolError, match="more than one AI disc"):
        c4n.ClientSession().first_board("C4N 1.0 BOARD\n6 7 " + " ".join(cells))


def test_results_are_checked_against_our_own_board() -> None:
    client = c4n.ClientSession()
    client.first_board(EMPTY_BOARD)
    client.send_move(Move.drop(0))
    assert client.reply("C4N 1.0 RESULT\n-1") is c4n.Kind.RESULT
    with pytest.raises(ProtocolError, match="false RESULT -1: our board shows the game going on"):
        client.final_board(board(client.state))
    # RESULT 1 while the game goes on: the server gives it up (its AI failed), we win.
    client = c4n.ClientSession()
    client.first_board(EMPTY_BOARD)
    client.send_move(Move.drop(0))
    assert client.reply("C4N 1.0 RESULT\n1") is c4n.Kind.RESULT
    with pytest.raises(ServerConceded, match=r"gave the game up before its end \(RESULT 1\)"):
        client.final_board(board(client.state))
    # The AI's winning disc arrives in the BOARD after RESULT 2.
    client = c4n.ClientSession()
    client.first_board(EMPTY_BOARD)
    state = client.state
    for column in (1, 2, 3):
        client.send_move(Move.drop(column))
        client.reply(board(client.state.drop(0)))
    client.send_move(Move.drop(6))
    client.reply("C4N 1.0 RESULT\n2")
    client.final_board(board(client.state.drop(0)))
    assert client.state.winner is Player.YELLOW and state.disc_count == 0


#: A 7 × 6 classic game that fills the board without four in a row (found by random play).
DRAWN_GAME = "257771314744647214154617633623313656555222"


def test_a_draw_is_result_minus_one_on_both_sides() -> None:
    session = c4n.ServerSession()
    session.receive("C4N 1.0 START")
    client = c4n.ClientSession()
    client.first_board(EMPTY_BOARD)
    state = GameState.new(7, 6, Rules.CLASSIC)
    columns = [int(c) - 1 for c in DRAWN_GAME]
    for red, yellow in zip(columns[::2], columns[1::2], strict=True):
        reply, state = serve(session, state, client.send_move(Move.drop(red)), yellow)
        if reply.close:
            break
        client.reply(reply.messages[0])
    assert state.is_draw and reply.messages[0] == "C4N 1.0 RESULT\n-1"
    assert client.reply(reply.messages[0]) is c4n.Kind.RESULT
    client.final_board(reply.messages[1])
    assert client.state == state


def test_with_ai_first_the_first_board_comes_after_the_ais_disc() -> None:
    session = c4n.ServerSession(ai_first=True)
    assert session.receive("C4N 1.0 START").messages == []  # the AI moves first
    assert session.client is Player.YELLOW
    state = GameState.new(7, 6, Rules.CLASSIC).drop(3)  # the AI's disc, as RED
    first = session.ai_moved(Move.drop(3), state).messages[0]
    assert first == board(state, Player.YELLOW) and first.split()[-4] == "2"
    client = c4n.ClientSession()
    assert client.first_board(first) is True
