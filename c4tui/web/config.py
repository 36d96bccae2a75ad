"""What a web visitor may do, and the command that starts a visitor's app (no web imports).

Apart from ``limits.py``, whose defaults the command line reads at every start.
"""

from __future__ import annotations

import shlex
import sys
from dataclasses import dataclass

from c4tui.web.limits import DEFAULT_IDLE_SECONDS, DEFAULT_MAX_SESSIONS, DEFAULT_WEB_PORT


@dataclass(frozen=True)
class WebConfig:
    """How ``c4tui web`` serves: where, for how many, and which servers visitors may reach."""

    host: str = "127.0.0.1"
    port: int = DEFAULT_WEB_PORT
    public_url: str | None = None
    allowed_servers: tuple[tuple[str, int], ...] = ()
    max_sessions: int = DEFAULT_MAX_SESSIONS
    idle_seconds: float = DEFAULT_IDLE_SECONDS

    def visitor_command(self) -> str:
        """The shell command that runs one visitor's app, limited to the allowed servers."""
        words = [sys.executable, "-m", "c4tui", "--web-visitor"]
        for host, port in self.allowed_servers:
            words += ["--allow-server", format_server(host, port)]
        # exec: the app is the server's own child, so it can tell when the server is gone.
        return "exec " + shlex.join(words)


def format_server(host: str, port: int) -> str:
    """``host:port`` (IPv6 in brackets), as ``--allow-server`` takes it."""
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
