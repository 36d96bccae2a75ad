"""Moderators for tests: the role given on the running server's store, as `c4tui admin` does."""

from __future__ import annotations

from c4tui.protocols.public import Role
from c4tui.server.core import C4Server


async def make_moderator(server: C4Server, user: str) -> None:
    """Give ``user`` (an account already) the moderator's role."""
    assert await server.lobby.store.set_role(user, Role.MODERATOR.value, "tests")
