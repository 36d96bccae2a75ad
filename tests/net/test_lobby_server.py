"""The lobby protocol served by c4tui serve (spec §4), over real sockets."""

from __future__ import annotations

import asyncio
import socket
from pathlib import Path

import pytest

from c4tui.engine import GameState, Move, Rules
from c4tui.protocols import lobby as wire
from tests.net.lobby_client import LobbyClient, lobby_server, logged_in


async def test_register_and_login_statuses(tmp_path: Path) -> None:
    async with lobby_server(tmp_path) as server:
        client = await LobbyClient.connect(server.port)
        assert await client.ask("REGISTER:ann:s3cr:et") == "REGISTER:ACKSTATUS:0"
        assert await client.ask("REGISTER:ann:other") == "REGISTER:ACKSTATUS:1"
        for bad in [
            "REGISTER:ann",
            "REGISTER:a b:pw",
            "REGISTER:ann:",
            "REGISTER:" + "x" * 21 + ":pw",
        ]:
            assert await client.ask(bad) == "REGISTER:ACKSTATUS:2", bad
        assert await client.ask("ROOMLIST:PLAYER") == "BADAUTH"
        assert await client.ask("LOGIN:bob:pw") == "LOGIN:ACKSTATUS:1"
        assert await client.ask("LOGIN:ann:s3cr") == "LOGIN:ACKSTATUS:2"  # ':et' counts too
        assert await client.ask("LOGIN:ann") == "LOGIN:ACKSTATUS:3"
        assert await client.ask("LOGIN:ann:s3cr:et") == "LOGIN:ACKSTATUS:0"
        assert await client.ask("LOGIN:ann:s3cr:et") == "LOGIN:ACKSTATUS:3"  # already logged in


async def test_room_statuses(tmp_path: Path) -> None:
    async with lobby_server(tmp_path) as server:
        ann = await logged_in(server.port, "ann")
        bob = await logged_in(server.port, "bob")
        assert await ann.ask("ROOMLIST:PLAYER") == "ROOMLIST:ACKSTATUS:0:"
        assert await ann.ask("ROOMLIST:players") == "ROOMLIST:ACKSTATUS:1"
        assert await ann.ask("CREATE") == "CREATE:ACKSTATUS:4"  # no colon: a bad format
        assert await ann.ask("CREATE:") == "CREATE:ACKSTATUS:1"  # an empty name: invalid
        assert await ann.ask("CREATE:a:b") == "CREATE:ACKSTATUS:4"  # one field: a bad format
        assert await ann.ask("CREATE:big:21:6:classic") == "CREATE:ACKSTATUS:4"
        assert await ann.ask("CREATE:big:7:6:Classic") == "CREATE:ACKSTATUS:4"
        assert await ann.ask("CREATE:big:7:6") == "CREATE:ACKSTATUS:4"
        assert await ann.ask("CREATE:Ann's room") == "CREATE:ACKSTATUS:1"
        assert await ann.ask("CREATE:Ann room:9:7:classic") == "CREATE:ACKSTATUS:0"
        assert await ann.ask("CREATE:second") == "CREATE:ACKSTATUS:4"  # already in a room
        assert await bob.ask("CREATE:Ann room") == "CREATE:ACKSTATUS:2"
        assert await bob.ask("ROOMLIST:PLAYER") == "ROOMLIST:ACKSTATUS:0:Ann room"
        assert await bob.ask("ROOMINFO:Ann room") == (
            "ROOMINFO:ACKSTATUS:0:9:7:classic:ann::0:waiting:casual:-"
        )
        assert await bob.ask("ROOMINFO:nowhere") == "ROOMINFO:ACKSTATUS:1"
        assert await bob.ask("JOIN:nowhere:PLAYER") == "JOIN:ACKSTATUS:1"
        assert await bob.ask("JOIN:Ann room:player") == "JOIN:ACKSTATUS:3"
        assert await bob.ask("JOIN:Ann room:PLAYER") == "JOIN:ACKSTATUS:0"
        begin = "BEGIN:ann:bob:9:7:classic"
        assert await bob.line() == begin and await ann.line() == begin
        assert await bob.ask("JOIN:Ann room:VIEWER") == "JOIN:ACKSTATUS:3"  # already in a room
        cid = await logged_in(server.port, "cid")
        assert await cid.ask("JOIN:Ann room:PLAYER") == "JOIN:ACKSTATUS:2"
        assert await cid.ask("ROOMLIST:PLAYER") == "ROOMLIST:ACKSTATUS:0:"
        assert await cid.ask("ROOMLIST:VIEWER") == "ROOMLIST:ACKSTATUS:0:Ann room"
        assert await cid.ask("QUICKPLAY:4:4") == "QUICKPLAY:ACKSTATUS:1"
        assert await cid.ask("DROP:1") == "NOROOM"
        assert await cid.ask("CHAT:hello") == "NOROOM"
        assert await cid.ask("FORFEIT") == "NOROOM"


