"""``c4tui serve``: one asyncio TCP server for every protocol, told apart by its first bytes.

``C4Server`` and ``ServerConfig`` load on first use, so ``c4tui --help`` (which reads
the defaults in ``c4tui.server.limits``) does not load the server.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from c4tui.server.core import C4Server, ServerConfig


def __getattr__(name: str) -> object:
    """Load ``C4Server`` or ``ServerConfig`` on first use."""
    if name not in __all__:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module("c4tui.server.core"), name)


__all__ = ["C4Server", "ServerConfig"]
