"""I32CFSP without sockets: the codec and both state machines (spec/protocols.md §1)."""

from __future__ import annotations

import pytest

from c4tui.engine import GameState, Move, Rules
from c4tui.net.errors import ProtocolError
from c4tui.protocols import i32cfsp
from c4tui.protocols.i32cfsp import (
    ClientSession,
    Reply,
    ServerSession,
    format_ai_game,
    format_move,
    parse_ai_game,
    parse_move,
    valid_username,
)
from tests.protocol_helpers import serve_one


def answer(session: ServerSession, state: GameState, line: str, ai_column: int) -> tuple:
    """The lines the server sends for one client line, and the new state."""
    served = serve_one(session, state, line, Move.drop(ai_column))
    return served.messages, served.state


def test_the_spec_example_with_an_ai_that_answers_column_4() -> None:
    session = ServerSession()
    assert session.receive("I32CFSP_HELLO boo").messages == ["WELCOME boo"]
    assert session.receive("AI_GAME").messages == ["READY"]
    assert session.game == (7, 6, Rules.POPOUT)
    state = GameState.new(*session.game)
    transcript = []
    for line in ["DROP 3", "DROP 3", "DROP 8", "DROP 3", "DROP 3"]:
        lines, state = answer(session, state, line, ai_column=3)
        transcript.append(lines)
    assert transcript == [
        ["OKAY", "DROP 4", "READY"],
        ["OKAY", "DROP 4", "READY"],
        ["INVALID", "READY"],
        ["OKAY", "DROP 4", "READY"],
        ["WINNER_RED"],
    ]
    assert session.phase.name == "CLOSED"


@pytest.mark.parametrize(
    "line",
    [
        "",
        "I32CFSP_HELLO",
        "I32CFSP_HELLO a b",
        "I32CFSP_HELLO " + "x" * 33,
        "HELLO boo",
        "i32cfsp_hello boo",
        "I32CFSP_HELLO  boo",
    ],
)
def test_bad_hellos_get_error_and_close(line: str) -> None:
    reply = ServerSession().receive(line)
    assert reply.messages == ["ERROR"] and reply.close
    assert "protocol error" in reply.reason


@pytest.mark.parametrize(
    ("line", "game"),
    [
        ("AI_GAME", (7, 6, Rules.POPOUT)),
        ("AI_GAME 9 5", (9, 5, Rules.POPOUT)),
        ("AI_GAME 4 20 CLASSIC", (4, 20, Rules.CLASSIC)),
        ("AI_GAME 3 6", None),
        ("AI_GAME 7 21", None),
        ("AI_GAME 7", None),
        ("AI_GAME 7 6 classic", None),
        ("AI_GAME x 6", None),
        ("AI_GAME 7 6 CLASSIC more", None),
    ],
)
def test_game_requests(line: str, game: tuple[int, int, Rules] | None) -> None:
    assert parse_ai_game(line) == game
    if game is not None:
        assert parse_ai_game(format_ai_game(*game)) == game


@pytest.mark.parametrize(
    "line", ["DROP", "DROP x", "DROP 3 4", "drop 3", "PUSH 3", "DROP 1e3", "DROP +3", "DROP  3"]
)
def test_bad_move_lines_get_error(line: str) -> None:
    session = ServerSession()
    session.receive("I32CFSP_HELLO a")
    session.receive("AI_GAME")
    reply = session.read_move(line)
    assert isinstance(reply, Reply)
    assert reply.messages == ["ERROR"] and reply.close


@pytest.mark.parametrize("line", ["POP 1", "DROP 0", "DROP 5", "DROP 1000", "DROP -1", "POP 999"])
def test_illegal_but_well_formed_moves_get_invalid_then_ready(line: str) -> None:
    session = ServerSession()
    session.receive("I32CFSP_HELLO a")
    session.receive("AI_GAME 4 4 CLASSIC")
    state = GameState.new(4, 4, Rules.CLASSIC)
    lines, after = answer(session, state, line, ai_column=0)
    assert lines == ["INVALID", "READY"]  # out of range is an invalid move, not an error
    assert after == state


