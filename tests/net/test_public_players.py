"""§7 for players over real sockets: golden exchanges for BLOCK, UNBLOCK, BLOCKS and REPORT,
and each thing a block does in the lobby (on SQLite and PostgreSQL where the store counts).

Each exchange is the lines that pass, in order (``ann> …`` sent by ann, ``bob< …`` the
next line bob reads; ``exchange`` of ``test_lobby_table_talk``). While A blocks B:
B's chat never reaches A; a challenge either way is :1; quick play never pairs them;
ROOMLIST:PLAYER hides a waiting room of either from the other and JOIN:<room>:PLAYER of
it is :1; each may still watch the other's games. Blocks hold across a restart.
"""

from __future__ import annotations

from pathlib import Path

from c4tui.protocols.public import MAX_BLOCKS, REPORTS_PER_HOUR
from tests.net.lobby_client import LobbyClient, lobby_server, logged_in
from tests.net.stores import store_at
from tests.net.test_lobby_table_talk import exchange

EMPTY = "0" * 16
CASUAL = "4:4:classic:casual"


async def everyone(port: int, *names: str) -> dict[str, LobbyClient]:
    """Fresh accounts ``names``, each logged in on a connection of its own."""
    return {name: await logged_in(port, name) for name in names}


def sitting_down(creator: str, joiner: str, room: str = "r1") -> str:
    """``creator`` makes ``room`` (4 x 4 classic) and ``joiner`` sits down: BEGIN to both."""
    begin = f"BEGIN:{creator}:{joiner}:4:4:classic"
    return f"""
        {creator}> CREATE:{room}:4:4:classic
        {creator}< CREATE:ACKSTATUS:0
        {joiner}> JOIN:{room}:PLAYER
        {joiner}< JOIN:ACKSTATUS:0
        {creator}< {begin}
        {joiner}< {begin}
        """


# ----- BLOCK, UNBLOCK, BLOCKS: every status --------------------------------------------


async def test_every_status_of_block_unblock_and_blocks(tmp_path: Path, lobby_db: str) -> None:
    async with lobby_server(tmp_path, lobby_db) as server:
        clients = await everyone(server.port, "ann", "bob", "cid")
        clients["new"] = await LobbyClient.connect(server.port)
        await exchange(
            clients,
            """
            new> REGISTER:dee:pw
            new< REGISTER:ACKSTATUS:0
            new> BLOCK:bob
            new< BADAUTH
            new> BLOCKS
            new< BADAUTH
            new> REPORT:bob:chat:rude
            new< BADAUTH
            ann> BLOCKS
            ann< BLOCKS:ACKSTATUS:0:
            ann> BLOCK:cid
            ann< BLOCK:ACKSTATUS:0
            ann> BLOCK:bob
            ann< BLOCK:ACKSTATUS:0
            ann> BLOCK:bob
            ann< BLOCK:ACKSTATUS:0
            ann> BLOCKS
            ann< BLOCKS:ACKSTATUS:0:bob,cid
            ann> BLOCK:ann
            ann< BLOCK:ACKSTATUS:1
            ann> BLOCK:nobody
            ann< BLOCK:ACKSTATUS:1
            ann> BLOCK:no one
            ann< BLOCK:ACKSTATUS:1
            ann> BLOCK:
            ann< BLOCK:ACKSTATUS:1
            ann> BLOCKS:bob
            ann< BLOCKS:ACKSTATUS:1
            ann> UNBLOCK:cid
            ann< UNBLOCK:ACKSTATUS:0
            ann> UNBLOCK:cid
            ann< UNBLOCK:ACKSTATUS:1
            ann> UNBLOCK:dee
            ann< UNBLOCK:ACKSTATUS:1
            ann> UNBLOCK:nobody
            ann< UNBLOCK:ACKSTATUS:1
            ann> UNBLOCK:a:b
            ann< UNBLOCK:ACKSTATUS:1
            ann> BLOCKS
            ann< BLOCKS:ACKSTATUS:0:bob
            bob> BLOCKS
            bob< BLOCKS:ACKSTATUS:0:
            """,
        )


