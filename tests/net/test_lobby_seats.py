"""Spec §5.6's seats and talk over a real server: colours, quick play's pairing, and
(further down) chat in any printable Unicode, chat after GAMEEND, viewers following a
rematch. Golden exchanges: every line each client gets, in order."""

from __future__ import annotations

from pathlib import Path

from tests.net.lobby_client import LobbyClient, lobby_server, logged_in
from tests.net.test_lobby_server import play


async def test_a_creator_who_chose_yellow_waits_there_and_the_joiner_is_red(
    tmp_path: Path,
) -> None:
    async with lobby_server(tmp_path) as server:
        alice, bob = await logged_in(server.port, "alice"), await logged_in(server.port, "bob")
        assert await alice.ask("CREATE:dusk:7:6:classic:yellow") == "CREATE:ACKSTATUS:0"
        assert await bob.ask("ROOMINFO:dusk") == (
            "ROOMINFO:ACKSTATUS:0:7:6:classic::alice:0:waiting:casual:-"
        )
        assert await bob.ask("ROOMLIST:PLAYER") == "ROOMLIST:ACKSTATUS:0:dusk"
        assert await bob.ask("JOIN:dusk:PLAYER") == "JOIN:ACKSTATUS:0"
        assert await bob.line() == await alice.line() == "BEGIN:bob:alice:7:6:classic"
        assert await alice.ask("DROP:4") == "INVALID:not your turn"
        await play(bob, [alice], "DROP:4", "BOARDSTATUS:" + "0" * 38 + "1000")


async def test_colours_asked_for_in_quick_play_and_challenges(tmp_path: Path) -> None:
    async with lobby_server(tmp_path) as server:
        ann, bob = await logged_in(server.port, "ann"), await logged_in(server.port, "bob")
        assert await ann.ask("QUICKPLAY:4:4:classic:yellow") == "QUICKPLAY:ACKSTATUS:0:quick-1"
        assert await bob.ask("QUICKPLAY:4:4:classic:yellow") == "QUICKPLAY:ACKSTATUS:0:quick-2"
        cid = await logged_in(server.port, "cid")
        assert await cid.ask("QUICKPLAY:4:4:classic") == "QUICKPLAY:ACKSTATUS:0:quick-1"
        assert await cid.line() == await ann.line() == "BEGIN:cid:ann:4:4:classic"
        await play(cid, [ann], "FORFEIT", "GAMEEND")
        dee = await logged_in(server.port, "dee")
        assert await dee.ask("CHALLENGE:ann:4:4:classic:casual:yellow") == "CHALLENGE:ACKSTATUS:0"
        assert await ann.line() == "CHALLENGED:dee:4:4:classic:casual:-"
        assert await ann.ask("ACCEPT:dee") == "ACCEPT:ACKSTATUS:0"
        assert await ann.line() == await dee.line() == "BEGIN:ann:dee:4:4:classic"
        assert await dee.ask("CHALLENGE:bob:4:4:classic:yellow") == "CHALLENGE:ACKSTATUS:3"


async def test_quick_play_seats_a_waiting_person_before_a_bot(tmp_path: Path) -> None:
    async with lobby_server(tmp_path) as server:
        robo = await LobbyClient.connect(server.port)
        assert await robo.ask("REGISTERBOT:robo:pw") == "REGISTERBOT:ACKSTATUS:0"
        assert await robo.ask("LOGIN:robo:pw") == "LOGIN:ACKSTATUS:0"
        assert await robo.ask("QUICKPLAY:4:4:classic") == "QUICKPLAY:ACKSTATUS:0:quick-1"
        ann, bob = await logged_in(server.port, "ann"), await logged_in(server.port, "bob")
        assert await ann.ask("CREATE:anns:4:4:classic") == "CREATE:ACKSTATUS:0"
        assert await bob.ask("QUICKPLAY:4:4:classic") == "QUICKPLAY:ACKSTATUS:0:anns"
        assert await bob.line() == await ann.line() == "BEGIN:ann:bob:4:4:classic"
        assert await robo.quiet()  # still waiting


async def test_chat_in_any_printable_unicode_and_every_other_field_in_ascii(
    tmp_path: Path,
) -> None:
    async with lobby_server(tmp_path) as server:
        zoe = await LobbyClient.connect(server.port)
        assert await zoe.ask("REGISTER:zoë:pw") == "REGISTER:ACKSTATUS:2"
        assert await zoe.ask("LOGIN:zoë:pw") == "LOGIN:ACKSTATUS:3"
        ann, bob = await logged_in(server.port, "ann"), await logged_in(server.port, "bob")
        assert await ann.ask("CREATE:café") == "CREATE:ACKSTATUS:1"
        assert await ann.ask("PROFILE:zoë") == "PROFILE:ACKSTATUS:1"
        assert await ann.ask("CREATE:r1:4:4:classic") == "CREATE:ACKSTATUS:0"
        assert await bob.ask("JOIN:r1:PLAYER") == "JOIN:ACKSTATUS:0"
        assert await ann.line() == await bob.line() == "BEGIN:ann:bob:4:4:classic"
        for text in ["héllo", "gg 🙂", "漢字", "é" * 200]:
            await ann.send(f"CHAT:{text}")
            assert await ann.line() == await bob.line() == f"CHAT:ann:{text}"
        await ann.send("CHAT:" + "é" * 200)  # 400 bytes: characters count, not bytes
        raw = await bob.reader.readline()
        assert raw == ("CHAT:ann:" + "é" * 200 + "\n").encode()  # UTF-8 on the wire
        await ann.line()
        for hostile in ["\x1b[2J", "a\u202eb", "é" * 201, "bell\x07"]:
            assert (await ann.ask(f"CHAT:{hostile}")).startswith("INVALID:")
        assert await ann.ask("DROP:٣") == r"INVALID:'\u0663' is not a column number"
        assert await bob.quiet()