def test_a_draw_is_announced_and_closes() -> None:
    session = ServerSession()
    session.receive("I32CFSP_HELLO a")
    session.receive("AI_GAME 4 4 CLASSIC")
    state = GameState.new(4, 4, Rules.CLASSIC)
    columns = [int(c) for c in "1113233214423442"]
    lines: list[str] = []
    for red, yellow in zip(columns[::2], columns[1::2], strict=True):
        lines, state = answer(session, state, f"DROP {red}", ai_column=yellow - 1)
    assert lines[-1] == "DRAW" and session.phase.name == "CLOSED"


def test_only_moves_are_expected_once_the_game_is_on() -> None:
    session = ServerSession()
    session.receive("I32CFSP_HELLO a")
    session.receive("AI_GAME")
    assert session.receive("AI_GAME").messages == ["ERROR"]


def test_usernames() -> None:
    assert valid_username("boo") and valid_username("x" * 32) and valid_username("a-b_c!")
    assert not valid_username("") and not valid_username("a b") and not valid_username("é")
    assert not valid_username("x" * 33) and not valid_username("tab\there")


def test_move_codec_round_trips() -> None:
    for move in (Move.drop(0), Move.pop(19)):
        assert parse_move(format_move(move)) == move
    assert format_move(Move.pop(2)) == "POP 3"


def test_client_checks_every_server_line() -> None:
    client = ClientSession("me", 7, 6, Rules.POPOUT)
    assert client.hello() == "I32CFSP_HELLO me"
    client.check_welcome("WELCOME me")
    with pytest.raises(ProtocolError, match="WELCOME me"):
        client.check_welcome("WELCOME you")
    assert client.game_request() == "AI_GAME"
    client.check_ready("READY")
    assert client.send_move(Move.drop(0)) == "DROP 1"
    assert client.answer_to_move(Move.drop(0), "OKAY") == "OKAY"
    with pytest.raises(ProtocolError, match="not yours"):
        client.server_move("POP 1")
    assert client.server_move("DROP 1") == Move.drop(0)
    client.after_server_move("READY")
    with pytest.raises(ProtocolError, match="WINNER_RED"):
        client.answer_to_move(Move.drop(1), "WINNER_RED")  # not a win on our board


def test_client_refuses_to_send_an_illegal_move_and_a_bad_username() -> None:
    client = ClientSession("me", 4, 4, Rules.CLASSIC)
    with pytest.raises(ValueError, match="Pop Out is off"):
        client.send_move(Move.pop(0))
    with pytest.raises(ValueError, match="username"):
        ClientSession("two words", 7, 6, Rules.POPOUT)


def test_client_expects_the_result_its_own_board_shows() -> None:
    client = ClientSession("me", 7, 6, Rules.CLASSIC)
    client.state = GameState.new(7, 6, Rules.CLASSIC).play_all(
        [Move.drop(0), Move.drop(1), Move.drop(0), Move.drop(1), Move.drop(0), Move.drop(1)]
    )
    with pytest.raises(ProtocolError, match="WINNER_RED"):
        client.answer_to_move(Move.drop(0), "OKAY")
    assert client.answer_to_move(Move.drop(0), "WINNER_RED") == "WINNER_RED"
    assert client.state.is_over


def test_a_column_is_any_whole_number_however_written() -> None:
    """Leading zeros do not make a column far away; twenty digits are a column refused later."""
    assert i32cfsp.parse_move("DROP 0000000000000000000003") == Move.drop(2)
    assert i32cfsp.parse_move("POP -0000000000000000000001") == Move.pop(-2)
    far = i32cfsp.parse_move("DROP " + "9" * 5000)
    assert far is not None and far.column > 10**17
    assert i32cfsp.parse_move("DROP ³") is None
    assert i32cfsp.parse_move("DROP 1_000") is None
