"""c4tui/protocols/PROTOCOL.md's example client plays a whole game against a real server."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable
from pathlib import Path

import c4tui
from tests.net.lobby_client import LobbyClient, lobby_server

PAGE = Path(c4tui.__file__).parent / "protocols" / "PROTOCOL.md"


def example_client(printed: list[str]) -> Callable[..., None]:
    """The page's Python example, its ``print`` writing into ``printed``."""
    [code] = re.findall(r"```python\n(.*?)```", PAGE.read_text(encoding="utf-8"), re.S)
    namespace: dict[str, object] = {"print": printed.append}
    exec(compile(code, str(PAGE), "exec"), namespace)  # our own page's example
    play = namespace["play"]
    assert callable(play)
    return play


async def test_two_copies_of_the_example_client_play_a_game_to_its_end(tmp_path: Path) -> None:
    async with lobby_server(tmp_path) as server:
        for user in ("ann", "bob"):
            client = await LobbyClient.connect(server.port)
            assert await client.ask(f"REGISTER:{user}:pw-{user}") == "REGISTER:ACKSTATUS:0"
            await client.close()
        printed: list[str] = []
        play = example_client(printed)
        games = [
            asyncio.to_thread(play, user, f"pw-{user}", "127.0.0.1", server.port)
            for user in ("ann", "bob")
        ]
        await asyncio.wait_for(asyncio.gather(*games), 60)
    assert len(printed) == 2 and printed[0] == printed[1]  # both saw the same end
    assert printed[0].startswith("GAMEEND:")
