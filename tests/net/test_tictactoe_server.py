"""``c4tui serve --tictactoe-port``: the INFO1112 handout's protocol, over real sockets."""

from __future__ import annotations

import asyncio
from pathlib import Path

from c4tui.server.core import C4Server
from tests.net.tictactoe_client import (
    SeedClient,
    TicTacToeClient,
    signed_in,
    threaded_tictactoe_server,
    tictactoe_server,
)

EMPTY = "000000000"


def port_of(server: C4Server) -> int:
    assert server.tictactoe_port is not None
    return server.tictactoe_port


async def playing(port: int) -> tuple[TicTacToeClient, TicTacToeClient]:
    """ann and bob, logged in and playing each other in room r (ann places X)."""
    ann, bob = await signed_in(port, "ann"), await signed_in(port, "bob")
    await ann.ask("CREATE:r", "CREATE:ACKSTATUS:0")
    await bob.ask("JOIN:r:PLAYER", "JOIN:ACKSTATUS:0")
    for client in (bob, ann):
        await client.expect("BEGIN:ann:bob")
    return ann, bob


def test_the_handouts_example_game_read_one_message_per_recv(tmp_path: Path) -> None:
    """alice and bob play the handout's game (§3.4), watched; every read holds one message."""
    with threaded_tictactoe_server(tmp_path) as server:
        alice, bob, vic = (SeedClient(port_of(server)) for _ in range(3))
        for client, name in [(alice, "alice"), (bob, "bob"), (vic, "vic")]:
            assert client.ask(f"REGISTER:{name}:pw") == "REGISTER:ACKSTATUS:0"
            assert client.ask(f"LOGIN:{name}:pw") == "LOGIN:ACKSTATUS:0"
        assert alice.ask("ROOMLIST:PLAYER") == "ROOMLIST:ACKSTATUS:0:"  # the trailing colon
        assert alice.ask("CREATE:Room 1") == "CREATE:ACKSTATUS:0"
        assert vic.ask("JOIN:Room 1:VIEWER") == "JOIN:ACKSTATUS:0"
        assert bob.ask("ROOMLIST:PLAYER") == "ROOMLIST:ACKSTATUS:0:Room 1"
        assert bob.ask("JOIN:Room 1:PLAYER") == "JOIN:ACKSTATUS:0"
        # bob's BEGIN came in a read of its own (JOIN's answer above held nothing more). The
        # gap between the two arrivals is not checked: a reader held up by a loaded machine
        # reads the first late, and so sees a gap shorter than the server's pause.
        for client in (bob, alice, vic):
            assert client.receive() == "BEGIN:alice:bob"
        example = [
            (alice, "PLACE:1:1", "BOARDSTATUS:000010000"),
            (bob, "PLACE:0:0", "BOARDSTATUS:200010000"),
            (alice, "PLACE:0:2", "BOARDSTATUS:200010100"),
            (bob, "PLACE:1:0", "BOARDSTATUS:220010100"),
            (alice, "PLACE:2:0", "GAMEEND:221010100:0:alice"),
        ]
        for mover, place, answer in example:
            mover.send(place)
            assert [client.receive() for client in (alice, bob, vic)] == [answer] * 3
        assert bob.ask("ROOMLIST:VIEWER") == "ROOMLIST:ACKSTATUS:0:"  # the room is gone
        assert vic.ask("PLACE:0:0") == "NOROOM"
        for client in (alice, bob, vic):
            client.close()


async def test_account_statuses_and_badauth(tmp_path: Path) -> None:
    async with tictactoe_server(tmp_path) as server:
        client = await TicTacToeClient.connect(port_of(server))
        for message in ["ROOMLIST:PLAYER", "CREATE:r", "JOIN:r:PLAYER", "PLACE:0:0", "FORFEIT"]:
            await client.ask(message, "BADAUTH")
        await client.ask("REGISTER:ann:s3cr:et", "REGISTER:ACKSTATUS:0")
        await client.ask("REGISTER:ann:other", "REGISTER:ACKSTATUS:1")
        # Messages that could still grow wait a second for their rest, unless a newline ends them.
        for bad in ["REGISTER\n", "REGISTER:\n", "REGISTER:ann\n", "REGISTER:a b:pw"]:
            await client.ask(bad, "REGISTER:ACKSTATUS:2")
        await client.ask("LOGIN:bob:pw", "LOGIN:ACKSTATUS:1")
        await client.ask("LOGIN:ann:s3cr", "LOGIN:ACKSTATUS:2")
        for bad in ["LOGIN\n", "LOGIN:ann\n"]:
            await client.ask(bad, "LOGIN:ACKSTATUS:3")
        await client.ask("LOGIN:ann:s3cr:et", "LOGIN:ACKSTATUS:0")
        # The accounts are the lobby's: the lobby port knows ann too.
        lobby = await TicTacToeClient.connect(server.port)
        await lobby.ask("LOGIN:ann:s3cr:et\n", "LOGIN:ACKSTATUS:0\n")


