"""Nodes of one lobby for the tests: ``c4tui serve --db postgresql://… --bus redis://…``."""

from __future__ import annotations

import asyncio
import signal
import subprocess
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from tests.net.lobby_client import LobbyClient
from tests.net.test_serve_command import start

#: Seconds a dropped player has to come back: long enough for a node's death and takeover.
GRACE = "30"
#: Seconds a whole conversation may take (a takeover included).
CONVERSATION_SECONDS = 60
#: Seconds a node has to say what the tests wait for in its log.
LOG_SECONDS = 30.0


@dataclass
class Node:
    """One running node: its process, lobby port and log."""

    name: str
    process: subprocess.Popen[bytes]
    port: int
    log: Path

    def said(self, text: str) -> bool:
        return text in self.log.read_text()

    def wait_until_said(self, text: str, seconds: float = LOG_SECONDS) -> None:
        deadline = time.monotonic() + seconds
        while not self.said(text):
            if time.monotonic() > deadline:
                log = self.log.read_text()
                raise AssertionError(f"node {self.name} never said {text!r}:\n{log}")
            time.sleep(0.05)

    def kill(self) -> None:
        """kill -9: no goodbye, no last write."""
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(10)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(5)


@dataclass
class Cluster:
    """Nodes sharing one database and one bus; the first started leads."""

    folder: Path
    database: str
    bus: str
    nodes: list[Node] = field(default_factory=list)

    def start(self, name: str, *options: str) -> Node:
        """Start node ``name`` and wait until it is on the bus."""
        log = self.folder / f"{name}.log"
        process, port = start(
            log,
            *("--db", self.database, "--bus", self.bus, "--node", name),
            *("--bcrypt-rounds", "4", "--reconnect-grace", GRACE, *options),
        )
        node = Node(name, process, port, log)
        self.nodes.append(node)
        node.wait_until_said("joined the bus")
        return node

    def stop(self) -> None:
        for node in self.nodes:
            node.stop()


def two_nodes(folder: Path, database: str, bus: str) -> Iterator[tuple[Node, Node]]:
    """Node ``a``, leading once started, and node ``b`` beside it."""
    cluster = Cluster(folder, database, bus)
    try:
        first = cluster.start("a")
        first.wait_until_said("leads the lobby now")
        yield first, cluster.start("b")
    finally:
        cluster.stop()


async def logged_in_again(port: int, user: str, seconds: float = LOG_SECONDS) -> LobbyClient:
    """``user`` logs in on the node at ``port`` once it serves the lobby again (tries again)."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            client = await LobbyClient.connect(port)
            if await client.ask(f"LOGIN:{user}:pw") == "LOGIN:ACKSTATUS:0":
                return client
            await client.close()
        except OSError:
            pass  # the node is not listening (yet)
        if time.monotonic() > deadline:
            raise AssertionError(f"{user} could not log in again on port {port}")
        await asyncio.sleep(0.2)
