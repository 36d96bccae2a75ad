"""The client's side of the table (§5.6): LobbyLink's requests, RoomGame following, the bot."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from c4tui.client import words
from c4tui.client.link import LobbyLink
from c4tui.client.outcomes import LoginOutcome, RegisterOutcome, TableOutcome
from c4tui.client.room_game import RoomGame, room_game_from
from c4tui.client.words import Voice
from c4tui.engine import Move
from c4tui.protocols import lobby as wire
from c4tui.protocols import table_talk as talk
from c4tui.server.core import C4Server
from tests.net.lobby_client import TIMEOUT, lobby_server, logged_in
from tests.net.test_bot import a_bot, config, running, until


async def _link(port: int, user: str) -> LobbyLink:
    link = await LobbyLink.open("127.0.0.1", port)
    assert await link.register(user, "pw") is RegisterOutcome.CREATED
    assert await link.login(user, "pw") is LoginOutcome.LOGGED_IN
    return link


async def test_the_links_requests_answer_in_outcomes_and_the_game_follows(
    tmp_path: Path,
) -> None:
    async with lobby_server(tmp_path) as server:
        ann, bob = await _link(server.port, "ann"), await _link(server.port, "bob")
        assert await ann.create("r1", (4, 4, wire.Rules.CLASSIC)) is not None
        await bob.join("r1", wire.Mode.PLAYER)
        begun = [await link.pushed() for link in (ann, bob)]
        assert all(isinstance(begin, wire.Begin) for begin in begun)
        games: list[RoomGame] = [
            await room_game_from(link, begin, "r1")  # type: ignore[arg-type]
            for link, begin in zip((ann, bob), begun, strict=True)
        ]
        heard: list[talk.TableMessage] = []
        taken_back = asyncio.Event()
        games[1].on_table_talk = heard.append
        games[1].on_taken_back = taken_back.set
        assert await ann.offer_draw() is TableOutcome.NOT_NOW
        said = words.TABLE["DRAW"].said(TableOutcome.NOT_NOW, Voice.APP)
        assert said == "No draw yet: each player must have moved."
        await games[0].play(Move.drop(0))
        assert await games[1].next_move() == Move.drop(0)
        assert await ann.take_back() is TableOutcome.DONE
        assert await bob.take_back() is TableOutcome.DONE  # agreed: the board goes back
        await asyncio.wait_for(taken_back.wait(), TIMEOUT)
        assert heard == [talk.TakebackOffered("ann")]
        assert wire.cells(games[1].state) == "0" * 16 and games[1].shown == 0
        assert await ann.abort() is TableOutcome.DONE
        called_off: list[str] = []
        games[1].on_called_off = called_off.append
        for _ in range(100):
            if games[1].ended is not None:
                break
            await asyncio.sleep(0.05)
        assert games[1].ended is not None and games[1].ended.status == talk.ABORTED
        assert called_off == ["Game aborted"]
        for game in games:
            await game.close()
        await ann.close()
        await bob.close()


async def test_the_bot_declines_a_draw_offer_and_plays_on(tmp_path: Path) -> None:
    async with running(C4Server(config(tmp_path))) as server, a_bot(server.port, games=1):
        ann = await logged_in(server.port, "ann")
        quick = await ann.ask("QUICKPLAY:7:6:classic:casual:red")  # colours are random unasked
        assert quick.startswith("QUICKPLAY:ACKSTATUS:0:")
        assert (await until(ann, "BEGIN:")) == "BEGIN:ann:robo:7:6:classic"
        await ann.send("DROP:1")
        await until(ann, "BOARDSTATUS:")  # ours
        await until(ann, "BOARDSTATUS:")  # the bot's
        assert await ann.ask("DRAW") == "DRAW:ACKSTATUS:0"
        assert await until(ann, "DRAWDECLINED:") == "DRAWDECLINED:robo"
        await ann.send("DROP:1")
        assert (await until(ann, "BOARDSTATUS:")).startswith("BOARDSTATUS:")


async def test_a_table_request_by_its_command_and_a_command_that_is_none(tmp_path: Path) -> None:
    async with lobby_server(tmp_path) as server:
        ann = await _link(server.port, "ann")
        for command in talk.BARE:  # in no game: nothing to act on
            assert await ann.table_request(command) is TableOutcome.NOT_NOW
        with pytest.raises(ValueError, match="not a table request"):
            await ann.table_request("FORFEIT")
        await ann.close()
