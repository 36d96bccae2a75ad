"""``c4tui tictactoe --connect``: the console client as a real process against a real server."""

from __future__ import annotations

import asyncio
from pathlib import Path

from c4tui.console.game import SERVER_LOST
from c4tui.server.core import C4Server
from tests.net.test_lobby_console import TIMEOUT, ConsoleProcess
from tests.net.tictactoe_client import signed_in, tictactoe_server


async def client(server: C4Server) -> ConsoleProcess:
    return await ConsoleProcess.start(
        "--connect", f"127.0.0.1:{server.tictactoe_port}", command="tictactoe"
    )


async def log_in(console: ConsoleProcess, user: str) -> None:
    await console.type(f"register {user}")
    await console.type("pw")
    await console.until(f"Successfully created user account {user}")
    await console.type(f"LOGIN {user}")  # the handout's command words work too
    await console.type("pw")
    await console.until(f"Welcome {user}")


async def test_two_console_players_and_a_viewer_play_to_a_win(tmp_path: Path) -> None:
    async with tictactoe_server(tmp_path) as server:
        alice, bob, vic = [await client(server) for _ in range(3)]
        for console, name in [(alice, "alice"), (bob, "bob"), (vic, "vic")]:
            await log_in(console, name)
        await alice.type("roomlist player")
        await alice.until("No rooms to join as a player yet.")
        await alice.type("create Room 1")
        await alice.until("Successfully created room Room 1")
        await alice.until("Waiting for other player...")
        await bob.type("roomlist")
        await bob.type("PLAYER")
        await bob.until("Room available to join as PLAYER: Room 1")
        await bob.type("join Room 1 player")
        await bob.until("Successfully joined room Room 1 as a player")
        begin = "match between alice and bob will commence, it is currently alice's turn."
        await bob.until(begin)
        await alice.until(begin)
        # Each player is named, with its mark: "the current player" said neither (issue 40 #20).
        await bob.until("It is alice's turn (X)")
        # alice: 5, 3, 7 (a diagonal); bob: 1 then column 0 row 1.
        moves = [
            (alice, "alice", "5"),
            (bob, "bob", "1"),
            (alice, "alice", "2 0"),
            (bob, "bob", "0:1"),
        ]
        for mover, name, cell in moves:
            other = "bob's turn (O)" if name == "alice" else "alice's turn (X)"
            await mover.until(f"It is your turn, {name}")
            await mover.type(cell)
            await mover.until(f"It is {other}")
            if cell == "1":
                await vic.type("watch Room 1")
                await vic.until("Successfully joined room Room 1 as a viewer")
                await vic.until("Match between alice and bob is currently in progress")
                await vic.until("It is alice's turn")
        await alice.until("It is your turn, alice (X)")
        await alice.type("9")
        await alice.until("It is bob's turn (O)")
        await bob.until("It is your turn, bob (O)")
        await bob.type("5")  # taken: the client says so and sends nothing
        await bob.until("Error: cell 5 (column 1, row 1) is taken")
        await bob.type("10")
        await bob.until("Error: 10 is not a cell: cells are numbered 1 to 9")
        await bob.type("8")
        await alice.until("It is your turn, alice")
        await alice.type("7")
        await alice.until("Congratulations, you won!")
        await bob.until("Sorry you lost. Good luck next time.")
        await vic.until("alice has won this game")
        # A second game, given up.
        await alice.type("create again")
        await alice.until("Waiting for other player...")
        await bob.type("join again player")
        await bob.until("You place O.")
        await bob.type("forfeit")
        await bob.until("You forfeited: alice wins.")
        await alice.until("You won due to the opposing player forfeiting")
        for console in (alice, bob, vic):
            await console.type("quit")
            assert await asyncio.wait_for(console.process.wait(), TIMEOUT) == 0