async def playing(port: int, settings: str = "") -> tuple[LobbyClient, LobbyClient]:
    """ann and bob, playing each other in room r1 (``settings``: ``:cols:rows:rules``)."""
    ann = await logged_in(port, "ann")
    bob = await logged_in(port, "bob")
    assert await ann.ask(f"CREATE:r1{settings}") == "CREATE:ACKSTATUS:0"
    assert await bob.ask("JOIN:r1:PLAYER") == "JOIN:ACKSTATUS:0"
    begin = await ann.line()
    assert begin.startswith("BEGIN:ann:bob:") and await bob.line() == begin
    return ann, bob


async def play(mover: LobbyClient, others: list[LobbyClient], move: str, expect: str) -> str:
    """``mover`` plays ``move``; everyone gets the same answer, which starts with ``expect``."""
    await mover.send(move)
    answers = [await client.line() for client in [mover, *others]]
    assert len(set(answers)) == 1 and answers[0].startswith(expect), answers
    return answers[0]


async def test_a_game_with_a_viewer_who_joins_midway(tmp_path: Path) -> None:
    async with lobby_server(tmp_path) as server:
        ann, bob = await playing(server.port, ":4:4:classic")
        state = GameState.new(4, 4, Rules.CLASSIC)
        for move, mover in [("DROP:1", ann), ("DROP:2", bob), ("DROP:1", ann)]:
            state = state.play(wire.parse_request(move).move)  # type: ignore[union-attr]
            other = bob if mover is ann else ann
            assert await play(mover, [other], move, "BOARDSTATUS") == wire.board_status(state)
        viewer = await logged_in(server.port, "vic")
        assert await viewer.ask("JOIN:r1:VIEWER") == "JOIN:ACKSTATUS:0"
        assert await viewer.line() == "INPROGRESS:bob:ann:4:4:classic"
        assert await viewer.line() == wire.board_status(state)
        assert await bob.ask("DROP:9") == "INVALID:column 9 does not exist"
        assert await bob.ask("DROP:x") == "INVALID:'x' is not a column number"
        assert await ann.ask("DROP:3") == "INVALID:not your turn"
        assert await viewer.ask("DROP:3") == "INVALID:viewers cannot move"
        assert await ann.quiet() and await viewer.quiet(0.1)  # INVALID went to the mover only
        for move, mover in [("DROP:2", bob), ("DROP:1", ann), ("DROP:3", bob)]:
            other = bob if mover is ann else ann
            state = state.play(wire.parse_request(move).move)  # type: ignore[union-attr]
            assert await play(mover, [other, viewer], move, "BOARDSTATUS") == wire.board_status(
                state
            )
        end = await play(ann, [bob, viewer], "DROP:1", "GAMEEND")
        assert end == wire.game_end(state.play(Move.drop(0)), 0, "ann")  # four in column 1
        await viewer.send("CHAT:still here?")  # the room is gone, its people are there (§5.6)
        assert await viewer.line() == await ann.line() == await bob.line() == "CHAT:vic:still here?"
        assert await ann.ask("ROOMLIST:VIEWER") == "ROOMLIST:ACKSTATUS:0:"


