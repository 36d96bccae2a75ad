"""§5.6 at the table over real sockets: golden exchanges for draws, takebacks, aborts, claims.

Each exchange is written as the lines that pass, in order: ``ann> DRAW`` is sent by
ann, ``bob< DRAWOFFER:ann`` is the next line bob reads. Time for claims and IDLE
is moved by hand: the rooms' table talk reads the ``now`` it is given.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Sequence
from pathlib import Path

import pytest

from c4tui.engine import Move
from c4tui.lobby.journal import GameEvent, GameFinished, MoveMade
from c4tui.lobby.kinds import ConnectFourSettings
from c4tui.protocols.table_talk import AWAY_BEFORE_CLAIM, IDLE_BEFORE_CLAIM, IDLE_WARNING
from c4tui.server.core import C4Server
from c4tui.server.sqlite_store import SqliteStore
from c4tui.server.store import NewRatings
from c4tui.server.unkept import NOT_KEPT
from tests.net.lobby_client import TEST_ROUNDS, LobbyClient, lobby_server, logged_in

EMPTY = "0" * 16


def bottom(row: str) -> str:
    """A 4 x 4 board with ``row`` on its bottom row (cells are listed from the top)."""
    return "0" * 12 + row


async def exchange(clients: dict[str, LobbyClient], script: str) -> None:
    """Run ``script``: ``who> line`` sends, ``who< line`` must be who's next line."""
    for step in (step.strip() for step in script.strip().splitlines()):
        if not step:
            continue
        who, arrow, line = step.partition(">" if ">" in step.split(" ")[0] else "<")
        client = clients[who]
        if arrow == ">":
            await client.send(line.strip())
        else:
            assert await client.line() == line.strip(), step


def sitting_down(room: str = "r1", terms: str = "") -> str:
    """The script of ann creating ``room`` (4 x 4; ``terms``: its CREATE's end), bob joining."""
    return f"""
        ann> CREATE:{room}:4:4:classic{terms}
        ann< CREATE:ACKSTATUS:0
        bob> JOIN:{room}:PLAYER
        bob< JOIN:ACKSTATUS:0
        ann< BEGIN:ann:bob:4:4:classic
        bob< BEGIN:ann:bob:4:4:classic
        """


async def table(port: int, viewer: bool = True) -> dict[str, LobbyClient]:
    """ann (red) and bob (yellow) playing on a 4 x 4 board in room r1, vic watching."""
    clients = {name: await logged_in(port, name) for name in ("ann", "bob", "vic")}
    await exchange(clients, sitting_down())
    if viewer:
        await exchange(clients, "vic> JOIN:r1:VIEWER\nvic< JOIN:ACKSTATUS:0")
        await exchange(clients, f"vic< INPROGRESS:ann:bob:4:4:classic\nvic< BOARDSTATUS:{EMPTY}")
    return clients


def played(mover: str, move: str, board: str, everyone: str = "ann bob vic") -> str:
    """The script of ``mover`` playing ``move``: each of ``everyone`` reads ``board``."""
    return "\n".join(
        [f"{mover}> {move}", *(f"{who}< BOARDSTATUS:{board}" for who in everyone.split())]
    )


def both_moved() -> str:
    one, two = bottom("1000"), bottom("1200")
    return f"""
        {played("ann", "DROP:1", one)}
        {played("bob", "DROP:2", two)}
        """


async def test_a_draw_offered_and_accepted_ends_as_a_draw_by_agreement(
    tmp_path: Path, lobby_db: str
) -> None:
    async with lobby_server(tmp_path, lobby_db) as server:
        clients = await table(server.port)
        end = f"GAMEEND:{bottom('1200')}:4"
        await exchange(
            clients,
            f"""
            ann> DRAW
            ann< DRAW:ACKSTATUS:1
            {both_moved()}
            ann> DRAW
            ann< DRAW:ACKSTATUS:0
            bob< DRAWOFFER:ann
            vic< DRAWOFFER:ann
            ann> DRAW
            ann< DRAW:ACKSTATUS:2
            bob> DRAW
            bob< DRAW:ACKSTATUS:0
            ann< {end}
            bob< {end}
            vic< {end}
            """,
        )
        ann = clients["ann"]
        (number,) = (await ann.ask("HISTORY")).split(":")[3:]
        kept = await ann.ask(f"GAME:{number}")
        assert kept.split(":")[9:11] == ["", "agreement"]  # no winner; the reason
        assert (await ann.ask("PROFILE:ann")).split(":")[6:10] == ["1", "0", "1", "0"]