async def test_every_answer_is_put_in_words(tmp_path: Path) -> None:
    async with tictactoe_server(tmp_path, max_rooms=1) as server:
        port = server.tictactoe_port
        assert port is not None
        ann = await client(server)
        await ann.type("roomlist player")
        await ann.until("Error: You must be logged in to perform this action")
        await ann.type("login nobody")
        await ann.type("pw")
        await ann.until("Error: User nobody not found")
        for password in ("pässwörd", "two words"):
            await ann.type("register ann")
            await ann.type(password)
            await ann.until("Error: a password is 1-128 printable ASCII characters without spaces")
        await ann.type("register ann")
        await ann.type("pw")
        await ann.until("Successfully created user account ann")
        await ann.type("register ann")
        await ann.type("x")
        await ann.until("Error: User ann already exists")
        await ann.type("login ann")
        await ann.type("wrong")
        await ann.until("Error: Wrong password for user ann")
        await ann.type("login ann")
        await ann.type("pw")
        await ann.until("Welcome ann")
        await ann.type("login ann")
        await ann.type("pw")
        await ann.until("Error: You are logged in already, as ann")
        await ann.type("roomlist everyone")
        await ann.until("Error: Please input a valid mode.")
        await ann.type("create Ann's room")
        await ann.until("Error: Room Ann's room is invalid")
        await ann.type("join nowhere player")
        await ann.until("Error: No room named nowhere")
        await ann.type("forfeit")
        await ann.until("Error: forfeit is for a game: create or join a room first")
        bob = await signed_in(port, "bob")
        await bob.ask("CREATE:full", "CREATE:ACKSTATUS:0")
        await ann.type("create other")
        await ann.until("Error: Server already contains a maximum of 256 rooms")
        cid = await signed_in(port, "cid")
        await cid.ask("JOIN:full:PLAYER", "JOIN:ACKSTATUS:0")
        await ann.type("join full player")
        await ann.until("Error: The room full already has 2 players")
        await ann.type("create full")
        await ann.until("Error: Room full already exists")
        # Watching a game that then ends by a forfeit.
        await ann.type("watch full")
        await ann.until("Match between bob and cid is currently in progress, it is bob's turn")
        await ann.until("It is bob's turn")
        await ann.type("5")
        await ann.until("Watching: the moves are the players'. quit leaves.")
        await cid.send("FORFEIT")
        await ann.until("bob won due to the opposing player forfeiting")
        await ann.type("quit")
        assert await asyncio.wait_for(ann.process.wait(), TIMEOUT) == 0


async def test_the_client_ends_cleanly_when_the_server_goes(tmp_path: Path) -> None:
    async with tictactoe_server(tmp_path) as server:
        ann = await client(server)
        await log_in(ann, "ann")
        await ann.type("create r")
        await ann.until("Waiting for other player...")
    # The server has stopped.
    await ann.until("Error: The server closed the connection.")
    assert await asyncio.wait_for(ann.process.wait(), TIMEOUT) == SERVER_LOST


async def test_a_client_idle_at_the_prompt_hears_at_once_that_the_server_went(
    tmp_path: Path,
) -> None:
    async with tictactoe_server(tmp_path) as server:
        ann = await client(server)
        await log_in(ann, "ann")
    await ann.until("Error: The server closed the connection.")  # nothing typed meanwhile
    assert await asyncio.wait_for(ann.process.wait(), TIMEOUT) == SERVER_LOST


async def test_the_client_hangs_up_on_a_server_that_breaks_the_protocol() -> None:
    async def babble(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await reader.read(100)
        writer.write(b"LOGIN:ACKSTATUS:0")  # fine, then nonsense
        await asyncio.sleep(0.2)
        writer.write(b"BOARDSTATUS:111111111")
        await reader.read()  # until the client hangs up
        writer.close()

    fake = await asyncio.start_server(babble, "127.0.0.1", 0)
    port = fake.sockets[0].getsockname()[1]
    async with fake:
        console = await ConsoleProcess.start("--connect", f"127.0.0.1:{port}", command="tictactoe")
        await console.type("login ann")
        await console.type("pw")
        await console.until("Welcome ann")
        await console.type("roomlist player")
        line = await console.until("Error: The tic-tac-toe server broke off")
        assert "not a tic-tac-toe message: 'BOARDSTATUS:111111111'" in line
        assert await asyncio.wait_for(console.process.wait(), TIMEOUT) == 1


async def test_a_game_stops_at_once_when_the_server_goes_on_either_turn(tmp_path: Path) -> None:
    for ann_moves_first in (False, True):
        async with tictactoe_server(tmp_path) as server:
            ann = await client(server)
            await log_in(ann, f"ann{int(ann_moves_first)}")
            await ann.type("create r")
            await ann.until("Waiting for other player...")
            bob = await signed_in(server.tictactoe_port, f"bob{int(ann_moves_first)}")
            await bob.send("JOIN:r:PLAYER")
            await ann.until(f"It is your turn, ann{int(ann_moves_first)} (X)")
            if ann_moves_first:
                await ann.type("5")
                await ann.until(f"It is bob{int(ann_moves_first)}'s turn (O)")  # bob thinks
            await server.stop()
            await ann.until("Error: The server closed the connection.")  # nothing typed
            assert await asyncio.wait_for(ann.process.wait(), TIMEOUT) == SERVER_LOST
            await bob.close()
