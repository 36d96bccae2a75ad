"""The web server: textual-serve, with a cap on visitors, idle sessions ended, c4tui's page.

Each visitor's browser opens a websocket; each websocket gets its own app process
(``WebConfig.visitor_command``). The page is c4tui's own template (title, icon,
no fonts fetched from elsewhere).
"""

from __future__ import annotations

import asyncio
import contextvars
import itertools
import json
import logging
import sys
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

from aiohttp import WSMessage, WSMsgType, web
from textual_serve.app_service import AppService
from textual_serve.server import Server

from c4tui.storage import asset_path
from c4tui.web.config import WebConfig

log = logging.getLogger("c4tui.web")
#: The session whose websocket the current task serves.
_current_session: contextvars.ContextVar[Session | None] = contextvars.ContextVar(
    "c4tui_web_session", default=None
)

#: What a visitor's browser sends that counts as the visitor being there.
ACTIVITY = ("stdin", "resize")

FULL_PAGE = """<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>c4tui: full</title>
<link rel="icon" href="/favicon.svg" type="image/svg+xml"></head>
<body style="background:#121212;color:#e8e8e8;font-family:monospace;padding:3em">
<h1>c4tui is full</h1>
<p>Every seat is taken ({limit} at most). Please try again in a few minutes.</p>
</body></html>"""


@dataclass
class Session:
    """One visitor's app."""

    number: int
    peer: str
    started: float = field(default_factory=time.monotonic)
    last_input: float = field(default_factory=time.monotonic)
    ended_by: str = "closed (the visitor quit or left)"


class C4WebServer(Server):
    """textual-serve's server with c4tui's limits."""

    def __init__(self, config: WebConfig) -> None:
        web_assets = asset_path("web")
        super().__init__(
            config.visitor_command(),
            host=config.host,
            port=config.port,
            title="c4tui",
            public_url=config.public_url,
            templates_path=web_assets,
        )
        self.config = config
        self.sessions: dict[int, Session] = {}
        self._numbers = itertools.count(1)
        self._favicon = (web_assets / "favicon.svg").read_bytes()

    def initialize_logging(self) -> None:
        """One plain line per record whatever the terminal's width, none per HTTP request.

        textual-serve's Rich handler lays each record out at the terminal's width (80
        when the output is not a terminal): a session's line came out as two, padded
        with spaces. The banners are printed unwrapped for the same reason.
        """
        self.console.soft_wrap = True
        handler = logging.StreamHandler(sys.stdout)
        handler.setFormatter(logging.Formatter("%(levelname)-8s %(message)s"))
        logging.basicConfig(level="DEBUG" if self.debug else "INFO", handlers=[handler])
        logging.getLogger("aiohttp.access").setLevel(logging.WARNING)

    @property
    def full(self) -> bool:
        """True when every seat is taken."""
        return len(self.sessions) >= self.config.max_sessions

    async def _make_app(self) -> web.Application:
        app = await super()._make_app()
        app.router.add_get("/favicon.svg", self._handle_favicon)
        app.router.add_get("/favicon.ico", self._handle_favicon)
        return app

    async def _handle_favicon(self, request: web.Request) -> web.Response:
        return web.Response(body=self._favicon, content_type="image/svg+xml")

    async def on_startup(self, app: web.Application) -> None:
        """Say where to point a browser (the base class prints its own banner)."""
        allowed = ", ".join(f"{h}:{p}" for h, p in self.config.allowed_servers) or "none"
        self.console.print(f"c4tui web: open {self.public_url} in a browser")
        self.console.print(
            f"visitors at once: {self.config.max_sessions} at most; "
            f"servers they may use: {allowed}. "
            "Ctrl+C stops."
        )

    async def handle_index(self, request: web.Request) -> Any:
        """The page, or a clear "full" page when every seat is taken."""
        if self.full:
            text = FULL_PAGE.format(limit=self.config.max_sessions)
            return web.Response(status=503, text=text, content_type="text/html")
        return await super().handle_index(request)

    async def handle_websocket(self, request: web.Request) -> web.WebSocketResponse:
        """One visitor's app, if there is a seat for them."""
        if self.full:  # the last seat went while this page was loading
            websocket = web.WebSocketResponse()
            await websocket.prepare(request)
            await websocket.close(message=b"c4tui is full")
            log.info("a visitor from %s found every seat taken", request.remote or "?")
            return websocket
        session = Session(next(self._numbers), request.remote or "?")
        self.sessions[session.number] = session
        _current_session.set(session)
        try:
            return await super().handle_websocket(request)
        finally:
            del self.sessions[session.number]
            minutes = (time.monotonic() - session.started) / 60
            log.info(
                "session %d from %s: %.1f min, ended: %s",
                session.number,
                session.peer,
                minutes,
                session.ended_by,
            )

    async def _process_messages(
        self, websocket: web.WebSocketResponse, app_service: AppService
    ) -> None:
        """The base class's loop, over messages that end when the visitor has been idle."""
        watched = _IdleWatch(websocket, _current_session.get(), self.config.idle_seconds)
        await super()._process_messages(watched, app_service)  # type: ignore[arg-type]
        if watched.timed_out:
            await websocket.close(message=b"idle")


class _IdleWatch:
    """A websocket's messages, ending after ``idle_seconds`` with no key, click or resize."""

    def __init__(
        self, websocket: web.WebSocketResponse, session: Session | None, idle_seconds: float
    ) -> None:
        self._websocket = websocket
        self._session = session
        self._idle_seconds = idle_seconds
        self._last_input = time.monotonic()
        self.timed_out = False

    async def send_json(self, data: Any) -> None:
        """Pass answers (pongs) through."""
        await self._websocket.send_json(data)

    def __aiter__(self) -> AsyncIterator[WSMessage]:
        return self._messages()

    async def _messages(self) -> AsyncIterator[WSMessage]:
        while True:
            left = self._idle_seconds - (time.monotonic() - self._last_input)
            try:
                async with asyncio.timeout(max(left, 0)):
                    message = await self._websocket.receive()
            except TimeoutError:
                self.timed_out = True
                if self._session is not None:
                    self._session.ended_by = "idle"
                return
            if message.type in (WSMsgType.CLOSE, WSMsgType.CLOSING, WSMsgType.CLOSED):
                return
            if message.type is WSMsgType.ERROR:
                return
            if message.type is WSMsgType.TEXT and _kind(message.data) in ACTIVITY:
                self._last_input = time.monotonic()
            yield message


def _kind(data: str) -> str:
    """The kind of a browser's message (``["stdin", "..."]`` → ``stdin``); "" if unreadable."""
    try:
        envelope = json.loads(data)
    except ValueError:
        return ""
    return (
        envelope[0]
        if isinstance(envelope, list) and envelope and isinstance(envelope[0], str)
        else ""
    )


def serve_web(config: WebConfig) -> int:
    """Run ``c4tui web`` until Ctrl+C."""
    C4WebServer(config).serve()
    return 0
