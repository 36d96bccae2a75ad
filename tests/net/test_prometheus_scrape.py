"""A real Prometheus scrapes a real server's metrics (skipped where Prometheus is not installed).

What ``prometheus_client``'s parser reads is not all Prometheus asks of a target: its
HTTP, its content type. Here Prometheus itself says the target is up and holds the
values the server counted.
"""

from __future__ import annotations

import asyncio
import json
import shutil
import socket
import subprocess
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

import pytest

from tests.net.lobby_client import lobby_server, logged_in

#: Seconds Prometheus may take to start, find its target and scrape it twice.
PROMETHEUS_SECONDS = 60


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def asked(web: int, path: str, **query: str) -> dict[str, object]:
    """Prometheus's HTTP API at ``path``: its ``data`` (URLError while it is not up)."""
    url = f"http://127.0.0.1:{web}/api/v1/{path}?{urllib.parse.urlencode(query)}"
    with urllib.request.urlopen(url, timeout=5) as answer:
        data: dict[str, object] = json.loads(answer.read())["data"]
        return data


def registrations_seen(web: int) -> float | None:
    """c4tui_registrations_total as Prometheus last scraped it (None: not yet)."""
    try:
        data = asked(web, "query", query="c4tui_registrations_total")
    except (urllib.error.URLError, OSError):
        return None
    result = data["result"]
    assert isinstance(result, list)
    return float(result[0]["value"][1]) if result else None


async def test_a_real_prometheus_scrapes_the_server(tmp_path: Path) -> None:
    prometheus = shutil.which("prometheus")
    if prometheus is None:
        pytest.skip("Prometheus is not installed (apt-get install prometheus)")
    async with lobby_server(tmp_path, metrics_port=0) as server:
        client = await logged_in(server.port, "ann")
        config = tmp_path / "prometheus.yml"
        target = f"127.0.0.1:{server.metrics_door.port}"
        config.write_text(
            "global: {scrape_interval: 1s, scrape_timeout: 1s}\n"
            f"scrape_configs: [{{job_name: c4tui, static_configs: [{{targets: ['{target}']}}]}}]\n"
        )
        web = free_port()
        command = [prometheus, f"--config.file={config}", f"--web.listen-address=127.0.0.1:{web}"]
        command.append(f"--storage.tsdb.path={tmp_path / 'data'}")
        with (tmp_path / "prometheus.log").open("w") as log:
            process = subprocess.Popen(command, stdout=log, stderr=log)
        try:
            deadline = time.monotonic() + PROMETHEUS_SECONDS
            while await asyncio.to_thread(registrations_seen, web) != 1:
                assert process.poll() is None, (tmp_path / "prometheus.log").read_text()
                assert time.monotonic() < deadline, (tmp_path / "prometheus.log").read_text()
                await asyncio.sleep(0.5)
            targets = await asyncio.to_thread(asked, web, "targets")
            (active,) = targets["activeTargets"]  # type: ignore[misc]
            assert active["health"] == "up" and active["lastError"] == ""
        finally:
            process.terminate()
            process.wait(30)
        await client.close()
