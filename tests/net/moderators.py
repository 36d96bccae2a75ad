"""Moderators for tests: the role given on the running server's store, as `c4tui admin` does.

The server reads a connection's role when it logs in: a moderator logs in after the role.
"""

from __future__ import annotations

from c4tui.protocols.public import Role
from c4tui.server.core import C4Server
from tests.net.lobby_client import LobbyClient, logged_in


async def make_moderator(server: C4Server, user: str) -> None:
    """Give ``user`` (an account already) the moderator's role."""
    assert await server.lobby.store.set_role(user, Role.MODERATOR.value, "tests")


async def moderator_logged_in(server: C4Server, user: str = "mod") -> LobbyClient:
    """A raw client logged in as ``user``, a new account given the moderator's role first."""
    await (await logged_in(server.port, user)).close()
    await make_moderator(server, user)
    client = await LobbyClient.connect(server.port)
    assert await client.ask(f"LOGIN:{user}:pw") == "LOGIN:ACKSTATUS:0"
    return client
