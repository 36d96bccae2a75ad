"""``c4tui serve``: one asyncio TCP server for every protocol, chosen by a client's first line."""

from c4tui.server.core import C4Server, ServerConfig

__all__ = ["C4Server", "ServerConfig"]