async def a_watched_game_forfeited(
    port: int, red: str, yellow: str, viewer: str
) -> tuple[LobbyClient, LobbyClient, LobbyClient]:
    """``red`` created room r (4 x 4 classic), ``viewer`` watched, ``yellow`` joined and
    then forfeited: each has heard BEGIN and GAMEEND."""
    clients = [await logged_in(port, user) for user in (red, yellow, viewer)]
    first, second, watcher = clients
    assert await first.ask("CREATE:r:4:4:classic") == "CREATE:ACKSTATUS:0"
    assert await watcher.ask("JOIN:r:VIEWER") == "JOIN:ACKSTATUS:0"
    assert await second.ask("JOIN:r:PLAYER") == "JOIN:ACKSTATUS:0"
    begin = f"BEGIN:{red}:{yellow}:4:4:classic"
    assert await first.line() == await second.line() == await watcher.line() == begin
    await play(second, [first, watcher], "FORFEIT", f"GAMEEND:{'0' * 16}:2:{red}")
    return first, second, watcher


async def test_chat_after_the_end_and_the_viewers_follow_the_rematch(tmp_path: Path) -> None:
    async with lobby_server(tmp_path) as server:
        ann, bob, vic = await a_watched_game_forfeited(server.port, "ann", "bob", "vic")
        cid = await logged_in(server.port, "cid")
        await bob.send("CHAT:gg")  # the room is gone, but its people are still there
        assert await bob.line() == await ann.line() == await vic.line() == "CHAT:bob:gg"
        assert await cid.ask("CHAT:hello?") == "NOROOM"  # never there
        assert await bob.ask("REMATCH") == "REMATCH:ACKSTATUS:0"
        assert await ann.line() == "CHALLENGED:bob:4:4:classic:casual:-"
        assert await ann.ask("ACCEPT:bob") == "ACCEPT:ACKSTATUS:0"
        again = "BEGIN:bob:ann:4:4:classic"  # the colours swapped; vic came along
        assert await ann.line() == await bob.line() == await vic.line() == again
        assert (await cid.ask("ROOMINFO:challenge-1")).endswith(":bob:ann:1:playing:casual:-")
        await vic.send("CHAT:again!")
        assert await vic.line() == await ann.line() == await bob.line() == "CHAT:vic:again!"
        assert await cid.quiet()


async def test_entering_another_room_ends_the_chat_after_the_end(tmp_path: Path) -> None:
    async with lobby_server(tmp_path) as server:
        ann, bob, vic = await a_watched_game_forfeited(server.port, "ann", "bob", "vic")
        assert await vic.ask("CREATE:mine") == "CREATE:ACKSTATUS:0"
        assert await vic.ask("CHAT:my room") == "CHAT:vic:my room"
        assert await vic.ask("QUICKPLAY") == "QUICKPLAY:ACKSTATUS:1"  # already in a room
        await vic.close()  # its room closes with it
        await ann.send("CHAT:gg")
        assert await ann.line() == await bob.line() == "CHAT:ann:gg"
        assert await bob.ask("REMATCH") == "REMATCH:ACKSTATUS:0"
        assert await ann.line() == "CHALLENGED:bob:4:4:classic:casual:-"
        assert await ann.ask("ACCEPT:bob") == "ACCEPT:ACKSTATUS:0"
        assert await ann.line() == await bob.line() == "BEGIN:bob:ann:4:4:classic"
        assert (await ann.ask("ROOMINFO:challenge-1")).endswith(":bob:ann:0:playing:casual:-")


async def test_the_protocol_pages_chat_after_the_end(tmp_path: Path) -> None:
    """PROTOCOL.md's exchange under "Playing", line by line."""
    async with lobby_server(tmp_path) as server:
        alice, bob, carol = await a_watched_game_forfeited(server.port, "alice", "bob", "carol")
        dave = await logged_in(server.port, "dave")
        await bob.send("CHAT:gg")
        assert await bob.line() == await alice.line() == await carol.line() == "CHAT:bob:gg"
        assert await alice.ask("CREATE:again") == "CREATE:ACKSTATUS:0"
        await bob.send("CHAT:wp")
        assert await bob.line() == await carol.line() == "CHAT:bob:wp"
        assert await dave.ask("CHAT:hello") == "NOROOM"
        assert await alice.quiet()
