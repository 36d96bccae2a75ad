"""``c4tui serve``: one asyncio TCP server for every protocol, told apart by its first bytes."""

from c4tui.server.core import C4Server, ServerConfig

__all__ = ["C4Server", "ServerConfig"]
