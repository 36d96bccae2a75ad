"""The cluster's deploy files (assets/deploy) agree with c4tui and with each other.

Docker is not needed: the compose file's nodes must run options ``c4tui serve``
accepts, as a cluster (PostgreSQL, Redis, a name each); HAProxy must balance exactly
those nodes, on the port they listen on, and wait longer than their idle timeout;
the image must be built from files that exist; Prometheus must scrape every node, whose
metrics stay inside the compose network; every node serves the app over ssh with the one
host key the operator made, and HAProxy passes that port to exactly those nodes, with the
same limit per address. ``haproxy -c`` checks the balancer's file where HAProxy is
installed.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml

from c4tui.cli import build_parser
from c4tui.net.address import DEFAULT_PORT

DEPLOY = Path(__file__).parent.parent / "assets" / "deploy"
REPOSITORY = DEPLOY.parent.parent
#: HAProxy's time units, in seconds.
UNITS = {"ms": 0.001, "s": 1, "m": 60, "h": 3600, "d": 86400}


def compose() -> dict[str, Any]:
    loaded: dict[str, Any] = yaml.safe_load((DEPLOY / "compose.yaml").read_text())
    return loaded


def nodes() -> dict[str, argparse.Namespace]:
    """Each c4tui service's ``c4tui serve`` options, as c4tui itself parses them."""
    found = {}
    for name, service in compose()["services"].items():
        if "build" not in service:
            continue
        program, *arguments = [*service["entrypoint"], *service.get("command", [])]
        assert program == "c4tui", name
        found[name] = build_parser().parse_args(arguments)
    return found


def serve_options() -> set[str]:
    """Every option ``c4tui serve --help`` names (argparse would also take abbreviations)."""
    shown = io.StringIO()
    with contextlib.redirect_stdout(shown), pytest.raises(SystemExit):
        build_parser().parse_args(["serve", "--help"])
    return set(re.findall(r"--[a-z0-9-]+", shown.getvalue()))


def haproxy_lines() -> list[list[str]]:
    """haproxy.cfg's settings, each split into words, comments left out."""
    lines = (DEPLOY / "haproxy.cfg").read_text().splitlines()
    return [words for line in lines if (words := line.partition("#")[0].split())]


def haproxy_section(name: str) -> list[list[str]]:
    """The settings of one section of haproxy.cfg (``backend nodes``), its heading left out."""
    sections: dict[str, list[list[str]]] = {}
    current: list[list[str]] = []
    for words in haproxy_lines():
        if words[0] in {"global", "defaults", "frontend", "backend", "listen", "resolvers"}:
            current = sections.setdefault(" ".join(words[:2]), [])
        else:
            current.append(words)
    return sections[name]


def seconds(value: str) -> float:
    """A HAProxy time (``5s``, ``1h``; a bare number is milliseconds) in seconds."""
    number = value.rstrip("abcdefghijklmnopqrstuvwxyz")
    return int(number) * UNITS[value.removeprefix(number) or "ms"]


def test_the_nodes_form_one_cluster_with_options_serve_accepts() -> None:
    found = nodes()
    assert len(found) >= 2
    for args in found.values():
        assert args.command == "serve"
        assert args.db.startswith("postgresql://")
        assert args.bus.startswith("redis://")
        assert args.host == "0.0.0.0"
    assert len({args.db for args in found.values()}) == 1
    assert len({args.bus for args in found.values()}) == 1
    assert len({args.node for args in found.values()}) == len(found)


def test_the_nodes_spell_every_option_in_full() -> None:
    accepted = serve_options()
    for name, service in compose()["services"].items():
        if "build" in service:
            arguments = [*service["entrypoint"], *service.get("command", [])]
            options = {word for word in arguments if word.startswith("--")}
            assert options <= accepted, name


def test_the_nodes_come_back_after_stopping() -> None:
    services = compose()["services"]
    for name in nodes():
        assert services[name]["restart"] == "unless-stopped", name


def test_no_password_is_written_in_the_compose_file() -> None:
    for args in nodes().values():
        assert "@" not in args.bus
        assert ":" not in args.db.removeprefix("postgresql://").split("@")[0]
    postgres = compose()["services"]["postgres"]["environment"]
    assert postgres["POSTGRES_PASSWORD"].startswith("${")


def test_haproxy_balances_exactly_the_nodes_on_their_port() -> None:
    backend = haproxy_section("backend nodes")
    servers = {(line[1], line[2]) for line in backend if line[0] == "server"}
    expected = {(name, f"{name}:{args.port or DEFAULT_PORT}") for name, args in nodes().items()}
    assert servers == expected


def test_haproxy_waits_longer_than_a_node_for_a_silent_client() -> None:
    timeouts = {line[1]: seconds(line[2]) for line in haproxy_lines() if line[0] == "timeout"}
    idle = max(args.idle_timeout for args in nodes().values())
    assert min(timeouts["client"], timeouts["server"]) > idle
    assert ["mode", "tcp"] in haproxy_lines()
    assert ["balance", "leastconn"] in haproxy_lines()


