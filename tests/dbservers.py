"""Real database servers for tests: PostgreSQL and Redis on 127.0.0.1, each in a fresh folder.

Debian's binaries (``apt-get install postgresql redis-server``), started on a free
port of loopback, stopped and removed afterwards. Where a binary is missing the
tests that need it skip saying so, except on CI (``CI`` set), where they fail:
CI installs both. As root, PostgreSQL's ``initdb`` and ``postgres`` refuse to run,
so they run as the ``postgres`` user, in a folder made under /tmp for it (pytest's
own temporary folders sit under one that user cannot enter).
"""

from __future__ import annotations

import contextlib
import itertools
import os
import re
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import psycopg

from tests.needs import missing

#: Seconds a server has to start answering.
START_SECONDS = 30.0
#: The PostgreSQL user the tests connect as (trust authentication on loopback).
SUPERUSER = "postgres"


def free_port() -> int:
    """A TCP port of 127.0.0.1 that nothing listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def postgres_binaries() -> Path | None:
    """The newest of Debian's PostgreSQL versions' ``bin`` folders (else where PATH's is)."""
    versions = sorted(
        Path("/usr/lib/postgresql").glob("*/bin"),
        key=lambda folder: [int(part) for part in re.findall(r"\d+", folder.parent.name)],
    )
    if versions and (versions[-1] / "initdb").exists():
        return versions[-1]
    initdb = shutil.which("initdb")
    return None if initdb is None else Path(initdb).resolve().parent


def _as_postgres() -> str | None:
    """Whom PostgreSQL's programs run as: its own user when we are root (it refuses root)."""
    return SUPERUSER if os.geteuid() == 0 else None


def _server_folder(owner: str | None) -> Path:
    """A fresh folder under /tmp that ``owner`` (None: we) can enter and write."""
    folder = Path(tempfile.mkdtemp(prefix="c4tui-db-", dir="/tmp"))
    if owner is not None:
        shutil.chown(folder, owner, owner)
    return folder


@dataclass
class PostgresServer:
    """A running PostgreSQL: its folder, port and programs; ``database()`` makes a fresh one."""

    folder: Path
    port: int
    binaries: Path
    _names: Iterator[int] = field(default_factory=itertools.count)

    @property
    def url(self) -> str:
        """The server's own database, as the superuser."""
        return self.url_of("postgres")

    def url_of(self, database: str) -> str:
        """The address of ``database`` on this server."""
        return f"postgresql://{SUPERUSER}@127.0.0.1:{self.port}/{database}"

    def database(self) -> str:
        """A new, empty database on this server; its address."""
        name = f"test_{next(self._names)}"
        with psycopg.connect(self.url, autocommit=True) as connection:
            connection.execute(f"CREATE DATABASE {name}")
        return self.url_of(name)

    def drop(self, url: str) -> None:
        """Drop the database at ``url`` (made by ``database``), connections and all."""
        name = url.rsplit("/", 1)[1]
        with psycopg.connect(self.url, autocommit=True) as connection:
            connection.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")

    def postmaster_pid(self) -> int:
        """The server's first process (every connection's process is its child)."""
        return int((self.folder / "data" / "postmaster.pid").read_text().split()[0])

    def stop(self) -> None:
        """Stop at once (no checkpoint: nothing here is worth keeping) and remove the folder."""
        subprocess.run(
            [self.binaries / "pg_ctl", "stop", "-D", self.folder / "data", "-m", "immediate"],
            user=_as_postgres(),
            capture_output=True,
            check=False,
            timeout=START_SECONDS,
        )
        shutil.rmtree(self.folder, ignore_errors=True)


def start_postgres(fsync: bool = False) -> PostgresServer:
    """A new PostgreSQL cluster, started on a free port of 127.0.0.1 (skips if not installed).

    ``fsync`` off (the default) is for tests' speed: a crash of the machine would lose
    commits, a kill of a process (what the tests do) never does.
    """
    binaries = postgres_binaries()
    if binaries is None:
        missing("PostgreSQL", "postgresql")
    owner = _as_postgres()
    folder = _server_folder(owner)
    data, port = folder / "data", free_port()
    initdb = [binaries / "initdb", "-D", data, "-U", SUPERUSER, "-A", "trust", "--no-sync"]
    subprocess.run(
        [*initdb, "-E", "UTF8", "--locale=C"], user=owner, capture_output=True, check=True
    )
    options = (
        f"-p {port} -k {folder} -c listen_addresses=127.0.0.1 -c fsync={'on' if fsync else 'off'}"
    )
    server = PostgresServer(folder, port, binaries)
    started = subprocess.run(
        [binaries / "pg_ctl", "start", "-w", "-D", data, "-l", folder / "log", "-o", options],
        user=owner,
        capture_output=True,
        text=True,
        check=False,
        timeout=START_SECONDS,
    )
    if started.returncode != 0:
        log = (folder / "log").read_text() if (folder / "log").exists() else ""
        server.stop()
        raise RuntimeError(f"PostgreSQL did not start: {started.stderr}{log}")
    return server


@dataclass(frozen=True)
class RedisServer:
    """A running Redis: its URL, and its process (a bench reads the processor time it used)."""

    url: str
    pid: int


@contextlib.contextmanager
def redis_server() -> Iterator[str]:
    """A Redis server on a free port of 127.0.0.1, nothing saved; its URL (skips if missing)."""
    with running_redis() as redis:
        yield redis.url


@contextlib.contextmanager
def running_redis() -> Iterator[RedisServer]:
    """A Redis server on a free port of 127.0.0.1, nothing saved (skips if missing)."""
    binary = shutil.which("redis-server")
    if binary is None:
        missing("Redis", "redis-server")
    folder = Path(tempfile.mkdtemp(prefix="c4tui-redis-", dir="/tmp"))
    port = free_port()
    options = ["--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"]
    with (folder / "log").open("w") as log:  # the server has its own copy
        process = subprocess.Popen(
            [binary, *options, "--dir", str(folder)],
            stdout=log,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
        )
    try:
        _wait_for_pong(port, process)
        yield RedisServer(f"redis://127.0.0.1:{port}/0", process.pid)
    finally:
        process.terminate()
        process.wait(START_SECONDS)
        shutil.rmtree(folder, ignore_errors=True)


def _wait_for_pong(port: int, process: subprocess.Popen[bytes]) -> None:
    """Wait until the Redis server on ``port`` answers PING (raise if it exits or is slow)."""
    deadline = time.monotonic() + START_SECONDS
    while time.monotonic() < deadline and process.poll() is None:
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 1) as link:
            link.sendall(b"PING\r\n")
            if link.recv(64).startswith(b"+PONG"):
                return
        time.sleep(0.05)
    raise RuntimeError(f"Redis did not start on port {port} (exit status {process.poll()})")