async def test_a_draw_declined_and_one_declined_by_a_move(tmp_path: Path) -> None:
    async with lobby_server(tmp_path) as server:
        clients = await table(server.port)
        three = bottom("1210")
        await exchange(
            clients,
            f"""
            {both_moved()}
            bob> DRAW
            bob< DRAW:ACKSTATUS:0
            ann< DRAWOFFER:bob
            vic< DRAWOFFER:bob
            ann> DECLINEDRAW
            ann< DECLINEDRAW:ACKSTATUS:0
            bob< DRAWDECLINED:ann
            ann> DECLINEDRAW
            ann< DECLINEDRAW:ACKSTATUS:1
            bob> DRAW
            bob< DRAW:ACKSTATUS:0
            ann< DRAWOFFER:bob
            vic< DRAWOFFER:bob
            ann> DROP:3
            bob< DRAWDECLINED:ann
            ann< BOARDSTATUS:{three}
            bob< BOARDSTATUS:{three}
            vic< BOARDSTATUS:{three}
            ann> DRAW:now
            ann< DRAW:ACKSTATUS:3
            """,
        )


async def test_a_takeback_agreed_undoes_the_move_for_all_and_in_the_store(
    tmp_path: Path, lobby_db: str
) -> None:
    async with lobby_server(tmp_path, lobby_db) as server:
        clients = await table(server.port)
        one, other = bottom("1000"), bottom("0100")
        await exchange(
            clients,
            f"""
            {played("ann", "DROP:1", one)}
            bob> TAKEBACK
            bob< TAKEBACK:ACKSTATUS:1
            ann> TAKEBACK
            ann< TAKEBACK:ACKSTATUS:0
            bob< TAKEBACKOFFER:ann
            bob> TAKEBACK
            bob< TAKEBACK:ACKSTATUS:0
            ann< BOARDSTATUS:{EMPTY}
            bob< BOARDSTATUS:{EMPTY}
            vic< BOARDSTATUS:{EMPTY}
            ann> TAKEBACK
            ann< TAKEBACK:ACKSTATUS:1
            {played("ann", "DROP:2", other)}
            """,
        )
        (number,) = [game.number for game in await server.lobby.store.unfinished_games()]
        stored = await server.lobby.store.game(number)
        assert stored is not None and stored.moves == (Move.drop(1),)


async def test_a_takeback_declined_is_told_to_its_asker(tmp_path: Path) -> None:
    async with lobby_server(tmp_path) as server:
        clients = await table(server.port, viewer=False)
        one = bottom("1000")
        await exchange(
            clients,
            f"""
            {played("ann", "DROP:1", one, "ann bob")}
            ann> TAKEBACK
            ann< TAKEBACK:ACKSTATUS:0
            bob< TAKEBACKOFFER:ann
            bob> DECLINETAKEBACK
            bob< DECLINETAKEBACK:ACKSTATUS:0
            ann< TAKEBACKDECLINED:bob
            bob> DECLINETAKEBACK
            bob< DECLINETAKEBACK:ACKSTATUS:1
            """,
        )


async def test_an_abort_before_both_have_moved_is_kept_unrated(
    tmp_path: Path, lobby_db: str
) -> None:
    async with lobby_server(tmp_path, lobby_db) as server:
        clients = await table(server.port)
        end = f"GAMEEND:{bottom('1000')}:5"
        await exchange(
            clients,
            f"""
            {played("ann", "DROP:1", bottom("1000"))}
            bob> ABORT
            bob< ABORT:ACKSTATUS:0
            ann< {end}
            bob< {end}
            vic< {end}
            ann> ABORT
            ann< ABORT:ACKSTATUS:1
            """,
        )
        ann = clients["ann"]
        (number,) = (await ann.ask("HISTORY")).split(":")[3:]
        assert (await ann.ask(f"GAME:{number}")).split(":")[9:11] == ["", "aborted"]
        assert await ann.ask("PROFILE:bob") == "PROFILE:ACKSTATUS:0:bob:1500:350:0:0:0:0:0:player"


