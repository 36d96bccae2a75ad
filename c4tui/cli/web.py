"""``c4tui web``: the app in web browsers, one process per visitor (the ``web`` extra)."""

from __future__ import annotations

import argparse
import sys

from c4tui.cli.types import (
    USAGE_ERROR,
    CommandTable,
    listening_port,
    positive_count,
    seconds,
    server_address,
)
from c4tui.web.limits import DEFAULT_IDLE_SECONDS, DEFAULT_MAX_SESSIONS, DEFAULT_WEB_PORT


def add_parser(commands: CommandTable) -> None:
    """Register ``web``, its options and its ``run``."""
    web = commands.add_parser(
        "web",
        description="Serve the full app to web browsers, one app process per visitor. Safe to "
        "expose: visitors reach no network server unless --allow-server names it, the number "
        "of visitors is capped, idle sessions end, and each session is logged in one line.",
    )
    web.add_argument(
        "--host", default="127.0.0.1", help="address to listen on (default: %(default)s)"
    )
    web.add_argument(
        "--port", type=listening_port, default=DEFAULT_WEB_PORT, help="port (default: %(default)s)"
    )
    web.add_argument(
        "--public-url",
        metavar="URL",
        help="the address browsers use, behind a proxy (default: http://HOST:PORT)",
    )
    web.add_argument(
        "--allow-server",
        metavar="HOST:PORT",
        type=server_address,
        action="append",
        default=[],
        help="a c4tui/I32CFSP/CFSP/C4N server visitors may play against (repeatable; "
        "without it the network modes are off)",
    )
    web.add_argument(
        "--max-sessions",
        type=positive_count,
        default=DEFAULT_MAX_SESSIONS,
        help="visitors at once; more get a 'full' page (default: %(default)s)",
    )
    web.add_argument(
        "--idle-minutes",
        type=seconds,
        default=DEFAULT_IDLE_SECONDS / 60,
        help="minutes without a key or click before a session ends (default: %(default)g)",
    )
    web.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Serve the app, if textual-serve (the web extra) is installed; else say how to get it."""
    try:
        from c4tui.web import config, server  # noqa: PLC0415 (server needs the web extra)
    except ImportError as error:
        print(
            f"c4tui web needs the web extra ({error.name} is missing): "
            "python3 -m pip install '.[web]' (in c4tui's folder)",
            file=sys.stderr,
        )
        return USAGE_ERROR
    settings = config.WebConfig(
        host=args.host,
        port=args.port,
        public_url=args.public_url,
        allowed_servers=tuple(args.allow_server),
        max_sessions=args.max_sessions,
        idle_seconds=args.idle_minutes * 60,
    )
    return server.serve_web(settings)