async def test_room_statuses(tmp_path: Path) -> None:
    async with tictactoe_server(tmp_path, max_rooms=2) as server:
        port = port_of(server)
        ann, bob, cid = [await signed_in(port, name) for name in ("ann", "bob", "cid")]
        await ann.ask("ROOMLIST:players", "ROOMLIST:ACKSTATUS:1")
        await ann.ask("ROOMLIST\n", "ROOMLIST:ACKSTATUS:1")
        await ann.ask("ROOMLIST:PLAYER:VIEWER", "ROOMLIST:ACKSTATUS:1")
        await ann.ask("CREATE:Ann's room", "CREATE:ACKSTATUS:1")
        await ann.ask("CREATE:" + "x" * 21, "CREATE:ACKSTATUS:1")
        await ann.ask("CREATE\n", "CREATE:ACKSTATUS:4")
        await ann.ask("CREATE:a:b", "CREATE:ACKSTATUS:4")
        await ann.ask("CREATE:epic room_2", "CREATE:ACKSTATUS:0")
        await ann.ask("CREATE:another", "CREATE:ACKSTATUS:4")  # already in a room
        await bob.ask("CREATE:epic room_2", "CREATE:ACKSTATUS:2")
        await bob.ask("CREATE:b", "CREATE:ACKSTATUS:0")
        await cid.ask("CREATE:c", "CREATE:ACKSTATUS:3")  # max_rooms=2
        await cid.ask("JOIN:nowhere:PLAYER", "JOIN:ACKSTATUS:1")
        await cid.ask("JOIN:b:player", "JOIN:ACKSTATUS:3")
        await cid.ask("JOIN:b\n", "JOIN:ACKSTATUS:3")
        await cid.ask("JOIN\n", "JOIN:ACKSTATUS:3")
        await cid.ask("JOIN:b:PLAYER", "JOIN:ACKSTATUS:0")
        await cid.expect("BEGIN:bob:cid")
        await bob.expect("BEGIN:bob:cid")
        dan = await signed_in(port, "dan")
        await dan.ask("JOIN:b:PLAYER", "JOIN:ACKSTATUS:2")
        await dan.ask("ROOMLIST:PLAYER", "ROOMLIST:ACKSTATUS:0:epic room_2")
        await dan.ask("ROOMLIST:VIEWER", "ROOMLIST:ACKSTATUS:0:epic room_2,b")
        await cid.ask("JOIN:epic room_2:VIEWER", "JOIN:ACKSTATUS:3")  # already in a room


async def test_a_viewer_joining_midway_then_a_draw(tmp_path: Path) -> None:
    async with tictactoe_server(tmp_path) as server:
        port = port_of(server)
        ann, bob = await playing(port)
        await ann.send("PLACE:0:0")
        for client in (ann, bob):
            await client.expect("BOARDSTATUS:100000000")
        vic = await signed_in(port, "vic")
        await vic.ask("JOIN:r:VIEWER", "JOIN:ACKSTATUS:0")
        await vic.expect("INPROGRESS:bob:ann")
        await vic.expect("BOARDSTATUS:100000000")
        # X O X / X O O / O X X: nobody has three in a row.
        moves = ["1:1", "2:0", "1:0", "1:2", "0:2", "0:1", "2:1"]
        boards = [
            "100020000",
            "101020000",
            "121020000",
            "121020010",
            "121020210",
            "121120210",
            "121122210",
        ]
        for index, (place, board) in enumerate(zip(moves, boards, strict=True)):
            await (bob if index % 2 == 0 else ann).send(f"PLACE:{place}")
            for client in (ann, bob, vic):
                await client.expect(f"BOARDSTATUS:{board}")
        await ann.send("PLACE:2:2")
        for client in (ann, bob, vic):
            await client.expect("GAMEEND:121122211:1")


async def test_forfeit_and_disconnect_end_the_game_for_everyone(tmp_path: Path) -> None:
    async with tictactoe_server(tmp_path) as server:
        port = port_of(server)
        ann, bob, vic = [await signed_in(port, name) for name in ("ann", "bob", "vic")]
        await ann.ask("CREATE:r", "CREATE:ACKSTATUS:0")
        await vic.ask("JOIN:r:VIEWER", "JOIN:ACKSTATUS:0")  # watching before the game begins
        await bob.ask("JOIN:r:PLAYER", "JOIN:ACKSTATUS:0")
        for client in (bob, ann, vic):
            await client.expect("BEGIN:ann:bob")
        await bob.send("FORFEIT")  # not bob's turn: a forfeit is allowed at any time
        for client in (ann, bob, vic):
            await client.expect(f"GAMEEND:{EMPTY}:2:ann")
        await ann.ask("CREATE:r2", "CREATE:ACKSTATUS:0")
        await bob.ask("JOIN:r2:PLAYER", "JOIN:ACKSTATUS:0")
        for client in (bob, ann):
            await client.expect("BEGIN:ann:bob")
        await ann.send("PLACE:2:2")
        for client in (ann, bob):
            await client.expect("BOARDSTATUS:000000001")
        await ann.close()  # hanging up mid-game forfeits
        await bob.expect("GAMEEND:000000001:2:bob")
        await bob.ask("FORFEIT", "NOROOM")