async def test_forfeit_disconnect_and_draw(tmp_path: Path) -> None:
    async with lobby_server(tmp_path, reconnect_grace=0) as server:
        ann = await logged_in(server.port, "ann")
        bob = await logged_in(server.port, "bob")
        assert await ann.ask("QUICKPLAY:4:4:classic") == "QUICKPLAY:ACKSTATUS:0:quick-1"
        assert await bob.ask("QUICKPLAY:4:4:classic") == "QUICKPLAY:ACKSTATUS:0:quick-1"
        await ann.line(), await bob.line()
        assert await ann.ask("FORFEIT:now") == "INVALID:FORFEIT takes no arguments"
        end = await play(ann, [bob], "FORFEIT", "GAMEEND")
        assert end == f"GAMEEND:{'0' * 16}:2:bob"
        # A player who hangs up forfeits too, when there is no grace to come back.
        assert await ann.ask("CREATE:r2") == "CREATE:ACKSTATUS:0"
        assert await bob.ask("JOIN:r2:PLAYER") == "JOIN:ACKSTATUS:0"
        await ann.line(), await bob.line()
        await bob.close()
        assert await ann.line() == f"GAMEEND:{'0' * 42}:2:ann"
        # A draw: a full 4 x 4 board without four in a row.
        cid = await logged_in(server.port, "cid")
        assert await ann.ask("CREATE:r3:4:4:classic") == "CREATE:ACKSTATUS:0"
        assert await cid.ask("JOIN:r3:PLAYER") == "JOIN:ACKSTATUS:0"
        await ann.line(), await cid.line()
        columns = "1113233214423442"
        for index, column in enumerate(columns):
            mover, other = (ann, cid) if index % 2 == 0 else (cid, ann)
            expect = "GAMEEND" if index == len(columns) - 1 else "BOARDSTATUS"
            last = await play(mover, [other], f"DROP:{column}", expect)
        assert last.endswith(":1")


async def test_quickplay_pairs_the_same_settings_only(tmp_path: Path) -> None:
    async with lobby_server(tmp_path) as server:
        ann, bob, cid = [await logged_in(server.port, name) for name in ("ann", "bob", "cid")]
        assert await ann.ask("QUICKPLAY:red") == "QUICKPLAY:ACKSTATUS:0:quick-1"  # 7 x 6 Pop Out
        assert await bob.ask("QUICKPLAY:7:6:classic") == "QUICKPLAY:ACKSTATUS:0:quick-2"
        assert await ann.quiet(0.2) and await bob.quiet(0.2)
        assert await cid.ask("QUICKPLAY:7:6:popout") == "QUICKPLAY:ACKSTATUS:0:quick-1"
        assert await cid.line() == "BEGIN:ann:cid:7:6:popout"
        assert await ann.line() == "BEGIN:ann:cid:7:6:popout"
        assert (
            await bob.ask("ROOMINFO:quick-2")
            == "ROOMINFO:ACKSTATUS:0:7:6:classic:bob::0:waiting:casual:-"
        )


