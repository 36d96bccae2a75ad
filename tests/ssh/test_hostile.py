"""A hostile review of the ssh door (issue 42): what a visitor's own ssh client may send.

OpenSSH sends only what a person asks for; asyncssh's client is used here to send what
OpenSSH will not (an exec after the shell, a second pty, absurd sizes, hostile
environment variables, a hang-up at the worst moment, idle sockets). Each attack is a
test that it is refused, or does no harm; the review found eight that did, each fixed
since (a comment says what went wrong before).
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import os
import signal
import sqlite3
import struct
import subprocess
import termios
import time
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import asyncssh
import pytest

from c4tui.protocols.keys import fingerprint_of
from c4tui.server.core import C4Server, ServerConfig
from tests.net.conftest import server_in_a_thread
from tests.ssh.terminal import door_port, run_ssh, ssh_client, ssh_options, visitor

#: Seconds anything awaited here may take (generous: the machine is shared).
SECONDS = 30.0
#: The largest terminal a visitor's app should be given: a 65535x65535 one makes it
#: allocate more than a gigabyte within seconds (measured: 51 MB, then 1.1 GB at 9 s).
SANE_SIDE = 1000
NEW_KEY = "This ssh key is new here"


class Screen(asyncssh.SSHClientSession[bytes]):
    """The client's side of the session: what the app drew, and whether it closed."""

    def __init__(self) -> None:
        self.drawn = bytearray()
        self.closed = asyncio.Event()

    def data_received(self, data: bytes, datatype: int | None) -> None:
        self.drawn += data

    def connection_lost(self, exc: Exception | None) -> None:
        self.closed.set()


async def connect(server: C4Server, key: Path, user: str = "eve") -> asyncssh.SSHClientConnection:
    """An asyncssh client connection to the door, authenticated with ``key`` as ``user``."""
    return await asyncssh.connect(
        "127.0.0.1",
        door_port(server),
        known_hosts=None,
        client_keys=[str(key)],
        username=user,
        agent_path=None,
    )


@contextlib.asynccontextmanager
async def ssh(
    server: C4Server, key: Path, user: str = "eve"
) -> AsyncIterator[asyncssh.SSHClientConnection]:
    """``connect``'s connection for the length of an ``async with``."""
    connection = await connect(server, key, user)
    try:
        yield connection
    finally:
        connection.close()
        await connection.wait_closed()


async def terminal(
    connection: asyncssh.SSHClientConnection,
    size: tuple[int, int] = (80, 24),
    term: str = "xterm",
    **options: Any,
) -> tuple[asyncssh.SSHClientChannel[bytes], Screen]:
    """A session with a pseudo-terminal of ``size`` and a shell on it (the app)."""
    channel, screen = await connection.create_session(
        Screen, term_type=term, term_size=size, encoding=None, **options
    )
    assert isinstance(screen, Screen)
    return channel, screen


async def until(test: Callable[[], bool], seconds: float = SECONDS) -> bool:
    """Wait for ``test()`` to be true (polled); whether it became so in time."""
    deadline = time.monotonic() + seconds
    while not test():
        if time.monotonic() > deadline:
            return False
        await asyncio.sleep(0.05)
    return True


async def the_app(server: C4Server, seconds: float = SECONDS) -> int:
    """The one visitor's app's process id, once it runs."""
    service = server.ssh
    assert service is not None
    assert await until(lambda: len(service.app_pids()) == 1, seconds), "no app started"
    return service.app_pids()[0]


def terminal_size(pid: int) -> tuple[int, int]:
    """(columns, rows) of the pseudo-terminal process ``pid`` runs on, as the app sees it."""
    descriptor = os.open(os.readlink(f"/proc/{pid}/fd/0"), os.O_RDONLY | os.O_NOCTTY)
    try:
        rows, columns, _, _ = struct.unpack(
            "HHHH", fcntl.ioctl(descriptor, termios.TIOCGWINSZ, b"\0" * 8)
        )
    finally:
        os.close(descriptor)
    return columns, rows