async def test_the_201st_block_is_refused(tmp_path: Path, lobby_db: str) -> None:
    """A hostile client blocks everyone it can: 200 at most; one freed, one more."""
    store = store_at(lobby_db)
    await store.open()
    try:
        for n in range(MAX_BLOCKS + 1):
            assert await store.register(f"u{n}", "pw")
    finally:
        await store.close()
    async with lobby_server(tmp_path, lobby_db) as server:
        ann = await logged_in(server.port, "ann")
        await ann.send("\n".join(f"BLOCK:u{n}" for n in range(MAX_BLOCKS + 1)))  # one write
        answers = [await ann.line() for _ in range(MAX_BLOCKS + 1)]
        assert answers == ["BLOCK:ACKSTATUS:0"] * MAX_BLOCKS + ["BLOCK:ACKSTATUS:2"]
        listed = (await ann.ask("BLOCKS")).split(":")[3].split(",")
        assert sorted(listed) == sorted(f"u{n}" for n in range(MAX_BLOCKS))
        assert await ann.ask("BLOCK:u0") == "BLOCK:ACKSTATUS:0"  # one already there: no more
        assert await ann.ask("UNBLOCK:u7") == "UNBLOCK:ACKSTATUS:0"
        assert await ann.ask(f"BLOCK:u{MAX_BLOCKS}") == "BLOCK:ACKSTATUS:0"
        assert await ann.ask("BLOCK:u7") == "BLOCK:ACKSTATUS:2"
        assert server.lobby.rooms.blocks.count("ann") == MAX_BLOCKS  # the rooms hold them all


# ----- what a block does ---------------------------------------------------------------


async def test_the_blocked_ones_chat_never_reaches_the_blocker(tmp_path: Path) -> None:
    async with lobby_server(tmp_path) as server:
        clients = await everyone(server.port, "ann", "bob", "vic")
        await exchange(
            clients,
            f"""
            {sitting_down("ann", "bob")}
            vic> JOIN:r1:VIEWER
            vic< JOIN:ACKSTATUS:0
            vic< INPROGRESS:ann:bob:4:4:classic
            vic< BOARDSTATUS:{EMPTY}
            ann> BLOCK:bob
            ann< BLOCK:ACKSTATUS:0
            bob> CHAT:can you hear me?
            bob< CHAT:bob:can you hear me?
            vic< CHAT:bob:can you hear me?
            ann> CHAT:only you two hear bob
            ann< CHAT:ann:only you two hear bob
            bob< CHAT:ann:only you two hear bob
            vic< CHAT:ann:only you two hear bob
            ann> FORFEIT
            ann< GAMEEND:{EMPTY}:2:bob
            bob< GAMEEND:{EMPTY}:2:bob
            vic< GAMEEND:{EMPTY}:2:bob
            bob> CHAT:gg
            bob< CHAT:bob:gg
            vic< CHAT:bob:gg
            ann> UNBLOCK:bob
            ann< UNBLOCK:ACKSTATUS:0
            bob> CHAT:and now?
            ann< CHAT:bob:and now?
            bob< CHAT:bob:and now?
            vic< CHAT:bob:and now?
            """,
        )  # in the room, then in its last minute; the blocker hears again once it unblocks
        assert await clients["ann"].quiet(0.2)


async def test_a_challenge_either_way_is_as_for_a_user_not_there(tmp_path: Path) -> None:
    async with lobby_server(tmp_path) as server:
        clients = await everyone(server.port, "ann", "bob")
        await exchange(
            clients,
            f"""
            bob> CHALLENGE:ann:{CASUAL}
            bob< CHALLENGE:ACKSTATUS:0
            ann< CHALLENGED:bob:{CASUAL}:-
            ann> BLOCK:bob
            ann< BLOCK:ACKSTATUS:0
            bob< DECLINED:ann
            ann> ACCEPT:bob
            ann< ACCEPT:ACKSTATUS:1
            bob> CHALLENGE:ann:{CASUAL}
            bob< CHALLENGE:ACKSTATUS:1
            ann> CHALLENGE:bob:{CASUAL}
            ann< CHALLENGE:ACKSTATUS:1
            bob> CHALLENGE:nobody:{CASUAL}
            bob< CHALLENGE:ACKSTATUS:1
            ann> UNBLOCK:bob
            ann< UNBLOCK:ACKSTATUS:0
            bob> CHALLENGE:ann:{CASUAL}
            bob< CHALLENGE:ACKSTATUS:0
            ann< CHALLENGED:bob:{CASUAL}:-
            """,
        )  # a block ends bobs room challenge as if ann had gone; the blocked looks like nobody