async def test_chat_reaches_its_room_only(tmp_path: Path) -> None:
    async with lobby_server(tmp_path) as server:
        ann, bob, vic, eve = [
            await logged_in(server.port, name) for name in ("ann", "bob", "vic", "eve")
        ]
        assert await ann.ask("CREATE:r1") == "CREATE:ACKSTATUS:0"
        assert await vic.ask("JOIN:r1:VIEWER") == "JOIN:ACKSTATUS:0"  # viewing a waiting room
        assert await bob.ask("JOIN:r1:PLAYER") == "JOIN:ACKSTATUS:0"
        for client in (ann, bob, vic):
            assert (await client.line()).startswith("BEGIN:ann:bob")
        assert await eve.ask("CREATE:r2") == "CREATE:ACKSTATUS:0"
        await vic.send("CHAT:good luck: both of you")
        for client in (ann, bob, vic):
            assert await client.line() == "CHAT:vic:good luck: both of you"
        assert await eve.quiet(0.2)
        assert await ann.ask("CHAT:") == "INVALID:a chat line is 1-200 printable characters"
        assert (await ann.ask("CHAT:" + "x" * 201)).startswith("INVALID:")


async def test_the_same_user_logging_in_again_replaces_the_older_connection(
    tmp_path: Path,
) -> None:
    async with lobby_server(tmp_path) as server:
        ann, bob = await playing(server.port)
        again = await LobbyClient.connect(server.port)
        assert await again.ask("LOGIN:ann:pw") == "LOGIN:ACKSTATUS:0"
        assert await ann.line() == "BYE:elsewhere"
        assert await ann.closed()  # the older connection is gone…
        assert await again.line() == "REJOIN:r1"  # …and its game goes on here
        assert await again.line() == "INPROGRESS:ann:bob:7:6:popout"
        assert await again.line() == f"BOARDSTATUS:{'0' * 42}"
        assert await bob.quiet(0.3)  # no AWAY, no forfeit
        await again.send("DROP:1")
        assert await bob.line() == f"BOARDSTATUS:{'0' * 35}1000000"


@pytest.mark.parametrize(
    "line",
    [
        b"HELLO\n",
        b"x" * 9000 + b"\n",
        b"CHAT:\xff\xfe\n",  # not UTF-8
        b"CHAT:caf\xe9\n",  # Latin-1, not UTF-8
        b"CHAT:\xed\xa0\x80\n",  # a surrogate: not UTF-8 either
        b"CHAT:" + "é".encode() * 4100 + b"\n",  # 200 characters or not, 8,200 bytes
        b"drop:1\n",
        b"BEGIN:a:b:7:6:popout\n",
    ],
)
async def test_violations_close_without_a_reply_while_other_rooms_play(
    tmp_path: Path, line: bytes
) -> None:
    async with lobby_server(tmp_path) as server:
        ann, bob = await playing(server.port, ":5:4:popout")
        rude = await logged_in(server.port, "rude")
        await rude.send(line)
        assert await rude.closed()
        assert await play(ann, [bob], "DROP:3", "BOARDSTATUS")
        assert await bob.ask("POP:3") == "INVALID:the bottom disc of column 3 is not yours"


async def test_failed_logins_slow_down_that_user_and_connection_only(tmp_path: Path) -> None:
    async with lobby_server(tmp_path) as server:
        await (await logged_in(server.port, "ann", "right")).close()
        await (await logged_in(server.port, "bob", "pw")).close()
        guesser = await LobbyClient.connect(server.port)
        loop = asyncio.get_running_loop()
        times = []
        for _ in range(4):
            began = loop.time()
            assert await guesser.ask("LOGIN:ann:wrong") == "LOGIN:ACKSTATUS:2"
            times.append(loop.time() - began)
        assert times[2] >= 0.95 and times[3] >= 1.95  # 1 s, then 2 s
        # Meanwhile another user logs in at once.
        other = await LobbyClient.connect(server.port)
        began = loop.time()
        assert await other.ask("LOGIN:bob:pw") == "LOGIN:ACKSTATUS:0"
        assert loop.time() - began < 0.9
        # The right password still works, and resets ann's count.
        fresh = await LobbyClient.connect(server.port)
        assert await fresh.ask("LOGIN:ann:right") == "LOGIN:ACKSTATUS:0"


