"""CFSP without sockets: the codec and both state machines (spec/protocols.md §2)."""

from __future__ import annotations

import pytest

from c4tui.engine import GameState, Move, Rules
from c4tui.net.errors import ProtocolError
from c4tui.protocols import cfsp
from c4tui.protocols.common import Reply
from tests.protocol_helpers import serve_one


@pytest.mark.parametrize("keyword", ["GAME", "Game", "game", "gAmE"])
def test_game_is_rows_first_in_any_case(keyword: str) -> None:
    assert cfsp.parse_game(f"{keyword} 6 7") == (7, 6, Rules.POPOUT)
    assert cfsp.parse_game(f"{keyword} 4 20") == (20, 4, Rules.POPOUT)
    assert cfsp.format_game(columns=9, rows=5) == "GAME 5 9"


@pytest.mark.parametrize(
    "line", ["GAME", "GAME 6", "GAME 6 7 8", "GAME 3 7", "GAME 6 21", "GAME x 7", "GAMES 6 7", ""]
)
def test_bad_game_requests(line: str) -> None:
    assert cfsp.parse_game(line) is None
    session = cfsp.ServerSession()
    reply = session.receive(line)
    assert reply.messages == ["ERROR"] and reply.close and session.game is None


def test_user_moves_code_and_one_based_column() -> None:
    assert cfsp.parse_user_move("USER 0 3") == Move.drop(2)
    assert cfsp.parse_user_move("USER 1 12") == Move.pop(11)
    assert cfsp.format_user_move(Move.pop(0)) == "USER 1 1"
    for line in ["USER 2 3", "USER 0", "USER 0 x", "user 0 3", "USER 0 3 4", "DROP 3"]:
        assert cfsp.parse_user_move(line) is None


def serve(session: cfsp.ServerSession, state: GameState, line: str, ai: Move) -> tuple:
    """The server's answer to one line (the AI's move is never sent: the client asks)."""
    served = serve_one(session, state, line, ai)
    return Reply(served.messages, served.close), served.state


def test_a_game_with_questions_about_the_ai_move() -> None:
    session = cfsp.ServerSession()
    assert session.receive("GAME 6 7").messages == ["START"]
    assert session.game == (7, 6, Rules.POPOUT)
    state = GameState.new(*session.game)
    assert session.read_move("MOVE").close  # nothing to ask about before the AI has moved
    session = cfsp.ServerSession()
    session.receive("GAME 6 7")
    reply, state = serve(session, state, "USER 0 1", Move.drop(0))
    assert reply.messages == ["RECEIVED"] and not reply.close
    assert session.read_move("MOVE").messages == ["0"]
    assert session.read_move("COLUMN").messages == ["1"]
    assert session.read_move("COLUMN").messages == ["1"]  # asked again: the same answer
    reply, state = serve(session, state, "USER 1 1", Move.drop(3))
    # Column 1 holds red at the bottom and yellow above: red pops its bottom disc.
    assert reply.messages == ["RECEIVED"]
    assert session.read_move("MOVE").messages == ["0"]
    assert session.read_move("COLUMN").messages == ["4"]


def test_an_illegal_move_is_error_and_close() -> None:
    session = cfsp.ServerSession()
    session.receive("GAME 4 4")
    state = GameState.new(4, 4, Rules.POPOUT)
    reply, _ = serve(session, state, "USER 0 5", Move.drop(0))
    assert reply.messages == ["ERROR"] and reply.close
    session = cfsp.ServerSession()
    session.receive("GAME 4 4")
    reply, _ = serve(session, state, "USER 1 1", Move.drop(0))  # pop from an empty column
    assert reply.messages == ["ERROR"] and reply.close


def test_the_server_closes_after_the_move_that_ends_the_game() -> None:
    session = cfsp.ServerSession()
    session.receive("GAME 6 7")
    state = GameState.new(7, 6, Rules.POPOUT)
    for _ in range(3):
        reply, state = serve(session, state, "USER 0 1", Move.drop(1))
        assert not reply.close
    reply, state = serve(session, state, "USER 0 1", Move.drop(1))
    assert reply.messages == ["RECEIVED"] and reply.close and state.winner is not None


def test_after_the_ai_wins_the_client_may_still_ask_then_the_server_closes() -> None:
    session = cfsp.ServerSession()
    session.receive("GAME 6 7")
    state = GameState.new(7, 6, Rules.POPOUT)
    for column in (1, 2, 3):
        state = state.play(Move.drop(column)).play(Move.drop(0))
    state = state.play(Move.drop(6))
    session.client_moved(state)
    state = state.play(Move.drop(0))  # yellow's fourth in column 1
    assert state.is_over
    session.ai_moved(Move.drop(0), state)
    assert session.read_move("MOVE").messages == ["0"]
    last = session.read_move("COLUMN")
    assert last.messages == ["1"] and last.close
    session = cfsp.ServerSession()
    session.receive("GAME 6 7")
    session.ai_moved(Move.drop(0), state)
    assert session.read_move("USER 0 3").close  # no move after the end


def test_client_session_checks_every_answer() -> None:
    client = cfsp.ClientSession(columns=5, rows=4)
    assert client.game_request() == "GAME 4 5"
    with pytest.raises(ProtocolError, match="expected START, got 'READY'"):
        client.check_start("READY")
    client.check_start("START")
    assert client.send_move(Move.drop(0)) == "USER 0 1"
    with pytest.raises(ProtocolError, match="expected RECEIVED"):
        client.check_received(Move.drop(0), "OKAY")
    client.check_received(Move.drop(0), "RECEIVED")
    with pytest.raises(ProtocolError, match="expected 0 or 1, got '2'"):
        client.move_kind("2")
    client.move_kind("1")
    assert "is not yours" in str(client.move_column("1"))  # popping red's disc: asked again
    client.move_kind("0")
    assert "does not exist" in str(client.move_column("6"))
    with pytest.raises(ProtocolError, match="a column number"):
        client.move_column("two")
    assert client.move_column("1") == Move.drop(0)
    assert client.state.disc_count == 2