async def test_no_rematch_across_a_block(tmp_path: Path) -> None:
    async with lobby_server(tmp_path) as server:
        clients = await everyone(server.port, "ann", "bob")
        await exchange(
            clients,
            f"""
            {sitting_down("ann", "bob")}
            bob> FORFEIT
            ann< GAMEEND:{EMPTY}:2:ann
            bob< GAMEEND:{EMPTY}:2:ann
            bob> BLOCK:ann
            bob< BLOCK:ACKSTATUS:0
            ann> REMATCH
            ann< REMATCH:ACKSTATUS:1
            bob> REMATCH
            bob< REMATCH:ACKSTATUS:1
            """,
        )


async def test_quick_play_never_pairs_them(tmp_path: Path) -> None:
    async with lobby_server(tmp_path) as server:
        clients = await everyone(server.port, "ann", "bob", "cid")
        await clients["bob"].ask("BLOCK:ann")
        await exchange(
            clients,
            """
            ann> QUICKPLAY:4:4:classic
            ann< QUICKPLAY:ACKSTATUS:0:quick-1
            bob> QUICKPLAY:4:4:classic
            bob< QUICKPLAY:ACKSTATUS:0:quick-2
            cid> QUICKPLAY:4:4:classic
            cid< QUICKPLAY:ACKSTATUS:0:quick-1
            """,
        )  # bob waits alone; cid, who blocks nobody, takes the oldest room: anns room
        begun = [await clients[name].line() for name in ("ann", "cid")]
        assert begun[0] == begun[1] and set(begun[0].split(":")[1:3]) == {"ann", "cid"}


async def test_a_waiting_room_is_hidden_and_closed_to_play_but_open_to_watch(
    tmp_path: Path, lobby_db: str
) -> None:
    async with lobby_server(tmp_path, lobby_db) as server:
        clients = await everyone(server.port, "ann", "bob", "cid")
        await exchange(
            clients,
            f"""
            ann> BLOCK:bob
            ann< BLOCK:ACKSTATUS:0
            ann> CREATE:anns room:4:4:classic
            ann< CREATE:ACKSTATUS:0
            bob> ROOMLIST:PLAYER
            bob< ROOMLIST:ACKSTATUS:0:
            cid> ROOMLIST:PLAYER
            cid< ROOMLIST:ACKSTATUS:0:anns room
            bob> ROOMLIST:VIEWER
            bob< ROOMLIST:ACKSTATUS:0:anns room
            bob> JOIN:anns room:PLAYER
            bob< JOIN:ACKSTATUS:1
            bob> JOIN:anns room:VIEWER
            bob< JOIN:ACKSTATUS:0
            cid> JOIN:anns room:PLAYER
            cid< JOIN:ACKSTATUS:0
            ann< BEGIN:ann:cid:4:4:classic
            cid< BEGIN:ann:cid:4:4:classic
            bob< BEGIN:ann:cid:4:4:classic
            ann> DROP:1
            ann< BOARDSTATUS:{"0" * 12}1000
            cid< BOARDSTATUS:{"0" * 12}1000
            bob< BOARDSTATUS:{"0" * 12}1000
            """,
        )  # bob watches anns room game from its start, as any viewer


async def test_the_blocker_cannot_sit_down_with_the_blocked_either(tmp_path: Path) -> None:
    """Chosen where §7 is silent: the seating rules hold both ways round."""
    async with lobby_server(tmp_path) as server:
        clients = await everyone(server.port, "ann", "bob")
        await exchange(
            clients,
            """
            bob> CREATE:bobs room:4:4:classic
            bob< CREATE:ACKSTATUS:0
            ann> BLOCK:bob
            ann< BLOCK:ACKSTATUS:0
            ann> ROOMLIST:PLAYER
            ann< ROOMLIST:ACKSTATUS:0:
            ann> JOIN:bobs room:PLAYER
            ann< JOIN:ACKSTATUS:1
            ann> JOIN:bobs room:VIEWER
            ann< JOIN:ACKSTATUS:0
            """,
        )


