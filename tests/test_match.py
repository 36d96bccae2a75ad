"""The match controller and backends, without any UI."""

from __future__ import annotations

import asyncio

import pytest

from c4tui.engine import IllegalMoveError, Move, Player, Rules
from c4tui.match import AIBackend, HumanBackend, MatchController, MatchSettings, Mode
from c4tui.match.controller import default_backends


def controller(**settings: object) -> MatchController:
    match_settings = MatchSettings(ai_delay=0.0, seed=3, **settings)  # type: ignore[arg-type]
    return MatchController(match_settings, default_backends(match_settings))


def test_two_player_undo_takes_back_one_move_at_a_time() -> None:
    match = controller()
    match.play(Move.drop(3))
    match.play(Move.drop(4))
    assert match.undo()
    assert match.moves == (Move.drop(3),)
    assert match.undo()
    assert match.moves == ()
    assert not match.undo()
    assert not match.can_undo()


def test_undo_against_the_computer_returns_to_before_your_last_move() -> None:
    match = controller(mode=Mode.COMPUTER)
    match.play(Move.drop(3))  # you
    match.play(Move.drop(0))  # the computer
    match.play(Move.drop(3))  # you again
    assert match.undo()
    assert match.moves == (Move.drop(3), Move.drop(0))
    assert match.state.turn is Player.RED
    assert match.undo()
    assert match.moves == ()


def test_undo_while_the_computer_is_to_move_takes_back_your_move() -> None:
    match = controller(mode=Mode.COMPUTER)
    match.play(Move.drop(3))
    assert not match.is_interactive_turn()
    assert match.undo()
    assert match.moves == () and match.is_interactive_turn()


def test_nothing_to_undo_when_the_computer_opened() -> None:
    match = controller(mode=Mode.COMPUTER, human_colour=Player.YELLOW)
    match.play(Move.drop(3))  # the computer's opening move
    assert not match.can_undo()
    assert not match.undo()
    assert match.moves == (Move.drop(3),)


def test_illegal_move_leaves_the_match_unchanged() -> None:
    match = controller(columns=4, rows=4, rules=Rules.CLASSIC)
    with pytest.raises(IllegalMoveError, match="column 5 does not exist"):
        match.play(Move.drop(4))
    assert match.moves == ()


def test_restart_keeps_settings_and_players() -> None:
    match = controller(columns=9, rows=5)
    backends = match.backends
    match.play(Move.drop(0))
    match.restart()
    assert match.moves == () and match.state.columns == 9
    assert match.backends is backends


def test_default_backends_put_the_person_on_their_colour() -> None:
    backends = default_backends(MatchSettings(mode=Mode.COMPUTER, human_colour=Player.YELLOW))
    assert isinstance(backends[Player.YELLOW], HumanBackend)
    assert isinstance(backends[Player.RED], AIBackend)
    two = default_backends(MatchSettings())
    assert all(isinstance(b, HumanBackend) for b in two.values())


def test_ai_backend_answers_with_a_legal_move_and_waits_its_minimum() -> None:
    match = controller(mode=Mode.COMPUTER, human_colour=Player.YELLOW)
    backend = match.backend_to_move()
    state = match.state

    async def ask() -> tuple[Move, float]:
        loop = asyncio.get_running_loop()
        began = loop.time()
        slow = AIBackend(backend._picker, "slow", min_delay=0.2)  # type: ignore[attr-defined]
        move = await slow.choose_move(state)
        return move, loop.time() - began

    move, elapsed = asyncio.run(ask())
    assert state.is_legal(move)
    assert elapsed >= 0.2


def test_settings_describe_themselves() -> None:
    text = MatchSettings(mode=Mode.COMPUTER, columns=9, rows=5, rules=Rules.POPOUT).describe()
    assert text == "9 × 5 Pop Out\nvs computer (Random)"
