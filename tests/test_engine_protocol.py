"""The engine protocol's codec (spec §6) and the drops that rebuild a board for ``position``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from c4tui.engine import GameState, Move, Player, PositionError, Rules
from c4tui.engine.sequence import drops_reaching
from c4tui.net.errors import ProtocolError
from c4tui.protocols.engine import (
    BestMove,
    EngineAnswer,
    EngineCommand,
    Go,
    Hello,
    HelloDone,
    Identity,
    IsReady,
    NewGame,
    Position,
    Quit,
    ReadyOk,
    Remark,
    format_answer,
    format_command,
    parse_answer,
    parse_command,
)
from tests.engine_helpers import play

COMMANDS: list[tuple[str, EngineCommand]] = [
    ("c4e", Hello()),
    ("newgame 7 6 classic", NewGame(7, 6, Rules.CLASSIC)),
    ("newgame 20 4 popout", NewGame(20, 4, Rules.POPOUT)),
    ("position", Position(())),
    ("position d4 d4 p12", Position((Move.drop(3), Move.drop(3), Move.pop(11)))),
    ("go", Go()),
    ("go movetime 1500", Go(1500)),
    ("isready", IsReady()),
    ("quit", Quit()),
]

ANSWERS: list[tuple[str, EngineAnswer]] = [
    ("id name Deep Four", Identity("name", "Deep Four")),
    ("id author Ann Example", Identity("author", "Ann Example")),
    ("c4eok", HelloDone()),
    ("bestmove d4", BestMove(Move.drop(3))),
    ("bestmove p10", BestMove(Move.pop(9))),
    ("readyok", ReadyOk()),
    ("info depth 12 score 3", Remark("info depth 12 score 3")),
]


@pytest.mark.parametrize(("line", "command"), COMMANDS)
def test_commands_read_and_write_as_the_spec_shows(line: str, command: EngineCommand) -> None:
    assert parse_command(line) == command
    assert format_command(command) == line


@pytest.mark.parametrize(("line", "answer"), ANSWERS)
def test_answers_read_and_write_as_the_spec_shows(line: str, answer: EngineAnswer) -> None:
    assert parse_answer(line) == answer
    assert format_answer(answer) == line


def test_a_line_end_and_extra_spaces_are_forgiven() -> None:
    assert parse_answer("bestmove  d4 \r\n") == BestMove(Move.drop(3))
    assert parse_command("  go   movetime 20\r\n") == Go(20)


@pytest.mark.parametrize(
    "line",
    [
        "",
        "c4e now",
        "newgame 7 6",
        "newgame 3 6 classic",
        "newgame 7 6 chess",
        "position 4",
        "position d0",
        "go movetime",
        "go movetime soon",
        "go depth 3",
        "hello",
    ],
)
def test_anything_else_is_not_a_command(line: str) -> None:
    with pytest.raises(ProtocolError, match="expected"):
        parse_command(line)


@pytest.mark.parametrize(
    "line", ["bestmove", "bestmove 4", "bestmove D4", "bestmove d4 d5", "bestmove banana"]
)
def test_a_bestmove_without_a_move_is_malformed(line: str) -> None:
    with pytest.raises(ProtocolError, match="bestmove d<column>"):
        parse_answer(line)


def test_a_line_past_the_limit_is_refused() -> None:
    with pytest.raises(ProtocolError, match="at most"):
        parse_answer("info " + "x" * 9000)


@given(st.lists(st.integers(min_value=0, max_value=6), max_size=42))
def test_the_drops_reaching_a_board_rebuild_it(columns: list[int]) -> None:
    state = GameState.new()
    for column in columns:
        after = state.drop(column) if state.is_legal(Move.drop(column)) else state
        if after.is_over:
            break
        state = after
    drops = drops_reaching(state)
    rebuilt = GameState.new().play_all(drops)
    assert rebuilt.position_key() == state.position_key()
    assert not rebuilt.is_over


RED, YELLOW = Player.RED, Player.YELLOW


def test_a_board_where_the_first_choice_leads_nowhere_is_rebuilt() -> None:
    # Red, then yellow in column 2 would leave red no disc to drop: yellow goes in column 3.
    discs = {(0, 0): RED, (1, 0): YELLOW, (2, 0): YELLOW, (2, 1): RED}
    state = GameState.from_cells(7, 6, Rules.CLASSIC, discs)
    assert drops_reaching(state) == (Move.drop(0), Move.drop(2), Move.drop(2), Move.drop(1))


def test_boards_no_game_reaches_are_refused() -> None:
    three_reds = {(0, 0): RED, (1, 0): RED, (2, 0): RED}
    with pytest.raises(PositionError, match="alternate"):
        drops_reaching(GameState.from_cells(7, 6, Rules.CLASSIC, three_reds))
    red_on_yellow = {(0, 0): YELLOW, (0, 1): RED, (1, 0): YELLOW, (1, 1): RED}
    with pytest.raises(PositionError, match="no order"):
        drops_reaching(GameState.from_cells(7, 6, Rules.CLASSIC, red_on_yellow))
    with pytest.raises(PositionError, match="alternate"):
        drops_reaching(play("d1 d2 d3 p2"))  # yellow popped its own disc: one yellow less


def test_a_pop_out_board_is_rebuilt_when_drops_can_build_it() -> None:
    state = play("d1 d2 d1 d2 p1 p2")  # a pop each: red in column 1, yellow in column 2
    drops = drops_reaching(state)
    assert drops == (Move.drop(0), Move.drop(1))
    rebuilt = GameState.new(rules=Rules.POPOUT).play_all(drops)
    assert rebuilt.position_key() == state.position_key()


LINES = st.one_of(
    st.text(max_size=80),
    st.lists(
        st.sampled_from(
            [
                "c4e",
                "newgame",
                "position",
                "go",
                "movetime",
                "isready",
                "quit",
                "id",
                "name",
                "bestmove",
                "c4eok",
                "readyok",
                "7",
                "6",
                "20",
                "classic",
                "popout",
                "d4",
                "p3",
                "d0",
                "x",
            ]
        ),
        max_size=6,
    ).map(" ".join),
)


@pytest.mark.parametrize(
    ("parse", "format_again"),
    [(parse_command, format_command), (parse_answer, format_answer)],
    ids=["command", "answer"],
)
@given(line=LINES)
def test_any_line_reads_back_the_same_or_is_a_protocol_error(
    parse: Callable[[str], Any], format_again: Callable[[Any], str], line: str
) -> None:
    try:
        message = parse(line)
    except ProtocolError:
        return
    assert parse(format_again(message)) == message
