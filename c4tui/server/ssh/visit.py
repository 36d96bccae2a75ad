"""One ssh connection: who it is (its key, nothing else), its one session, the app on it.

Every request but a terminal and its shell is refused and logged: a command, a
subsystem (sftp), port forwarding either way, a tunnel, a second session. The
visitor's app starts once its visit is in the lobby's store, and the visit ends with
the connection or the app, whichever goes first.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import sys
import time
from collections.abc import Coroutine, Mapping
from typing import TYPE_CHECKING

import asyncssh

from c4tui.net.address import address_group
from c4tui.protocols import keys
from c4tui.protocols.keys import VISIT_SECONDS, VISIT_TOKEN_PREFIX
from c4tui.server.ssh.settings import DEFAULT_TERM, MAX_ENV_VALUE, VisitCard
from c4tui.server.ssh.visitor import VisitorApp

if TYPE_CHECKING:
    from c4tui.server.ssh.door import SshDoor

log = logging.getLogger("c4tui.server.ssh")

#: Seconds a session waits for its visit to be in the store before it gives up.
AUTHORISED_SECONDS = 30.0
#: The largest terminal an app is given (columns, rows): a client may claim any size,
#: and the app would draw (and hold in memory) every cell of it.
MAX_TERMINAL = (1000, 500)


def terminal_size(columns: int, rows: int, before: tuple[int, int]) -> tuple[int, int]:
    """The size a client's window asks for, within ``MAX_TERMINAL``; ``before`` if none."""
    if columns <= 0 or rows <= 0:
        return before
    return min(columns, MAX_TERMINAL[0]), min(rows, MAX_TERMINAL[1])


#: Undoes what a full-screen app does to a terminal: the main screen back, the mouse's
#: reports and bracketed paste off, the cursor shown, colours and attributes reset.
TERMINAL_RESET = (
    b"\x1b[?1049l\x1b[?1000l\x1b[?1002l\x1b[?1003l\x1b[?1006l\x1b[?1015l\x1b[?2004l"
    b"\x1b[?25h\x1b[0m\r\n"
)

#: Seconds a stopping server gives a visitor's terminal its last bytes.
PARTING_SECONDS = 2.0

#: The app every visitor runs: the full app, limited to a visitor's rights.
VISITOR_COMMAND = (sys.executable, "-m", "c4tui", "--ssh-visitor")