async def test_an_abort_after_both_have_moved_is_too_late(tmp_path: Path) -> None:
    async with lobby_server(tmp_path) as server:
        clients = await table(server.port)
        await exchange(clients, f"{both_moved()}\nann> ABORT\nann< ABORT:ACKSTATUS:1")


class MovedTime:
    """The table talk's clock, moved by hand from the real one."""

    def __init__(self, server: C4Server) -> None:
        self.talk = server.lobby.rooms.talk
        self.real = self.talk.now
        self.ahead = 0.0
        self.talk.now = lambda: self.real() + self.ahead


async def test_a_claim_against_an_opponent_away_thirty_seconds(tmp_path: Path) -> None:
    async with lobby_server(tmp_path, reconnect_grace=600) as server:
        time = MovedTime(server)
        clients = await table(server.port)
        one = bottom("1000")
        await exchange(
            clients,
            f"""
            {played("ann", "DROP:1", one)}
            """,
        )
        await clients["bob"].close()
        assert (await clients["ann"].line()).startswith("AWAY:bob:")
        assert (await clients["vic"].line()).startswith("AWAY:bob:")
        await exchange(clients, "ann> CLAIM\nann< CLAIM:ACKSTATUS:1")
        time.ahead = AWAY_BEFORE_CLAIM
        end = f"GAMEEND:{one}:2:ann"
        await exchange(clients, f"ann> CLAIM\nann< CLAIM:ACKSTATUS:0\nann< {end}\nvic< {end}")


async def test_an_idle_player_is_warned_then_claimed_against(tmp_path: Path) -> None:
    async with lobby_server(tmp_path) as server:
        time = MovedTime(server)
        clients = await table(server.port)
        one = bottom("1000")
        await exchange(
            clients,
            f"""
            {played("ann", "DROP:1", one)}
            """,
        )
        time.ahead = IDLE_WARNING  # the server's frequent look says it
        await exchange(clients, "ann< IDLE:bob\nbob< IDLE:bob\nvic< IDLE:bob")
        await exchange(clients, "ann> CLAIM\nann< CLAIM:ACKSTATUS:1")
        time.ahead = IDLE_BEFORE_CLAIM
        end = f"GAMEEND:{one}:2:ann"
        await exchange(
            clients, f"ann> CLAIM\nann< CLAIM:ACKSTATUS:0\nann< {end}\nbob< {end}\nvic< {end}"
        )


class Failing(SqliteStore):
    """The real store, whose writes of journals with a ``failing`` event fail while ``fail``."""

    def __init__(self, path: Path, failing: type[GameEvent[object, object]] = MoveMade) -> None:
        super().__init__(path, TEST_ROUNDS, exclusive=False)  # beside the server's own
        self.failing = failing
        self.fail = False

    async def keep(
        self, journal: Sequence[GameEvent[ConnectFourSettings, Move]]
    ) -> list[NewRatings]:
        if self.fail and any(isinstance(event, self.failing) for event in journal):
            raise sqlite3.OperationalError("database or disk is full")
        return await super().keep(journal)


async def test_a_move_the_store_cannot_keep_is_refused_to_its_sender_alone(
    tmp_path: Path,
) -> None:
    async with lobby_server(tmp_path) as server:
        failing = Failing(tmp_path / "accounts.sqlite3")  # the same file, a second connection
        await failing.open()
        server.lobby.keeper = failing
        try:
            clients = await table(server.port)
            failing.fail = True
            await exchange(clients, f"ann> DROP:1\nann< INVALID:{NOT_KEPT}")
            failing.fail = False
            assert await clients["bob"].quiet(0.3) and await clients["vic"].quiet(0.1)
            await exchange(clients, "bob> DROP:2\nbob< INVALID:not your turn")
            one = bottom("0001")
            await exchange(
                clients,
                f"""
                {played("ann", "DROP:4", one)}
                """,
            )
            (number,) = [game.number for game in await failing.unfinished_games()]
            stored = await failing.game(number)
            assert stored is not None and stored.moves == (Move.drop(3),)
        finally:
            await failing.close()


