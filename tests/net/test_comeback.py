"""Coming back by ourselves (client/comeback.py): a real server stopped and started
again on the same database and port, and a client that logs in again and is back in
its game — or is told in words why it is not."""

from __future__ import annotations

import asyncio
from pathlib import Path

from c4tui.client.comeback import Account, Comeback, come_back, last_game, worth_coming_back
from c4tui.client.link import LobbyLink
from c4tui.client.room_game import room_game_from
from c4tui.engine import Rules, parse_move
from c4tui.protocols import lobby as wire
from c4tui.server.core import C4Server, ServerConfig
from tests.net.lobby_client import TEST_ROUNDS, LobbyClient, logged_in

QUICK = (0.05, 0.1, 0.2, 0.4, 0.8, 1.6, 3.2)


async def until(client: LobbyClient, prefix: str) -> str:
    """The first line from ``client`` that starts with ``prefix`` (the others are skipped)."""
    while not (line := await client.line()).startswith(prefix):
        pass
    return line


def config(tmp_path: Path, port: int = 0) -> ServerConfig:
    return ServerConfig(port=port, db=tmp_path / "lobby.sqlite3", bcrypt_rounds=TEST_ROUNDS)


async def a_game(port: int) -> tuple[LobbyLink, LobbyClient]:
    """ann (a LobbyLink) against bob (raw), one move each played."""
    bob = await logged_in(port, "bob")
    ann_raw = await logged_in(port, "ann")
    await ann_raw.close()
    ann = await LobbyLink.open("127.0.0.1", port)
    await ann.login("ann", "pw")
    await ann.create("r1", (7, 6, Rules.CLASSIC))
    assert await bob.ask("JOIN:r1:PLAYER") == "JOIN:ACKSTATUS:0"
    assert isinstance(await ann.pushed(), wire.Begin)
    await ann.send("DROP:4")
    assert isinstance(await ann.pushed(), wire.BoardStatus)
    await until(bob, "BEGIN")
    await until(bob, "BOARDSTATUS")
    await bob.send("DROP:3")
    assert isinstance(await ann.pushed(), wire.BoardStatus)
    return ann, bob


async def a_game_and_a_stop(tmp_path: Path) -> tuple[int, LobbyLink, LobbyClient]:
    """``a_game``, then its server stopped (its port, to start one again on)."""
    server = C4Server(config(tmp_path))
    await server.start()
    port = server.port
    ann, bob = await a_game(port)
    await server.stop()
    await ann.gone()
    return port, ann, bob


async def test_after_a_restart_the_client_is_back_in_its_game_with_the_board(
    tmp_path: Path,
) -> None:
    port, ann, bob = await a_game_and_a_stop(tmp_path)
    assert worth_coming_back(ann)  # BYE:shutdown: the server is restarting
    server = C4Server(config(tmp_path, port))
    tries: list[int] = []
    returning = asyncio.create_task(
        come_back(Account("127.0.0.1", port, "ann", "pw"), on_try=tries.append, delays=QUICK)
    )
    await asyncio.sleep(0.4)  # a try or two find nobody
    await server.start()
    try:
        comeback = await returning
        assert isinstance(comeback, Comeback), comeback
        assert comeback.rejoined == "r1" and comeback.rooms == ["r1"]
        assert len(tries) >= 2
        assert await comeback.link.pushed() == wire.Rejoin("r1")
        start = await comeback.link.pushed()
        assert isinstance(start, wire.InProgress) and start.to_move == "ann"
        board = await comeback.link.pushed()
        assert isinstance(board, wire.BoardStatus) and board.cells.count("0") == 40
        await comeback.link.close()
    finally:
        await bob.close()
        await server.stop()


async def test_a_wrong_password_ends_the_tries_at_once(tmp_path: Path) -> None:
    server = C4Server(config(tmp_path))
    await server.start()
    try:
        (await logged_in(server.port, "ann")).writer.close()
        tries: list[int] = []
        answer = await come_back(
            Account("127.0.0.1", server.port, "ann", "not it"), on_try=tries.append, delays=QUICK
        )
        assert isinstance(answer, str) and "password" in answer.lower()
        assert tries == [1]
    finally:
        await server.stop()


