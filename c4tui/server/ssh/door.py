"""The ssh door: public-key authentication, one app per visitor, and nothing else.

A visitor's key is who they are: any key is let in (there is no other way in: no
password, no keyboard-interactive), and the visit it opens in the lobby's store lets
the visitor's app log in as the account bound to that key, or make one. Everything
else ssh could do is refused, each with its reason in the log: commands (``ssh host
ls``, scp), subsystems (sftp), port forwarding both ways, agent and X11 forwarding.

The door counts its visitors with the server's own limits (``Admission``): every
visitor is a connection from its address, as a lobby client is, and there are at most
``max_visitors`` apps at once.
"""

from __future__ import annotations

import asyncio
import logging
import os
import time
from collections.abc import Callable, Coroutine, Mapping
from dataclasses import dataclass
from typing import Protocol

import asyncssh

from c4tui.protocols.names import valid_user
from c4tui.protocols.ssh_visit import (
    ERRORS_ENV,
    GUESTS_ENV,
    IDLE_ENV,
    KEY_ENV,
    LOBBY_ENV,
    NAME_ENV,
    TOKEN_ENV,
)
from c4tui.server.ssh.host_key import fingerprint, load_host_key
from c4tui.server.ssh.settings import CLIENT_ENV_ALLOWED, SshSettings, SshSetupError, VisitCard
from c4tui.server.ssh.visit import Visit
from c4tui.server.store import LobbyStore
from c4tui.storage import data_folder, sweep_visitor_folders

log = logging.getLogger("c4tui.server.ssh")

#: The folder (in c4tui's data folder) of the visitors' apps' crash reports, for the operator.
VISITOR_ERRORS = "ssh-visitor-errors"

#: Seconds a connection has to authenticate.
LOGIN_SECONDS = 30
#: Seconds between keepalives, and how many may go unanswered before the visitor is gone.
KEEPALIVE_SECONDS = 30
KEEPALIVE_MISSES = 3
#: The environment a visitor's app gets from this server's own (where Python and the
#: data folder are): nothing else of the server's.
SERVER_ENV_KEPT = ("PATH", "HOME", "PYTHONPATH", "XDG_DATA_HOME", "VIRTUAL_ENV", "TMPDIR")


class Admission(Protocol):
    """The server's count of connections: a visitor takes one slot from its address."""

    def take_slot(self, group: str) -> str | None:
        """Take a slot for ``group`` (an address's); why not, when over a limit."""

    def free_slot(self, group: str) -> None:
        """Give a slot back."""


@dataclass(frozen=True)
class Lobby:
    """Where a visitor's app finds this server's lobby, and the store that keeps its visits."""

    store: LobbyStore
    address: Callable[[], tuple[str, int]]


class SshDoor:
    """``c4tui serve --ssh-port``: listens, lets keys in, runs each visitor's app."""

    def __init__(
        self, settings: SshSettings, host: str, lobby: Lobby, admission: Admission
    ) -> None:
        self.settings = settings
        self._host = host
        self.lobby = lobby
        self.admission = admission
        self._server: asyncssh.SSHAcceptor | None = None
        self._visits: set[Visit] = set()
        self._tasks: set[asyncio.Future[None]] = set()
        self.host_key_fingerprint = ""

    @property
    def port(self) -> int:
        """The port actually listened on (useful with port 0)."""
        assert self._server is not None
        return self._server.get_port()

    @property
    def visits(self) -> int:
        """Visitors now: connections whose key is proven (their app running, or on its way)."""
        return sum(1 for visit in self._visits if visit.visiting)

    def app_pids(self) -> list[int]:
        """The process ids of the visitors' apps running now (for the operator, and tests)."""
        return [v.app.pid for v in self._visits if v.app is not None and v.app.pid is not None]

    async def open(self) -> None:
        """Listen (HostKeyError: the host key; OSError: the port)."""
        key = load_host_key(self.settings.host_key)
        self.host_key_fingerprint = fingerprint(key)
        await self.lobby.store.end_expired_visits(time.time())
        swept = sweep_visitor_folders()  # left by apps killed, or a machine that stopped
        if swept:
            log.info("removed %d folders of visits that had ended", swept)
        _log_asyncssh_refusals()
        try:
            self._server = await self._listen(key)
        except OSError as error:
            where = f"{self._host}:{self.settings.port}"
            raise SshSetupError(f"cannot listen for ssh on {where}: {error.strerror}") from error
        log.info(
            "the app over ssh on %s:%d (host key %s)",
            self._host,
            self.port,
            self.host_key_fingerprint,
        )

    async def _listen(self, key: asyncssh.SSHKey) -> asyncssh.SSHAcceptor:
        """asyncssh's server: keys only, no forwarding of any kind, bytes both ways."""
        return await asyncssh.create_server(
            lambda: Visit(self),
            self._host,
            self.settings.port,
            server_host_keys=[key],
            encoding=None,
            line_editor=False,
            allow_scp=False,
            agent_forwarding=False,
            x11_forwarding=False,
            login_timeout=LOGIN_SECONDS,
            keepalive_interval=KEEPALIVE_SECONDS,
            keepalive_count_max=KEEPALIVE_MISSES,
            server_version="c4tui",
        )

    async def close(self) -> None:
        """Stop listening and end every visit (each app is hung up on)."""
        if self._server is not None:
            self._server.close()
            await self._server.wait_closed()
        await asyncio.gather(*(visit.end("server stopping") for visit in list(self._visits)))
        await asyncio.gather(*self._tasks, return_exceptions=True)  # visits ending by themselves

    def visitor_env(
        self, visit: VisitCard, client_env: Mapping[str, str], term: str
    ) -> dict[str, str]:
        """The environment of a visitor's app: what Python needs, the visit, the terminal."""
        env = {key: os.environ[key] for key in SERVER_ENV_KEPT if key in os.environ}
        env.update({key: value for key, value in client_env.items() if key in CLIENT_ENV_ALLOWED})
        host, port = self.lobby.address()
        env.update(
            TERM=term,
            LANG="C.UTF-8",
            **{
                TOKEN_ENV: visit.token,
                LOBBY_ENV: f"{host}:{port}",
                KEY_ENV: visit.fingerprint,
                NAME_ENV: visit.name if valid_user(visit.name) else "",
                GUESTS_ENV: "1" if self.settings.guests else "",
                IDLE_ENV: str(round(self.settings.idle_seconds)),
                ERRORS_ENV: str(data_folder() / VISITOR_ERRORS),
            },
        )
        return env

    def spawn(self, work: Coroutine[object, object, None]) -> None:
        """Run ``work`` beside the callbacks asyncssh calls (which cannot wait), kept till done."""
        task = asyncio.ensure_future(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def joined(self, visit: Visit) -> None:
        self._visits.add(visit)

    def left(self, visit: Visit) -> None:
        self._visits.discard(visit)


class _RefusalsOnly(logging.Filter):
    """asyncssh's own lines that say what it refused (agent, X11 forwarding, a pty): no chatter."""

    def filter(self, record: logging.LogRecord) -> bool:
        return record.levelno >= logging.WARNING or "denied" in record.getMessage()


def _log_asyncssh_refusals() -> None:
    """asyncssh refuses agent and X11 forwarding itself: its reasons go to the server's log."""
    logger = logging.getLogger("asyncssh")
    if not any(isinstance(f, _RefusalsOnly) for f in logger.filters):
        logger.addFilter(_RefusalsOnly())
        logger.setLevel(logging.INFO)