def visitor_apps_of_this_process() -> list[int]:
    """The ``c4tui --ssh-visitor`` processes this test's server started and that still run."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", encoding="ascii", errors="replace") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
            with open(f"/proc/{entry}/cmdline", "rb") as cmdline:
                command = cmdline.read()
        except OSError:
            continue
        if fields[0] != "Z" and int(fields[1]) == os.getpid() and b"--ssh-visitor" in command:
            found.append(int(entry))
    return found


def locked_copy(key: Path, path: Path) -> Path:
    """``key`` under a passphrase nobody types: OpenSSH offers its public half, never signs."""
    private = asyncssh.read_private_key(key)
    path.write_bytes(private.export_private_key(passphrase="never typed"))
    path.chmod(0o600)
    path.with_suffix(".pub").write_bytes(key.with_suffix(".pub").read_bytes())
    return path


def visit_rows(config: ServerConfig) -> int:
    """Visits in the store now (each an ssh connection's, while it lasts)."""
    assert isinstance(config.db, Path)
    with contextlib.closing(sqlite3.connect(config.db)) as database:
        return int(database.execute("SELECT count(*) FROM ssh_visits").fetchone()[0])


def visit_fingerprints(config: ServerConfig) -> list[str]:
    assert isinstance(config.db, Path)
    with contextlib.closing(sqlite3.connect(config.db)) as database:
        return [row[0] for row in database.execute("SELECT fingerprint FROM ssh_visits")]


def door_visits(server: C4Server) -> int:
    assert server.ssh is not None and server.ssh._door is not None
    return server.ssh._door.visits


# ----- what is refused, as it should be --------------------------------------------------


@pytest.mark.parametrize(
    ("user", "term"),
    [("eve:LOGIN:admin", "xterm\x1b]0;owned\x07"), ("e" * 1000, "x" * 5000)],
    ids=["control-characters", "huge"],
)
async def test_hostile_environment_variables_never_reach_the_app(
    ssh_server: C4Server, alice_key: Path, user: str, term: str
) -> None:
    sent = {
        "LD_PRELOAD": "/tmp/evil.so",
        "PYTHONPATH": "/tmp/evil",
        "PYTHONSTARTUP": "/tmp/evil.py",
        "PYTHONINSPECT": "1",
        "C4TUI_SSH_TOKEN": "sshvisit-made-up",
        "C4TUI_SSH_LOBBY": "203.0.113.9:1",
        "COLORTERM": "x" * 100_000,
        "NO_COLOR": "1\x1b]0;owned\x07",
    }
    async with ssh(ssh_server, alice_key, user) as connection:
        await terminal(connection, term=term, env=sent)
        pid = await the_app(ssh_server)
        with open(f"/proc/{pid}/environ", "rb") as environ:
            env = dict(
                item.split("=", 1) for item in environ.read().decode().split("\0") if "=" in item
            )
    for name in ("LD_PRELOAD", "PYTHONSTARTUP", "PYTHONINSPECT", "COLORTERM", "NO_COLOR"):
        assert name not in env
    assert env.get("PYTHONPATH") == os.environ.get("PYTHONPATH")  # the server's own, or none
    assert env["C4TUI_SSH_TOKEN"].startswith("sshvisit-")
    assert env["C4TUI_SSH_TOKEN"] != "sshvisit-made-up"
    assert env["C4TUI_SSH_LOBBY"].startswith("127.0.0.1:")
    assert env["C4TUI_SSH_NAME"] == ""  # no name against the rules reaches the app
    assert env["TERM"] in ("xterm-256color", "x" * 64)  # a plain word, of a sane length


async def test_requests_after_the_shell_are_refused_and_the_app_plays_on(
    ssh_server: C4Server, alice_key: Path
) -> None:
    """exec and a second pty on the app's channel, a second session, direct-tcpip."""
    async with ssh(ssh_server, alice_key) as connection:
        channel, screen = await terminal(connection)
        pid = await the_app(ssh_server)
        make_request = channel._make_request
        assert await make_request(b"exec", asyncssh.packet.String("id")) is False
        pty = (asyncssh.packet.String("xterm"), *(asyncssh.packet.UInt32(n) for n in (9, 9, 0, 0)))
        assert await make_request(b"pty-req", *pty, asyncssh.packet.String(b"")) is False
        assert await make_request(b"subsystem", asyncssh.packet.String("sftp")) is False
        with pytest.raises(asyncssh.ChannelOpenError):
            await connection.create_session(Screen, term_type="xterm")
        with pytest.raises(asyncssh.ChannelOpenError):
            await connection.open_connection("127.0.0.1", ssh_server.port)
        with pytest.raises(asyncssh.ChannelListenError):
            await connection.forward_remote_port("127.0.0.1", 0, "127.0.0.1", 1)
        assert ssh_server.ssh is not None and ssh_server.ssh.app_pids() == [pid]
        assert terminal_size(pid) == (80, 24)
        assert not screen.closed.is_set()


async def test_window_change_storms_signals_and_breaks_leave_the_last_size(
    ssh_server: C4Server, alice_key: Path
) -> None:
    async with ssh(ssh_server, alice_key) as connection:
        channel, screen = await terminal(connection)
        pid = await the_app(ssh_server)
        for n in range(2000):
            channel.change_terminal_size(40 + n % 100, 10 + n % 40)
        channel.change_terminal_size(0, 0)  # nonsense: ignored
        channel.send_signal("KILL")
        channel.send_signal("INT")
        channel.send_break(1000)
        channel.change_terminal_size(123, 45)
        assert await until(lambda: terminal_size(pid) == (123, 45))
        assert ssh_server.ssh is not None and ssh_server.ssh.app_pids() == [pid]
        assert not screen.closed.is_set()


async def test_a_key_offered_but_never_signed_opens_no_visit(
    ssh_server: C4Server, ssh_config: ServerConfig, alice_key: Path, bob_key: Path, tmp_path: Path
) -> None:
    """OpenSSH offers alice's public key (it cannot unlock its private half), then bob's.

    An attacker knows anybody's public key: offering it must not make the visit theirs.
    """
    public_only = locked_copy(alice_key, tmp_path / "alice_locked")
    options = ssh_options(door_port(ssh_server), bob_key)
    command = [
        ssh_client(),
        *options[:-2],
        "-i",
        str(public_only),
        *options[-2:],
        "-tt",
        "-v",
        "127.0.0.1",
    ]
    with subprocess.Popen(
        command, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    ) as client:
        try:
            assert await until(lambda: visit_rows(ssh_config) == 1)
            bob = fingerprint_of(bob_key.with_suffix(".pub").read_text("ascii"))
            assert visit_fingerprints(ssh_config) == [bob]
        finally:
            client.kill()
        said = client.communicate(timeout=10)[1].decode(errors="replace")
    assert f"Server accepts key: {public_only}" in said  # alice's was offered, and let in
    assert await until(lambda: visit_rows(ssh_config) == 0)


async def test_a_public_key_alone_never_authenticates(
    ssh_server: C4Server, ssh_config: ServerConfig, alice_key: Path, tmp_path: Path
) -> None:
    """OpenSSH offers alice's public key, cannot unlock its private half to sign: refused."""
    public_only = locked_copy(alice_key, tmp_path / "alice_locked")
    ran = await asyncio.to_thread(
        run_ssh, door_port(ssh_server), public_only, "-v", "-tt", "127.0.0.1", "true"
    )
    assert ran.returncode == 255
    assert f"Server accepts key: {public_only}" in ran.stderr  # offered, let in, never signed
    assert "Permission denied (publickey)" in ran.stderr
    assert visit_rows(ssh_config) == 0
    assert await until(lambda: door_visits(ssh_server) == 0)


async def test_a_flood_of_keys_unread_screen_leaves_others_served(
    ssh_server: C4Server, alice_key: Path, bob_key: Path
) -> None:
    """Megabytes typed at an app whose screen the visitor never reads; another plays on."""
    async with ssh(ssh_server, alice_key) as connection:
        channel, _ = await terminal(connection)
        alice = await the_app(ssh_server)
        channel.pause_reading()  # the screen is never read
        for _ in range(64):
            channel.write(b"\x1b[A" * 21_845 + b"x")  # 64 KiB of keys, 4 MiB in all
        assert await until(lambda: channel.get_write_buffer_size() == 0)  # all sent
        started = time.monotonic()
        with visitor(door_port(ssh_server), bob_key) as bob:
            await asyncio.to_thread(bob.wait_for, NEW_KEY)
        assert time.monotonic() - started < SECONDS
        assert ssh_server.ssh is not None and alice in ssh_server.ssh.app_pids()  # not cut


# ----- what goes wrong ---------------------------------------------------------------------


async def connect_and_abort(server: C4Server, key: Path, *, shell: bool) -> None:
    """Authenticate (and open the app's shell), then drop the connection at once."""
    connection = await connect(server, key)
    if shell:
        await terminal(connection)
    connection.abort()


async def test_a_hang_up_as_the_key_authenticates_leaves_no_visit(
    ssh_server: C4Server, ssh_config: ServerConfig, alice_key: Path
) -> None:
    for _ in range(5):
        await connect_and_abort(ssh_server, alice_key, shell=False)
    assert await until(lambda: door_visits(ssh_server) == 0)
    await until(lambda: visit_rows(ssh_config) == 0, 5)
    assert visit_rows(ssh_config) == 0  # measured: 20 rows left of 20 connections


async def test_a_hang_up_as_the_app_starts_leaves_no_app_running(
    ssh_server: C4Server, alice_key: Path
) -> None:
    try:
        for _ in range(8):
            await connect_and_abort(ssh_server, alice_key, shell=True)  # gone as the app starts
        assert await until(lambda: door_visits(ssh_server) == 0)
        await until(lambda: not visitor_apps_of_this_process(), 5)
        assert visitor_apps_of_this_process() == []  # measured: 9 apps left of 10
    finally:
        for pid in visitor_apps_of_this_process():  # the leaked ones, this test's own
            with contextlib.suppress(ProcessLookupError):
                os.killpg(pid, signal.SIGKILL)


@pytest.mark.parametrize(
    "size",
    [
        # once given to the app as asked: 65535 x 65535 made it take over a gigabyte
        pytest.param((65535, 65535), id="65535x65535"),
        # once past 65535 (ssh's sizes are 32 bits): struct.error, no app, nothing said
        pytest.param((70_000, 24), id="70000x24"),
    ],
)
async def test_an_absurd_terminal_gets_the_app_on_a_bounded_one(
    ssh_server: C4Server, alice_key: Path, size: tuple[int, int]
) -> None:
    async with ssh(ssh_server, alice_key) as connection:
        await terminal(connection, size)
        columns, rows = terminal_size(await the_app(ssh_server, 10))
    assert columns <= SANE_SIDE and rows <= SANE_SIDE


async def test_a_window_change_wider_than_65535_is_ignored(
    ssh_server: C4Server, alice_key: Path
) -> None:
    async with ssh(ssh_server, alice_key) as connection:
        channel, screen = await terminal(connection)
        pid = await the_app(ssh_server)
        channel.change_terminal_size(70_000, 70_000)
        channel.change_terminal_size(100, 30)
        assert await until(lambda: screen.closed.is_set() or terminal_size(pid) == (100, 30))
        assert not screen.closed.is_set()


async def test_idle_connections_that_never_authenticate_leave_room_for_visitors(
    ssh_server: C4Server, ssh_config: ServerConfig, alice_key: Path
) -> None:
    assert ssh_config.ssh is not None
    most = ssh_config.ssh.max_visitors
    port = door_port(ssh_server)
    elsewhere = ("127.0.0.2", 0)  # the idle sockets' own address: its slots, not the visitor's
    idle = [
        await asyncio.open_connection("127.0.0.1", port, local_addr=elsewhere) for _ in range(most)
    ]
    try:
        assert await until(lambda: ssh_server.slots.serving >= most)  # all of them counted
        async with ssh(ssh_server, alice_key) as connection:
            await terminal(connection)
    finally:
        for _, writer in idle:
            writer.close()


@pytest.fixture
def server_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The server's own home and data folder (what a visitor's app inherits), kept in tmp."""
    home = tmp_path / "server-home"
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_DATA_HOME", str(home / "data"))
    monkeypatch.delenv("XDG_CONFIG_HOME", raising=False)
    return home


def files_under(folder: Path) -> list[Path]:
    return sorted(p for p in folder.rglob("*") if p.is_file()) if folder.exists() else []


def the_palette_runs(terminal: Any, command: str) -> None:
    """ctrl+p, the command's name, enter: as any visitor may, on any screen."""
    terminal.press("\x10")
    terminal.wait_for("Search for commands")
    terminal.press(command)
    terminal.wait_for(command)
    terminal.press("enter")