class Visit(asyncssh.SSHServer):
    """One ssh connection: its key, its visit in the store, its one app."""

    def __init__(self, door: SshDoor) -> None:
        self._door = door
        self._connection: asyncssh.SSHServerConnection | None = None
        self._peer = "?"
        self._host = ""
        self._group = ""
        self._key: asyncssh.SSHKey | None = None
        self._user = ""
        self._token = ""
        self._token_hash = ""
        self._fingerprint = ""
        self._visit_open = False
        #: Set once the visit is in the store: asyncssh may open the session before.
        self._authorised = asyncio.Event()
        self._session: Session | None = None
        self.app: VisitorApp | None = None
        self._began = time.monotonic()
        self._ended = False
        self._refusal = ""  # why it was turned away at the door ("": it was not)
        #: What the visitor reads after its app, when the server ended the visit.
        self.parting = ""
        self.visiting = False  # its key proven: one of the door's visitors

    # ----- the connection ----------------------------------------------------------

    def connection_made(self, conn: asyncssh.SSHServerConnection) -> None:
        self._connection = conn
        host, port = conn.get_extra_info("peername", ("?", 0))[:2]
        self._host = str(host)
        self._peer = f"{host}:{port}"
        self._group = address_group(host)
        # A connection takes a slot of its address now; it becomes a visitor (one of
        # --ssh-max-visitors) only once its key is proven, so idle sockets fill no door.
        refusal = self._door.admission.take_slot(self._group)
        if refusal is not None:
            self._group = ""
            self._refusal = refusal  # told at authentication: ssh shows a disconnect's words then
            log.info("ssh from %s %s", self._peer, refusal)
            return
        self._door.joined(self)
        log.info("ssh visitor from %s", self._peer)

    def connection_lost(self, exc: Exception | None) -> None:
        reason = "hung up" if exc is None else f"lost: {exc}"
        self._door.spawn(self.end(reason))

    async def end(self, reason: str) -> None:
        """The visit is over: its app hung up on, its visit closed, its slot given back."""
        if self._ended:
            return
        self._ended = True
        if reason == "server stopping":
            self.parting = "c4tui: the server is stopping; a game in progress waits for you.\r\n"
        self._authorised.set()  # an app waiting for its visit looks again: it starts no more
        if self.app is not None:
            await self.app.hang_up()
        if self._connection is not None and reason == "server stopping":
            if self._session is not None:  # its last words (the terminal reset) sent first
                await self._session.closed(PARTING_SECONDS)
            self._connection.close()
        await self._close_visit()
        if self._group:
            self._door.left(self)
            self._door.admission.free_slot(self._group)
            seconds = time.monotonic() - self._began
            if not self.visiting:  # never proven: offered no key it could sign with
                reason += ", before its key was proven"
            log.info("ssh visitor from %s left after %.0f s (%s)", self._peer, seconds, reason)

    async def _close_visit(self) -> None:
        """The visit's row goes: its token logs in nothing more."""
        if self._visit_open:
            self._visit_open = False
            with contextlib.suppress(Exception):  # the store may be closing too
                await self._door.lobby.store.end_visit(self._token_hash)

    # ----- who they are: their key, nothing else -----------------------------------

    def begin_auth(self, username: str) -> bool:
        if self._refusal and self._connection is not None:
            self._connection.disconnect(
                asyncssh.DISC_TOO_MANY_CONNECTIONS, "c4tui is full: try again later"
            )
            return True
        self._user = username
        return True  # always: the key is who they are

    def password_auth_supported(self) -> bool:
        return False

    def kbdint_auth_supported(self) -> bool:
        return False

    def host_based_auth_supported(self) -> bool:
        return False

    def public_key_auth_supported(self) -> bool:
        return True

    def validate_public_key(self, username: str, key: asyncssh.SSHKey) -> bool:
        self._key = key  # the last key offered is the one the client signs with next
        return True

    async def auth_completed(self) -> None:
        assert self._key is not None
        if self._door.visits >= self._door.settings.max_visitors:
            log.info(
                "ssh from %s refused: the door's %d visitors are in", self._peer, self._door.visits
            )
            self._refusal = "full"
            if self._connection is not None:
                self._connection.disconnect(
                    asyncssh.DISC_TOO_MANY_CONNECTIONS, "c4tui is full: try again later"
                )
            return
        self.visiting = True
        public = self._key.export_public_key("openssh").decode("ascii").split()
        line = " ".join(public[:2])
        key_print = self._fingerprint = self._key.get_fingerprint("sha256")
        self._token = VISIT_TOKEN_PREFIX + secrets.token_urlsafe(32)
        self._token_hash = keys.token_hash(self._token)
        store = self._door.lobby.store
        visit = keys.Visit(key_print, line, self._host)
        try:
            await store.begin_visit(self._token_hash, visit, time.time() + VISIT_SECONDS)
        except Exception:  # the store failed: this visit cannot log in, so it ends here
            log.exception("ssh visitor from %s: its visit could not be kept", self._peer)
            if self._connection is not None:
                self._connection.disconnect(
                    asyncssh.DISC_SERVICE_NOT_AVAILABLE, "c4tui cannot take visitors just now"
                )
            return
        self._visit_open = True
        if self._ended:  # the visitor left while its visit was being kept: it ends now
            await self._close_visit()
            return
        self._authorised.set()
        wait = self._door.settings.session_seconds
        asyncio.get_running_loop().call_later(wait, self._cut_if_no_session)
        account = await store.key_account(key_print)
        whose = f"the key of {account}" if account else "a new key"
        log.info("ssh visitor from %s: %s (%s)", self._peer, whose, key_print)

    def _cut_if_no_session(self) -> None:
        """A proven key that opened no session (``ssh -N``) holds a visitor's place: cut."""
        if self._session is None and not self._ended and self._connection is not None:
            wait = self._door.settings.session_seconds
            log.info("ssh visitor from %s opened no session in %g s: cut", self._peer, wait)
            self._connection.disconnect(
                asyncssh.DISC_BY_APPLICATION, "c4tui serves its app only: ssh -t to play"
            )

    # ----- what they may open: one session, the app --------------------------------

    def session_requested(self) -> Session | bool:
        if self._session is not None:
            log.info("ssh visitor from %s refused a second session: one app a visit", self._peer)
            return False
        self._session = Session(self)
        return self._session

    def connection_requested(
        self, dest_host: str, dest_port: int, orig_host: str, orig_port: int
    ) -> bool:
        log.info(
            "ssh visitor from %s refused forwarding to %s:%d", self._peer, dest_host, dest_port
        )
        return False

    def server_requested(self, listen_host: str, listen_port: int) -> bool:
        log.info(
            "ssh visitor from %s refused remote forwarding from port %d", self._peer, listen_port
        )
        return False

    def unix_connection_requested(self, dest_path: str) -> bool:
        log.info("ssh visitor from %s refused forwarding to a socket", self._peer)
        return False

    def unix_server_requested(self, listen_path: str) -> bool:
        log.info("ssh visitor from %s refused remote forwarding from a socket", self._peer)
        return False

    def tun_requested(self, unit: int | None) -> bool:
        log.info("ssh visitor from %s refused a tunnel", self._peer)
        return False

    def tap_requested(self, unit: int | None) -> bool:
        log.info("ssh visitor from %s refused a tunnel", self._peer)
        return False

    # ----- the app ---------------------------------------------------------------

    async def run_app(self, session: Session, term: str, size: tuple[int, int]) -> None:
        """Start the visitor's app on its terminal, once its visit is in the store."""
        try:
            await asyncio.wait_for(self._authorised.wait(), AUTHORISED_SECONDS)
        except TimeoutError:  # the store never kept the visit: nothing to log in with
            session.refuse("c4tui cannot take visitors just now.\r\n")
            return
        if self._ended:
            return
        card = VisitCard(self._token, self._fingerprint, self._user)
        env = self._door.visitor_env(card, session.client_env, term)
        app = VisitorApp(session.show, session.app_ended)
        try:
            await app.start(VISITOR_COMMAND, env, size)
        except OSError as error:
            log.error("ssh visitor from %s: the app could not start: %s", self._peer, error)
            session.refuse(f"c4tui could not start here ({error.strerror}).\r\n")
            return
        if self._ended:  # the visitor left while its app was starting
            await app.hang_up()
            return
        self.app = app
        session.app = app
        log.info("ssh visitor from %s: app %d on a %dx%d %s", self._peer, app.pid, *size, term)

    def spawn(self, work: Coroutine[object, object, None]) -> None:
        """Run ``work`` for this visit (its door keeps it till done)."""
        self._door.spawn(work)

    def refused(self, what: str) -> None:
        log.info("ssh visitor from %s refused %s: only the app is served", self._peer, what)