async def test_refused_moves_change_nothing_and_are_answered_with_the_board(
    tmp_path: Path,
) -> None:
    async with tictactoe_server(tmp_path) as server:
        port = port_of(server)
        ann, bob, vic = [await signed_in(port, name) for name in ("ann", "bob", "vic")]
        await vic.ask("PLACE:0:0", "NOROOM")
        await vic.ask("FORFEIT", "NOROOM")
        await ann.ask("CREATE:r", "CREATE:ACKSTATUS:0")
        await ann.ask("PLACE:0:0", f"BOARDSTATUS:{EMPTY}")  # waiting for an opponent
        await ann.ask("FORFEIT", f"BOARDSTATUS:{EMPTY}")
        await bob.ask("JOIN:r:PLAYER", "JOIN:ACKSTATUS:0")
        for client in (bob, ann):
            await client.expect("BEGIN:ann:bob")
        await vic.ask("JOIN:r:VIEWER", "JOIN:ACKSTATUS:0")
        await vic.expect("INPROGRESS:ann:bob")
        await vic.expect(f"BOARDSTATUS:{EMPTY}")
        await ann.send("PLACE:1:1")
        for client in (ann, bob, vic):
            await client.expect("BOARDSTATUS:000010000")
        refusals = [
            (ann, "PLACE:0:0"),  # not ann's turn
            (bob, "PLACE:1:1"),  # taken
            (bob, "PLACE:3:0"),  # off the board
            (bob, "PLACE:0:-1"),
            (bob, "PLACE:a:b"),
            (bob, "PLACE:0:0:0"),
            (bob, "PLACE:\n"),
            (vic, "PLACE:0:0"),  # a viewer
            (vic, "FORFEIT"),
        ]
        for client, message in refusals:
            await client.ask(message, "BOARDSTATUS:000010000")
        for client in (ann, bob, vic):
            assert await client.quiet(0.1), "a refusal goes to its sender only"
        await bob.send("PLACE:0:0")  # the game goes on as if nothing had happened
        for client in (ann, bob, vic):
            await client.expect("BOARDSTATUS:200010000")


async def test_malformed_messages_close_only_their_connection(tmp_path: Path) -> None:
    async with tictactoe_server(tmp_path) as server:
        port = port_of(server)
        ann, bob = await playing(port)
        refused = b"ERROR\r\n"  # the front door's word for a client of no protocol of ours
        violations: list[tuple[bytes, bytes]] = [
            (b"HELLO", refused),
            (b"LOGIN:x:y\xff", b""),  # not ASCII
            (b"LOGIN:x:" + b"y" * 9000, b""),  # longer than any message may be
            (b"LOGIN:mal:pw", b""),  # then a command this protocol does not have
            (b"\x00\x01\x02", refused),
        ]
        moves = iter(
            [
                (ann, "PLACE:0:0", "100000000"),
                (bob, "PLACE:2:2", "100000002"),
                (ann, "PLACE:1:0", "110000002"),
            ]
        )
        for index, (data, last_words) in enumerate(violations):
            rogue = await TicTacToeClient.connect(port)
            sent = data
            if data.startswith(b"LOGIN:mal"):
                await rogue.ask("REGISTER:mal:pw", "REGISTER:ACKSTATUS:0")
                await rogue.ask("LOGIN:mal:pw", "LOGIN:ACKSTATUS:0")
                sent = b"CHAT:hello"  # the lobby's, not this protocol's
            await rogue.send(sent)
            assert await rogue.last_words() == last_words, data[:20]
            if index % 2 == 0:  # the room plays on meanwhile
                mover, place, board = next(moves)
                await mover.send(place)
                for client in (ann, bob):
                    await client.expect(f"BOARDSTATUS:{board}")
        await bob.send("PLACE:2:1")
        for client in (ann, bob):
            await client.expect("BOARDSTATUS:110002002")


async def test_framing_of_merged_split_and_terminated_messages(tmp_path: Path) -> None:
    """Two messages in one read, one message over two reads, and a newline at the end."""
    async with tictactoe_server(tmp_path) as server:
        client = await TicTacToeClient.connect(port_of(server))
        await client.send("REGISTER:ann:pwLOGIN:ann:pw")  # two messages, one write
        await client.expect("REGISTER:ACKSTATUS:0")
        await client.expect("LOGIN:ACKSTATUS:0")
        await client.send("ROOM")  # half a message ...
        await asyncio.sleep(0.2)
        assert await client.quiet(0.1)
        await client.send("LIST:PLAYER")  # ... and the rest
        await client.expect("ROOMLIST:ACKSTATUS:0:")
        await client.send("CREATE:r\n")  # a client that ends its messages with a newline
        await client.expect("CREATE:ACKSTATUS:0")
        await client.send("ROOMLIST:VIEWER\r\nROOMLIST:PLA")
        await client.expect("ROOMLIST:ACKSTATUS:0:r")
        await client.send("YER")
        await client.expect("ROOMLIST:ACKSTATUS:0:r")  # ann's room waits for a player
        await client.send("JOIN:r:PLA")  # unfinished for a second, then judged as it stands
        await client.expect("JOIN:ACKSTATUS:3")
