"""The lobby's client side (LobbyLink, RoomGame) against a real server."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from c4tui.client import words
from c4tui.client.link import TICTACTOE_LINK, LobbyLink
from c4tui.client.outcomes import (
    JoinOutcome,
    LoginOutcome,
    RegisterOutcome,
    UnknownStatus,
    outcome_of,
)
from c4tui.client.room_game import room_game_from
from c4tui.client.words import Voice
from c4tui.engine import Move, Player, Rules
from c4tui.net.errors import NetworkError
from c4tui.protocols import competition
from c4tui.protocols import lobby as wire
from c4tui.protocols.colours import Colour
from tests.net.lobby_client import lobby_server, logged_in
from tests.net.tictactoe_client import tictactoe_server


async def test_a_viewer_joining_after_pops_knows_the_colours_and_whose_turn(
    tmp_path: Path,
) -> None:
    async with lobby_server(tmp_path) as server:
        ann = await logged_in(server.port, "ann")
        bob = await logged_in(server.port, "bob")
        assert await ann.ask("CREATE:r1:5:4:popout") == "CREATE:ACKSTATUS:0"
        assert await bob.ask("JOIN:r1:PLAYER") == "JOIN:ACKSTATUS:0"
        await ann.line(), await bob.line()
        # ann d1, bob d2, ann d3, bob pops his own disc: RED 2 discs, YELLOW 0, RED to move.
        for mover, other, move in [
            (ann, bob, "DROP:1"),
            (bob, ann, "DROP:2"),
            (ann, bob, "DROP:3"),
            (bob, ann, "POP:2"),
        ]:
            await mover.send(move)
            assert (await mover.line()).startswith("BOARDSTATUS"), move
            await other.line()
        link = await LobbyLink.open("127.0.0.1", server.port)
        assert await link.register("vic", "pw") is RegisterOutcome.CREATED
        assert await link.login("vic", "pw") is LoginOutcome.LOGGED_IN
        assert await link.join("r1", wire.Mode.VIEWER) is JoinOutcome.JOINED
        start = await link.pushed()
        assert isinstance(start, wire.InProgress) and start.to_move == "ann"
        game = await room_game_from(link, start, "r1")
        assert game.names == {Player.RED: "ann", Player.YELLOW: "bob"}
        assert game.state.turn is Player.RED  # the disc count alone would have said YELLOW
        await ann.send("POP:1")
        await ann.line(), await bob.line()
        assert await game.next_move() == Move.pop(0)
        await game.close()
        await link.close()


async def test_a_request_cancelled_before_it_is_sent_takes_no_later_answer(
    tmp_path: Path,
) -> None:
    """Regression: a request cancelled while paced stayed pending and stole the next answer."""
    async with tictactoe_server(tmp_path) as server:
        assert server.tictactoe_port is not None
        link = await LobbyLink.open("127.0.0.1", server.tictactoe_port, dialect=TICTACTOE_LINK)
        assert await link.register("ann", "pw") is RegisterOutcome.CREATED
        assert await link.login("ann", "pw") is LoginOutcome.LOGGED_IN
        first = asyncio.create_task(link.room_names(wire.Mode.VIEWER))
        paced = asyncio.create_task(link.room_names(wire.Mode.PLAYER))  # waits 50 ms to send
        await asyncio.sleep(0.01)
        paced.cancel()
        assert await first == []
        assert await asyncio.wait_for(link.room_names(wire.Mode.PLAYER), 5) == []
        await link.close()


def test_answers_are_named_and_an_unknown_status_keeps_its_number_in_the_words() -> None:
    assert outcome_of(JoinOutcome, 2) is JoinOutcome.ROOM_FULL
    assert outcome_of(JoinOutcome, 7) == UnknownStatus(7)
    assert words.JOIN.said(UnknownStatus(7), Voice.CONSOLE) == "Refused (7)."
    assert words.JOIN.said(UnknownStatus(7), Voice.APP) == "Cannot join (7)."
    handout = words.JOIN.said(JoinOutcome.ROOM_FULL, Voice.HANDOUT, room="{x}")
    assert handout == "Error: The room {x} already has 2 players"  # a name is no template
    assert outcome_of(LoginOutcome, 3) is LoginOutcome.BAD_FORMAT
    assert outcome_of(LoginOutcome, -3) == UnknownStatus(-3)


async def test_a_login_over_the_per_address_limit_says_the_server_is_full(
    tmp_path: Path,
) -> None:
    async with lobby_server(tmp_path, max_per_address=1) as server:
        ann = await logged_in(server.port, "ann")
        link = await LobbyLink.open("127.0.0.1", server.port)
        try:
            with pytest.raises(NetworkError, match="full, or has as many connections from this"):
                await link.login("bob", "pw")
        finally:
            await link.close()
            await ann.close()


async def test_a_noroom_for_a_move_sent_outside_a_room_is_no_answer_to_a_request(
    tmp_path: Path,
) -> None:
    """NOROOM answers FORFEIT, a move or chat (sent, never asked): it is pushed, and the
    request asked meanwhile gets its own answer. (It took ROOMLIST's place, then ROOMLIST's
    answer was "an answer nobody asked for" and the link broke off: a forfeit sent just
    as the game ended on time did that to the app.)"""
    async with lobby_server(tmp_path) as server:
        link = await LobbyLink.open("127.0.0.1", server.port)
        assert await link.register("vic", "pw") is RegisterOutcome.CREATED
        assert await link.login("vic", "pw") is LoginOutcome.LOGGED_IN
        await link.send("FORFEIT")  # in no room: NOROOM comes back
        assert await link.room_names(wire.Mode.VIEWER) == []
        assert await link.pushed() == wire.Notice(wire.NOROOM)
        assert await link.history() == []  # the link reads on
        await link.close()


async def linked(port: int, user: str) -> LobbyLink:
    """A LobbyLink registered and logged in as ``user``."""
    link = await LobbyLink.open("127.0.0.1", port)
    assert await link.register(user, "pw") is RegisterOutcome.CREATED
    assert await link.login(user, "pw") is LoginOutcome.LOGGED_IN
    return link


async def test_the_link_asks_for_a_colour_in_create_quick_play_and_challenge(
    tmp_path: Path,
) -> None:
    game = (7, 6, Rules.CLASSIC)
    async with lobby_server(tmp_path) as server:
        ann, bob = await linked(server.port, "ann"), await linked(server.port, "bob")
        await ann.create("r", game, colour=Colour.YELLOW)
        [room] = await bob.rooms()
        assert (room.red, room.yellow, room.waiter, room.players) == ("", "ann", "ann", "ann waits")
        assert await bob.join("r", wire.Mode.PLAYER) is JoinOutcome.JOINED
        begin = await bob.pushed()
        assert isinstance(begin, wire.Begin) and (begin.red, begin.yellow) == ("bob", "ann")
        await ann.pushed()
        await bob.send("FORFEIT")
        await ann.pushed(), await bob.pushed()
        assert await ann.quick_play(game, colour=Colour.YELLOW) == "quick-1"
        assert await bob.quick_play(game, colour=Colour.RED) == "quick-1"
        begin = await bob.pushed()
        assert isinstance(begin, wire.Begin) and (begin.red, begin.yellow) == ("bob", "ann")
        await ann.pushed()
        await bob.send("FORFEIT")
        await ann.pushed(), await bob.pushed()
        cid = await linked(server.port, "cid")
        await ann.challenge("cid", game, colour=Colour.YELLOW)
        assert isinstance(await cid.pushed(), competition.Challenged)
        assert await cid.accept("ann")
        begin = await cid.pushed()
        assert isinstance(begin, wire.Begin) and (begin.red, begin.yellow) == ("cid", "ann")
        for link in (ann, bob, cid):
            await link.close()