@pytest.mark.parametrize("command", ["DRAW", "DECLINEDRAW", "TAKEBACK", "ABORT", "CLAIM"])
async def test_outside_a_game_each_request_has_nothing_to_act_on(
    tmp_path: Path, command: str
) -> None:
    async with lobby_server(tmp_path) as server:
        loner = await logged_in(server.port, "zed")
        assert await loner.ask(command) == f"{command}:ACKSTATUS:1"
        assert await asyncio.wait_for(loner.ask(f"{command}:x"), 10) == f"{command}:ACKSTATUS:3"


def a_minute_each(room: str) -> str:
    """The script of ann and bob sitting down in ``room``, a minute each on the clock."""
    clocks = "ann< CLOCK:60000:60000\nbob< CLOCK:60000:60000"
    return f"{sitting_down(room, ':casual:1+0')}\n{clocks}"


async def test_an_end_the_store_cannot_keep_is_still_told_to_everyone(tmp_path: Path) -> None:
    """A game's end cannot be undone: it is told all the same, and the server serves on.

    Before, the failure left the game's end untold (bob and vic waited for ever in a
    room that was gone) and cost ann her connection; a flag's fall whose end could not
    be kept ended the server's look for fallen flags, in every game, for good.
    """
    async with lobby_server(tmp_path) as server:
        failing = Failing(tmp_path / "accounts.sqlite3", GameFinished)
        await failing.open()
        server.lobby.keeper = failing
        try:
            clients = await table(server.port)
            failing.fail = True
            end = f"GAMEEND:{EMPTY}:2:bob"
            await exchange(clients, f"ann> FORFEIT\nann< {end}\nbob< {end}\nvic< {end}")
            assert await clients["ann"].ask("ROOMLIST:PLAYER") == "ROOMLIST:ACKSTATUS:0:"
            clock = server.lobby.rooms.clocks
            real = clock.now
            await exchange(clients, a_minute_each("r2"))
            clock.now = lambda: real() + 61  # ann's flag falls: the look ends the game
            lost = f"GAMEEND:{EMPTY}:3:bob"
            await exchange(clients, f"ann< {lost}\nbob< {lost}")
            failing.fail = False
            clock.now = real
            await exchange(clients, a_minute_each("r3"))
            clock.now = lambda: real() + 61  # the look still looks
            await exchange(clients, f"ann< {lost}\nbob< {lost}")
        finally:
            await failing.close()


async def test_a_rated_abort_rates_nobody_and_a_rated_agreement_rates_a_draw(
    tmp_path: Path, lobby_db: str
) -> None:
    async with lobby_server(tmp_path, lobby_db) as server:
        clients = {name: await logged_in(server.port, name) for name in ("ann", "bob")}
        await exchange(clients, sitting_down(terms=":rated"))
        aborted = f"GAMEEND:{bottom('1000')}:5"
        await exchange(
            clients,
            f"""
            {played("ann", "DROP:1", bottom("1000"), "ann bob")}
            ann> ABORT
            ann< ABORT:ACKSTATUS:0
            ann< {aborted}
            bob< {aborted}
            """,
        )
        assert await clients["ann"].quiet(0.3)  # no RATING
        assert (await clients["ann"].ask("PROFILE:ann")).split(":")[4:7] == ["1500", "350", "0"]
        await exchange(
            clients,
            f"""
            {sitting_down(terms=":rated")}
            {played("ann", "DROP:1", bottom("1000"), "ann bob")}
            {played("bob", "DROP:2", bottom("1200"), "ann bob")}
            ann> DRAW
            ann< DRAW:ACKSTATUS:0
            bob< DRAWOFFER:ann
            bob> DRAW
            bob< DRAW:ACKSTATUS:0
            ann< GAMEEND:{bottom("1200")}:4
            bob< GAMEEND:{bottom("1200")}:4
            """,
        )
        for player in ("ann", "bob"):  # RATING, red's then yellow's, to each player
            ratings = [await clients[player].line(), await clients[player].line()]
            assert [line.split(":")[:2] for line in ratings] == [
                ["RATING", "ann"],
                ["RATING", "bob"],
            ]
            assert all(line.endswith(":+0") for line in ratings)  # equals drawing: no change
        profile = (await clients["bob"].ask("PROFILE:bob")).split(":")
        assert profile[6:10] == ["1", "0", "1", "0"] and int(profile[5]) < 350