# ----- blocks are kept ------------------------------------------------------------------


async def test_blocks_hold_across_a_restart(tmp_path: Path, lobby_db: str) -> None:
    async with lobby_server(tmp_path, lobby_db) as server:
        clients = await everyone(server.port, "ann", "bob", "cid")
        assert await clients["ann"].ask("BLOCK:bob") == "BLOCK:ACKSTATUS:0"
        assert await clients["cid"].ask("BLOCK:ann") == "BLOCK:ACKSTATUS:0"
        assert await clients["cid"].ask("UNBLOCK:ann") == "UNBLOCK:ACKSTATUS:0"
    async with lobby_server(tmp_path, lobby_db) as server:  # the same database
        clients = {}
        for name in ("ann", "bob", "cid"):
            clients[name] = await LobbyClient.connect(server.port)
            assert await clients[name].ask(f"LOGIN:{name}:pw") == "LOGIN:ACKSTATUS:0"
        await exchange(
            clients,
            f"""
            ann> BLOCKS
            ann< BLOCKS:ACKSTATUS:0:bob
            cid> BLOCKS
            cid< BLOCKS:ACKSTATUS:0:
            bob> CHALLENGE:ann:{CASUAL}
            bob< CHALLENGE:ACKSTATUS:1
            cid> CHALLENGE:ann:{CASUAL}
            cid< CHALLENGE:ACKSTATUS:0
            ann< CHALLENGED:cid:{CASUAL}:-
            ann> CREATE:r1
            ann< CREATE:ACKSTATUS:0
            bob> JOIN:r1:PLAYER
            bob< JOIN:ACKSTATUS:1
            """,
        )  # the rooms loaded them from the store: the challenge and the seat refused


# ----- REPORT ----------------------------------------------------------------------------


async def test_every_status_of_report_and_what_is_kept(tmp_path: Path, lobby_db: str) -> None:
    async with lobby_server(tmp_path, lobby_db) as server:
        clients = await everyone(server.port, "ann", "bob", "cid")
        await exchange(
            clients,
            f"""
            {sitting_down("ann", "bob")}
            bob> FORFEIT
            ann< GAMEEND:{EMPTY}:2:ann
            bob< GAMEEND:{EMPTY}:2:ann
            ann> REPORT:bob:chat:said rude things: twice
            ann< REPORT:ACKSTATUS:0
            ann> REPORT:cid:name:
            ann< REPORT:ACKSTATUS:0
            ann> REPORT:nobody:chat:x
            ann< REPORT:ACKSTATUS:1
            ann> REPORT:ann:other:myself
            ann< REPORT:ACKSTATUS:1
            ann> REPORT:no one:chat:x
            ann< REPORT:ACKSTATUS:1
            ann> REPORT:bob:spam:x
            ann< REPORT:ACKSTATUS:2
            ann> REPORT:bob:chat
            ann< REPORT:ACKSTATUS:2
            ann> REPORT:bob
            ann< REPORT:ACKSTATUS:2
            ann> REPORT:bob:chat:{"x" * 201}
            ann< REPORT:ACKSTATUS:2
            ann> REPORT:bob:Chat:x
            ann< REPORT:ACKSTATUS:2
            """,
        )
        game = (await clients["ann"].ask("HISTORY")).split(":")[3]
        for n in range(REPORTS_PER_HOUR - 2):
            assert await clients["ann"].ask(f"REPORT:cid:other:{n}") == "REPORT:ACKSTATUS:0"
        assert await clients["ann"].ask("REPORT:cid:other:one more") == "REPORT:ACKSTATUS:3"
        assert await clients["bob"].ask("REPORT:ann:cheating:") == "REPORT:ACKSTATUS:0"  # its own
    store = store_at(lobby_db)
    await store.open()
    try:
        reports = await store.open_reports(50)
    finally:
        await store.close()
    first, second = reports[0], reports[1]
    assert (first.reporter, first.reported, first.reason.value) == ("ann", "bob", "chat")
    assert (first.text, first.game) == ("said rude things: twice", int(game))
    assert (second.reported, second.text, second.game) == ("cid", "", None)  # never played
    assert len(reports) == REPORTS_PER_HOUR + 1
