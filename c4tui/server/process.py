"""The ``c4tui serve`` process: its log, its event loop, its signals and its exit status."""

from __future__ import annotations

import asyncio
import logging
import signal
import sqlite3

from c4tui.net.tls import TlsSetupError
from c4tui.server.cluster.messages import BusLost
from c4tui.server.core import C4Server, ServerConfig
from c4tui.server.metrics_door import MetricsSetupError
from c4tui.server.program_ai import ProgramCheckFailed
from c4tui.server.ssh.settings import SshSetupError
from c4tui.server.store import StoreError
from c4tui.server.stores import EngineMissing
from c4tui.server.tuning import new_event_loop, raise_open_file_limit, tune_garbage_collector

log = logging.getLogger("c4tui.server")


def new_server(config: ServerConfig) -> C4Server:
    """One server, or with ``--bus`` one node of several (which loads Redis's client)."""
    if config.bus is None:
        return C4Server(config)
    from c4tui.server.cluster.node import ClusterNode  # noqa: PLC0415

    return ClusterNode(config)


async def run_server(config: ServerConfig) -> int:
    """Serve until Ctrl-C or SIGTERM (or a node must stop); the exit status."""
    try:
        server = new_server(config)
    except EngineMissing as error:
        log.error("%s", error)
        return 1
    try:
        await server.ai.check()  # a program that will not start or answer stops us here
        await server.start()
    except BusLost as error:  # before OSError, which it is
        log.error("cannot join the other nodes: %s", error)
        await server.stop()
        return 1
    except (OSError, sqlite3.Error, StoreError) as error:
        if isinstance(error, (sqlite3.Error, StoreError)):
            log.error("cannot open the database %s: %s", server.lobby.store.location, error)
        else:
            log.error("cannot listen on %s:%d: %s", config.host, config.port, error.strerror)
        server.pool.shutdown()
        await server.lobby.store.close()
        return 1
    except (TlsSetupError, MetricsSetupError, SshSetupError) as error:  # a file, a port taken
        log.error("%s", error)
        await server.stop()
        return 1
    except ProgramCheckFailed as error:
        log.error("%s", error)
        server.pool.shutdown()
        return 1
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(signum, stop.set)
    await server.serve_until(stop)
    return server.exit_status


def serve(config: ServerConfig) -> int:
    """Entry point of ``c4tui serve``: log to standard error, run, exit cleanly."""
    logging.basicConfig(
        level=logging.INFO, format="%(asctime)s c4tui-serve %(message)s", datefmt="%H:%M:%S"
    )
    raise_open_file_limit()
    tune_garbage_collector()
    try:
        with asyncio.Runner(loop_factory=new_event_loop) as runner:
            return runner.run(run_server(config))
    except KeyboardInterrupt:  # a second Ctrl-C while stopping
        return 130
