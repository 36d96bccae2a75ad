"""Review of §7 (issue 39): a block on the tic-tac-toe port (the same accounts).

The two ports share their accounts, their login throttle, their registrations' count
and their bans; a block is the account's too. While ann blocks mallory, ann's waiting
tic-tac-toe room is not mallory's to play in (§7: "your waiting room is not theirs to
join": ROOMLIST:PLAYER leaves it out, JOIN:<room>:PLAYER answers 1, no such room).
"""

from __future__ import annotations

from pathlib import Path

from tests.net.lobby_client import logged_in
from tests.net.test_tictactoe_server import port_of
from tests.net.tictactoe_client import TicTacToeClient, tictactoe_server


async def signed_in(port: int, user: str) -> TicTacToeClient:
    """``user`` (its account made on the lobby's port) logged in on the tic-tac-toe port."""
    client = await TicTacToeClient.connect(port)
    await client.ask(f"LOGIN:{user}:pw", "LOGIN:ACKSTATUS:0")
    return client


async def test_a_block_made_on_the_lobby_holds_on_the_tic_tac_toe_port(tmp_path: Path) -> None:
    async with tictactoe_server(tmp_path) as server:
        ann = await logged_in(server.port, "ann")
        mallory_lobby = await logged_in(server.port, "mallory")
        assert await ann.ask("BLOCK:mallory") == "BLOCK:ACKSTATUS:0"
        await mallory_lobby.close()
        ann_t = await signed_in(port_of(server), "ann")
        mallory = await signed_in(port_of(server), "mallory")
        await ann_t.ask("CREATE:r", "CREATE:ACKSTATUS:0")
        await mallory.ask("JOIN:r:PLAYER", "JOIN:ACKSTATUS:1")
        assert await ann_t.quiet(0.5)  # no BEGIN:ann:mallory