async def test_nobody_there_gives_up_after_the_tries_saying_so(tmp_path: Path) -> None:
    server = C4Server(config(tmp_path))
    await server.start()
    port = server.port
    await server.stop()
    answer = await come_back(Account("127.0.0.1", port, "ann", "pw"), delays=(0.01,) * 3)
    assert answer == f"No answer from the server at 127.0.0.1:{port} after 3 tries: giving up."


async def test_a_game_that_ended_while_away_is_found_in_the_history(tmp_path: Path) -> None:
    server = C4Server(config(tmp_path))
    await server.start()
    try:
        ann, bob = await a_game(server.port)
        await ann.close()  # ann drops; bob forfeits meanwhile: ann wins while away
        await until(bob, "AWAY:ann")
        await bob.send("FORFEIT")
        await until(bob, "GAMEEND")
        comeback = await come_back(Account("127.0.0.1", server.port, "ann", "pw"), delays=QUICK)
        assert isinstance(comeback, Comeback) and comeback.rejoined is None
        ended = await last_game(comeback.link)
        assert ended is not None and ended.winner == "ann" and ended.reason == "forfeit"
        await comeback.link.close()
        await bob.close()
    finally:
        await server.stop()


async def test_a_game_come_back_into_has_its_earlier_moves_from_the_archive(
    tmp_path: Path,
) -> None:
    """INPROGRESS gives the board only; the moves before it come from GAME, found among
    the games begun after red's newest finished one (others' games begun in between)."""
    server = C4Server(config(tmp_path))
    await server.start()
    try:
        cid = await logged_in(server.port, "cid")
        dee = await logged_in(server.port, "dee")
        assert await cid.ask("CREATE:before:4:4:classic") == "CREATE:ACKSTATUS:0"
        assert await dee.ask("JOIN:before:PLAYER") == "JOIN:ACKSTATUS:0"
        await cid.send("FORFEIT")  # game 1, finished: cid's and dee's
        await until(cid, "GAMEEND")
        ann, bob = await a_game(server.port)  # game 2, under way: d4 d3
        eve = await logged_in(server.port, "eve")
        fay = await logged_in(server.port, "fay")
        assert await eve.ask("CREATE:after:4:4:classic") == "CREATE:ACKSTATUS:0"
        assert await fay.ask("JOIN:after:PLAYER") == "JOIN:ACKSTATUS:0"  # game 3, under way
        await ann.close()
        comeback = await come_back(Account("127.0.0.1", server.port, "ann", "pw"), delays=QUICK)
        assert isinstance(comeback, Comeback) and comeback.rejoined == "r1"
        start = await comeback.link.pushed()
        while not isinstance(start, wire.InProgress):
            start = await comeback.link.pushed()
        game = await room_game_from(comeback.link, start, "r1")
        assert game.earlier == (parse_move("d4"), parse_move("d3"))
        await game.close()
        await comeback.link.close()
        for client in (bob, cid, dee, eve, fay):
            await client.close()
    finally:
        await server.stop()


async def test_with_a_game_on_the_tries_go_on_past_the_give_up_time(tmp_path: Path) -> None:
    """A restart longer than the tries take (here shortened to 0.15 s) still finds us back.

    The tries without a game would have given up; with one they go on, ``every`` apart.
    """
    port, _, bob = await a_game_and_a_stop(tmp_path)
    past_the_give_up = asyncio.Event()

    def tried(attempt: int) -> None:
        if attempt > 5:  # the three delays and more: what used to give up
            past_the_give_up.set()

    account = Account("127.0.0.1", port, "ann", "pw")
    returning = asyncio.create_task(
        come_back(account, on_try=tried, delays=(0.05,) * 3, game_on=True, every=0.05)
    )
    await asyncio.wait_for(past_the_give_up.wait(), 30)
    assert not returning.done()
    server = C4Server(config(tmp_path, port))
    await server.start()
    try:
        comeback = await asyncio.wait_for(returning, 30)
        assert isinstance(comeback, Comeback), comeback
        assert comeback.rejoined == "r1"
        await comeback.link.close()
    finally:
        await bob.close()
        await server.stop()
