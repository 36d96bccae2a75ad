"""The app over ssh as the server runs it: the door, and its visitors' own way into the lobby.

Loaded with every server, it loads asyncssh (the ``ssh`` extra) only when
``--ssh-port`` asks for the door. The visitors' apps reach the lobby on a port of
their own, on loopback: it serves only the lobby, and is not counted per address
(every visitor's app connects from 127.0.0.1; each visitor is counted at the door,
from its own address).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from c4tui.server.ssh.settings import SshSettings
from c4tui.server.store import LobbyStore

if TYPE_CHECKING:
    from c4tui.server.ssh.door import Admission, SshDoor

#: Where the ssh visitors' apps reach the lobby: this machine only.
VISITORS_LOBBY_HOST = "127.0.0.1"

Accept = Callable[[asyncio.StreamReader, asyncio.StreamWriter], Awaitable[None]]


class SshService:
    """``--ssh-port``'s door on ``host``, opened with the server and closed before it."""

    def __init__(self, settings: SshSettings, host: str) -> None:
        self.settings = settings
        self._host = host
        self._door: SshDoor | None = None
        self._lobby: asyncio.Server | None = None

    @property
    def port(self) -> int | None:
        """The ssh port actually listened on (None: not open)."""
        return self._door.port if self._door is not None else None

    def app_pids(self) -> list[int]:
        """The visitors' app processes running now."""
        return self._door.app_pids() if self._door is not None else []

    async def open(self, accept_visitor: Accept, store: LobbyStore, admission: Admission) -> None:
        """Listen for the visitors' apps, then for ssh (SshSetupError: the key, the port)."""
        from c4tui.server.ssh.door import Lobby, SshDoor  # noqa: PLC0415 (asyncssh: only now)

        self._lobby = await asyncio.start_server(accept_visitor, VISITORS_LOBBY_HOST, 0)
        door = SshDoor(self.settings, self._host, Lobby(store, self._lobby_address), admission)
        await door.open()
        self._door = door

    def _lobby_address(self) -> tuple[str, int]:
        assert self._lobby is not None
        port: int = self._lobby.sockets[0].getsockname()[1]
        return VISITORS_LOBBY_HOST, port

    async def close(self) -> None:
        """End every visit (each app hung up on: its lobby links close), stop listening."""
        if self._door is not None:
            await self._door.close()
        if self._lobby is not None:
            self._lobby.close()
            await self._lobby.wait_closed()