def test_the_image_is_built_from_files_that_exist() -> None:
    dockerfile = (DEPLOY / "Dockerfile").read_text()
    copied = [line.split()[1:-1] for line in dockerfile.splitlines() if line.startswith("COPY")]
    sources = [source for sources in copied for source in sources]
    assert sources
    for source in sources:
        assert (REPOSITORY / source).exists(), source
    assert "'.[server,ssh]'" in dockerfile
    builds = [s["build"] for s in compose()["services"].values() if "build" in s]
    for build in builds:
        assert (DEPLOY / build["context"] / build["dockerfile"]).resolve() == DEPLOY / "Dockerfile"


def test_haproxy_accepts_its_configuration() -> None:
    haproxy = shutil.which("haproxy")
    if haproxy is None:
        pytest.skip("HAProxy is not installed: apt-get install haproxy")
    checked = subprocess.run(
        [haproxy, "-c", "-f", DEPLOY / "haproxy.cfg"], capture_output=True, text=True, check=False
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr


def prometheus() -> dict[str, Any]:
    loaded: dict[str, Any] = yaml.safe_load((DEPLOY / "prometheus.yml").read_text())
    return loaded


def test_every_node_serves_its_metrics_to_the_compose_network_only() -> None:
    services = compose()["services"]
    for name, args in nodes().items():
        assert args.metrics_port, name
        assert args.metrics_host == "0.0.0.0", name  # reached by Prometheus's container…
        assert "ports" not in services[name], name  # …and published to nobody
        assert services[name]["networks"] == ["back"], name
    assert compose()["networks"]["back"]["internal"] is True


def test_prometheus_scrapes_every_node_on_its_metrics_port() -> None:
    jobs = prometheus()["scrape_configs"]
    targets = {
        target
        for job in jobs
        if job.get("metrics_path", "/metrics") == "/metrics"
        for group in job["static_configs"]
        for target in group["targets"]
    }
    assert targets == {f"{name}:{args.metrics_port}" for name, args in nodes().items()}


def test_prometheus_runs_with_that_configuration_beside_the_nodes() -> None:
    service = compose()["services"]["prometheus"]
    assert "./prometheus.yml:/etc/prometheus/prometheus.yml:ro" in service["volumes"]
    assert "back" in service["networks"]  # where the nodes are
    assert set(service["depends_on"]) == set(nodes())
    for published in service.get("ports", []):
        assert str(published).startswith("127.0.0.1:"), published  # its page: this machine
    assert service["restart"] == "unless-stopped"


def test_promtool_accepts_the_prometheus_configuration() -> None:
    promtool = shutil.which("promtool")
    if promtool is None:
        pytest.skip("promtool (Prometheus's) is not installed")
    checked = subprocess.run(
        [promtool, "check", "config", DEPLOY / "prometheus.yml"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr


#: Where the operator makes the ssh host key (README.md, "With Docker"), beside .env.
HOST_KEY = "./ssh_host_ed25519_key"


def test_every_node_serves_the_app_over_ssh_with_the_one_host_key_made_beside_it() -> None:
    services = compose()["services"]
    found = nodes()
    assert len({args.ssh_port for args in found.values()}) == 1
    for name, args in found.items():
        assert args.ssh_port, name
        mounts = {volume["target"]: volume for volume in services[name]["volumes"]}
        mount = mounts[str(args.ssh_host_key)]  # a ssh that warns is a ssh players distrust
        assert mount["source"] == HOST_KEY, name
        assert mount["type"] == "bind" and mount["read_only"] is True, name
        assert mount["bind"]["create_host_path"] is False, name  # missing: compose says so


def test_haproxy_passes_the_ssh_port_to_exactly_the_nodes_that_serve_the_lobby() -> None:
    ssh_port = {args.ssh_port for args in nodes().values()}.pop()
    assert ["bind", f":{ssh_port}"] in haproxy_section("frontend ssh")
    servers = [line for line in haproxy_section("backend ssh") if line[0] == "server"]
    expected = {(name, f"{name}:{ssh_port}", "track", f"nodes/{name}") for name in nodes()}
    assert {tuple(line[1:]) for line in servers} == expected
    published = compose()["services"]["haproxy"]["ports"]
    assert f"{ssh_port}:{ssh_port}" in published


def test_haproxy_limits_an_address_on_both_ports_together_as_a_node_would() -> None:
    limit = build_parser().parse_args(["serve"]).max_per_address
    reject = f"tcp-request connection reject if {{ sc0_conn_cur gt {limit} }}".split()
    lobby, ssh = haproxy_section("frontend lobby"), haproxy_section("frontend ssh")
    assert reject in lobby and reject in ssh
    assert ["tcp-request", "connection", "track-sc0", "src"] in lobby
    assert ["tcp-request", "connection", "track-sc0", "src", "table", "lobby"] in ssh


def test_the_image_serves_ssh_and_keeps_the_operators_secrets_out() -> None:
    exposed = [
        word
        for line in (DEPLOY / "Dockerfile").read_text().splitlines()
        if line.startswith("EXPOSE")
        for word in line.split()[1:]
    ]
    for args in nodes().values():
        assert {str(args.port or DEFAULT_PORT), str(args.ssh_port)} <= set(exposed)
    ignored = (DEPLOY / "Dockerfile.dockerignore").read_text().splitlines()
    assert ignored.index("assets/deploy") > ignored.index("!assets")  # the later rule wins
    kept_out_of_git = (DEPLOY / ".gitignore").read_text().splitlines()
    assert {".env", HOST_KEY.removeprefix("./")} <= set(kept_out_of_git)