class Session(asyncssh.SSHServerSession[bytes]):
    """The channel the app runs on: a terminal's keys in, its screen out."""

    def __init__(self, visit: Visit) -> None:
        self._visit = visit
        self._channel: asyncssh.SSHServerChannel[bytes] | None = None
        self._term = ""
        self._size = (80, 24)
        self.app: VisitorApp | None = None
        self.client_env: dict[str, str] = {}

    def connection_made(self, chan: asyncssh.SSHServerChannel[bytes]) -> None:
        self._channel = chan

    def pty_requested(
        self, term_type: str, term_size: tuple[int, int, int, int], term_modes: Mapping[int, int]
    ) -> bool:
        self._term = term_type if term_type.isascii() and term_type.isprintable() else ""
        self._term = self._term[:MAX_ENV_VALUE] or DEFAULT_TERM
        self._size = terminal_size(term_size[0], term_size[1], self._size)
        return True

    def shell_requested(self) -> bool:
        return True

    def exec_requested(self, command: str) -> bool:
        self._visit.refused(f"a command ({command[:40]!r})")
        return False

    def subsystem_requested(self, subsystem: str) -> bool:
        self._visit.refused(f"the {subsystem[:20]!r} subsystem")
        return False

    def session_started(self) -> None:
        assert self._channel is not None
        env = self._channel.get_environment()
        self.client_env = {
            key: value
            for key, value in env.items()
            if isinstance(value, str) and value.isprintable() and len(value) <= MAX_ENV_VALUE
        }
        if not self._term:
            self._visit.refused("a session without a terminal")
            self.refuse("c4tui is a full-screen app: connect with a terminal (ssh -t).\r\n")
            return
        self._visit.spawn(self._visit.run_app(self, self._term, self._size))

    def refuse(self, words: str) -> None:
        assert self._channel is not None
        self._channel.write_stderr(words.encode())
        self._channel.exit(1)

    def terminal_size_changed(self, width: int, height: int, pixwidth: int, pixheight: int) -> None:
        self._size = terminal_size(width, height, self._size)
        if self.app is not None:
            self.app.resize(*self._size)

    def data_received(self, data: bytes, datatype: int | None) -> None:
        if self.app is not None:
            self.app.type(data)

    def eof_received(self) -> bool:
        return False  # the visitor sent no more keys: the visit ends

    def pause_writing(self) -> None:
        if self.app is not None:
            self.app.pause()

    def resume_writing(self) -> None:
        if self.app is not None:
            self.app.resume()

    def show(self, data: bytes) -> None:
        if self._channel is not None and not self._channel.is_closing():
            with contextlib.suppress(BrokenPipeError):  # closed since: the app ends too
                self._channel.write(data)

    async def closed(self, seconds: float) -> None:
        """Wait (at most ``seconds``) until the channel's last bytes are sent and it closed."""
        if self._channel is not None:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._channel.wait_closed(), seconds)

    def app_ended(self, status: int) -> None:
        """The app is gone: the visitor's terminal is left as it found it, then the session ends.

        An app ended by the server (stopping) or killed cannot restore the terminal it
        put in full-screen mode itself: the door does it, whatever the app did.
        """
        if self._channel is not None:
            with contextlib.suppress(Exception):
                if not self._channel.is_closing():
                    self._channel.write(TERMINAL_RESET + self._visit.parting.encode())
                self._channel.exit(status)

    def connection_lost(self, exc: Exception | None) -> None:
        """The session is the visit: once it closes (the app's end, EOF), so does the visit."""
        self._visit.spawn(self._visit.end("its session closed"))