def test_a_visitor_s_screenshot_stays_in_its_own_folder_and_goes_with_the_visit(
    server_home: Path, ssh_config: ServerConfig, alice_key: Path
) -> None:
    visitors = server_home / "data" / "c4tui" / "visitors"
    with server_in_a_thread(ssh_config) as server:
        with visitor(door_port(server), alice_key) as eve:
            eve.wait_for(NEW_KEY)
            the_palette_runs(eve, "Screenshot")
            eve.wait_for("Saved as")
            (picture,) = files_under(server_home)
            assert picture.is_relative_to(visitors) and picture.suffix == ".svg"
        assert asyncio.run(until(lambda: door_visits(server) == 0))  # its app has ended
        assert files_under(server_home) == []


def test_a_visitor_s_theme_is_not_kept_in_the_server_s_preferences(
    server_home: Path, ssh_config: ServerConfig, alice_key: Path
) -> None:
    with server_in_a_thread(ssh_config) as server, visitor(door_port(server), alice_key) as eve:
        eve.wait_for(NEW_KEY)
        the_palette_runs(eve, "Theme")
        eve.wait_for("c4tui-light")
        eve.press("c4tui-light")
        eve.press("enter")
        visits = server_home / "data" / "c4tui" / "visitors"
        kept = asyncio.run(until(lambda: any(visits.glob("*/c4tui/preferences.json")), 30))
        assert kept  # the theme is kept: in the visit's own folder
        assert files_under(server_home / ".config") == []  # never in the server's
