"""``c4tui serve``: one asyncio TCP server for every protocol, told apart by its first bytes.

``C4Server`` and ``ServerConfig`` load on first use, so ``c4tui --help`` (which reads
the defaults in ``c4tui.server.limits``) does not load the server.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from c4tui.lazy import lazy_names

if TYPE_CHECKING:
    from c4tui.server.core import C4Server, ServerConfig

__getattr__ = lazy_names(
    __name__, {"C4Server": "c4tui.server.core", "ServerConfig": "c4tui.server.core"}
)


__all__ = ["C4Server", "ServerConfig"]