async def test_while_a_user_is_slowed_a_right_password_waits_its_turn_too(
    tmp_path: Path,
) -> None:
    """A right password answered at once among slowed wrong guesses would give it away.

    (Found trying it: 8 guesses at once, one right, the right one back in 0.94 s, the
    wrong ones after 5 s or more.) Only the order is asserted: a loaded machine.
    """
    async with lobby_server(tmp_path) as server:
        await (await logged_in(server.port, "ann", "right")).close()
        guessers = [await LobbyClient.connect(server.port) for _ in range(4)]
        for guesser in guessers[:2]:  # two free failures: ann is not slowed yet
            assert await guesser.ask("LOGIN:ann:wrong") == "LOGIN:ACKSTATUS:2"
        loop = asyncio.get_running_loop()
        answered: dict[str, float] = {}

        async def guess(client: LobbyClient, password: str) -> None:
            await client.ask(f"LOGIN:ann:{password}")
            answered[password] = loop.time()

        wrong = asyncio.create_task(guess(guessers[2], "wrong"))  # the third: 1 s
        await asyncio.sleep(0.5)  # its check is done (bcrypt at 4 rounds), its answer waits
        await guess(guessers[3], "right")
        await wrong
        assert answered["right"] >= answered["wrong"]  # not before the wrong one's turn
        for guesser in guessers:
            await guesser.close()


async def test_a_viewer_that_stops_reading_is_dropped_and_the_game_goes_on(
    tmp_path: Path,
) -> None:
    async with lobby_server(tmp_path) as server:
        ann, bob = await playing(server.port)
        # A viewer with a tiny receive window that never reads again.
        sock = socket.socket()
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 2048)
        sock.connect(("127.0.0.1", server.port))
        reader, writer = await asyncio.open_connection(sock=sock)
        sleepy = LobbyClient(reader, writer)
        assert await sleepy.ask("REGISTER:zzz:pw") == "REGISTER:ACKSTATUS:0"
        assert await sleepy.ask("LOGIN:zzz:pw") == "LOGIN:ACKSTATUS:0"
        assert await sleepy.ask("JOIN:r1:VIEWER") == "JOIN:ACKSTATUS:0"
        await sleepy.line(), await sleepy.line()  # INPROGRESS, BOARDSTATUS
        text = "x" * 200
        began = asyncio.get_running_loop().time()
        for _ in range(40):  # 40 x 500 chat lines of 200 characters: megabytes
            await ann.send("\n".join([f"CHAT:{text}"] * 500))
            for client in (ann, bob):
                for _ in range(500):
                    assert await client.line() == f"CHAT:ann:{text}"
        assert asyncio.get_running_loop().time() - began < 30  # nobody waited for zzz
        assert await play(ann, [bob], "DROP:4", "BOARDSTATUS")  # the game goes on
        assert (
            await bob.ask("ROOMINFO:r1")
            == "ROOMINFO:ACKSTATUS:0:7:6:popout:ann:bob:0:playing:casual:-"
        )


async def test_at_most_256_rooms(tmp_path: Path) -> None:
    async with lobby_server(tmp_path, max_connections=300, max_per_address=300) as server:
        creators = [await logged_in(server.port, f"u{n}") for n in range(256)]
        for n, creator in enumerate(creators):
            assert await creator.ask(f"CREATE:room {n}") == "CREATE:ACKSTATUS:0"
        late = await logged_in(server.port, "late")
        assert await late.ask("CREATE:one more") == "CREATE:ACKSTATUS:3"
        assert await late.ask("QUICKPLAY:4:4:classic") == "QUICKPLAY:ACKSTATUS:1"
        listed = (await late.ask("ROOMLIST:VIEWER")).split(":", 3)[3].split(",")
        assert len(listed) == 256
        await creators[0].close()  # a waiting creator leaves: its room goes
        await asyncio.sleep(0.2)
        assert await late.ask("CREATE:one more") == "CREATE:ACKSTATUS:0"
