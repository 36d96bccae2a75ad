"""Tic-tac-toe's rules and the INFO1112 protocol's codec, without sockets."""

from __future__ import annotations

import pytest

from c4tui.net.errors import ProtocolError
from c4tui.protocols import lobby as wire
from c4tui.protocols import tictactoe as ttt
from c4tui.tictactoe import Board, Mark, TicTacToeError, cell_of_number, parse_cell
from c4tui.tictactoe.game import LINES


def play(*cells: tuple[int, int]) -> Board:
    board = Board()
    for x, y in cells:
        board = board.place(x, y)
    return board


def test_x_moves_first_and_turns_alternate() -> None:
    board = Board()
    assert board.turn is Mark.X and not board.is_over
    board = board.place(1, 1)
    assert board.turn is Mark.O and board.text() == "000010000"
    assert board.place(0, 0).text() == "200010000"


@pytest.mark.parametrize("line", LINES)
def test_every_line_of_three_wins(line: tuple[int, int, int]) -> None:
    others = [i for i in range(9) if i not in line][:2]  # O's two marks cannot make a line
    moves: list[tuple[int, int]] = []
    for mine, theirs in zip(line, [*others, None], strict=True):
        moves.append((mine % 3, mine // 3))
        if theirs is not None:
            moves.append((theirs % 3, theirs // 3))
    board = play(*moves)
    assert board.winner is Mark.X and board.winning_line == line and board.is_over


def test_a_full_board_without_a_line_is_a_draw() -> None:
    board = play((0, 0), (1, 1), (2, 0), (1, 0), (1, 2), (0, 2), (0, 1), (2, 1), (2, 2))
    assert board.is_full and board.winner is None and board.is_over
    assert board.text() == "121122211"


def test_refusals_leave_the_board_as_it_was() -> None:
    board = play((1, 1))
    assert board.refusal(1, 1) == "cell 5 (column 1, row 1) is taken"
    assert board.refusal(3, 0) == "column 3, row 0 is off the board: both go from 0 to 2"
    with pytest.raises(TicTacToeError):
        board.place(1, 1)
    won = play((0, 0), (0, 1), (1, 0), (1, 1), (2, 0))
    assert won.refusal(2, 2) == "the game is over"


def test_boards_from_the_wire_are_checked() -> None:
    assert Board.from_text("121122210").turn is Mark.X
    for bad in ["12112221", "1211222100", "121122213", "110000000", "200000000"]:
        with pytest.raises(TicTacToeError):
            Board.from_text(bad)


def test_the_move_between_two_boards() -> None:
    before = play((1, 1))
    assert before.move_to(before.place(2, 0)) == (2, 0)
    assert before.move_to(before) is None  # nothing changed: a refused move
    assert before.move_to(play((1, 1), (0, 0), (2, 2))) is None  # two moves
    assert before.move_to(Board.from_text("100000000")) is None  # a cell rewritten


def test_a_cell_is_typed_as_its_number_or_its_column_and_row() -> None:
    for typed in ["6", "2 1", "2:1", " 2,1 "]:
        assert parse_cell(typed) == (2, 1), typed
    for bad in ["", "x", "1 2 3", "-1 0", "3 0", "0", "³", "1 ²"]:  # found by fuzzing: ³
        with pytest.raises(TicTacToeError):
            parse_cell(bad)


def test_cells_are_numbered_like_a_phone_keypad_from_the_top() -> None:
    assert [cell_of_number(n) for n in (1, 3, 5, 7, 9)] == [(0, 0), (2, 0), (1, 1), (0, 2), (2, 2)]
    for bad in (0, 10):
        with pytest.raises(TicTacToeError):
            cell_of_number(bad)


@pytest.mark.parametrize(
    ("received", "messages", "rest"),
    [
        ("LOGIN:alice:pwROOMLIST:PLAYER", ["LOGIN:alice:pw", "ROOMLIST:PLAYER"], ""),
        ("PLACE:1:1PLACE:2:2", ["PLACE:1:1", "PLACE:2:2"], ""),
        ("FORFEITROOMLIST:VIEWER", ["FORFEIT", "ROOMLIST:VIEWER"], ""),
        ("JOIN:PLACE:PLAYER", ["JOIN:PLACE:PLAYER"], ""),  # a room called PLACE
        ("CREATE:FORFEITers", ["CREATE:FORFEITers"], ""),
        ("LOGI", [], "LOGI"),
        ("PLACE:1", [], "PLACE:1"),
        ("JOIN:r:PLA", [], "JOIN:r:PLA"),
        ("LOGIN:a:b\nROOMLIST:PLA", ["LOGIN:a:b"], "ROOMLIST:PLA"),
        ("LOGIN:a:bJOIN:c\n", ["LOGIN:a:bJOIN:c"], ""),  # a newline says where it ends
        ("HELLO", ["HELLO"], ""),
    ],
)
def test_requests_are_cut_where_commands_begin(
    received: str, messages: list[str], rest: str
) -> None:
    assert ttt.split_requests(received) == (messages, rest)


def test_answers_are_cut_where_messages_begin() -> None:
    merged = "JOIN:ACKSTATUS:0BEGIN:alice:bobBOARDSTATUS:000010000GAMEEND:221010100:0:0"
    assert ttt.split_answers(merged) == (
        ["JOIN:ACKSTATUS:0", "BEGIN:alice:bob", "BOARDSTATUS:000010000", "GAMEEND:221010100:0:0"],
        "",
    )
    assert ttt.split_answers("ROOMLIST:ACKSTATUS:0:NOROOM 1") == (
        ["ROOMLIST:ACKSTATUS:0:NOROOM 1"],
        "",
    )
    assert ttt.split_answers("BOARDSTATUS:0000") == ([], "BOARDSTATUS:0000")
    assert ttt.split_answers("GAMEEND:221010100:0") == ([], "GAMEEND:221010100:0")


def test_requests_parse_or_say_which_status_they_deserve() -> None:
    assert ttt.parse_request("CREATE:epic room 2") == ttt.CreateRoom("epic room 2")
    assert ttt.parse_request("CREATE:a:b") == wire.BadFormat("CREATE:ACKSTATUS:4")
    assert ttt.parse_request("CREATE:") == wire.BadFormat("CREATE:ACKSTATUS:1")
    assert ttt.parse_request("PLACE:2:0") == ttt.Place((2, 0), "2:0")
    assert ttt.parse_request("PLACE:x:0") == ttt.Place(None, "x:0")
    assert ttt.parse_request("JOIN:r:VIEWER") == wire.Join("r", wire.Mode.VIEWER)
    for foreign in ["CHAT:hi", "DROP:1", "QUICKPLAY", "FORFEIT:now", "login:a:b"]:
        with pytest.raises(wire.Violation):
            ttt.parse_request(foreign)


def test_server_messages_parse_or_are_refused() -> None:
    assert ttt.parse_server_message("BEGIN:alice:bob") == ttt.Begin("alice", "bob")
    assert ttt.parse_server_message("INPROGRESS:bob:alice") == ttt.InProgress("bob", "alice")
    assert ttt.parse_server_message("GAMEEND:221010100:0:alice") == wire.GameEnd(
        "221010100", 0, "alice"
    )
    assert ttt.parse_server_message("ROOMLIST:ACKSTATUS:0:") == wire.Ack("ROOMLIST", 0, ("",))
    for bad in ["BOARDSTATUS:000000003", "BOARDSTATUS:110000000", "GAMEEND:000000000:1:x", "HI"]:
        with pytest.raises(ProtocolError):
            ttt.parse_server_message(bad)
