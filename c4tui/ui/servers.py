"""Which network servers this app may reach: any, or (served to browsers) only those allowed."""

from __future__ import annotations

from collections.abc import Mapping

from c4tui.net.address import parse_host, parse_port

Servers = tuple[tuple[str, int], ...]


def server_refusal(values: Mapping[str, str], allowed: Servers | None) -> str | None:
    """Why the host and port in ``values`` may not be used here, or None when they may."""
    if allowed is None:
        return None
    try:
        server = (parse_host(values.get("host", "")), parse_port(values.get("port", "")))
    except ValueError:
        return None  # the field's own check explains it
    if server in allowed:
        return None
    if not allowed:
        return "This site plays no network games."
    offered = ", ".join(f"{host}:{port}" for host, port in allowed)
    return f"This site lets you play only on: {offered}."
