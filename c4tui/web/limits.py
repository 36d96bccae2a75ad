"""How much a web server takes on by default (constants only: the command line reads them)."""

from __future__ import annotations

#: Visitors at once, by default: each one is a whole app process.
DEFAULT_MAX_SESSIONS = 8
#: Seconds without a key, click or resize before a visitor's session ends.
DEFAULT_IDLE_SECONDS = 15 * 60
DEFAULT_WEB_PORT = 8000
