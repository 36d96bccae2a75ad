"""Which network servers this app may reach: any, or (served to visitors) only those allowed.

A browser visitor's app (``c4tui web``): every browser tab gets its own app process
from the web server. Its files and this host's name are off limits, it may reach only
the servers it was given, and it ends with its web server. An ssh visitor's app
(``c4tui serve --ssh-port``) is one too, with one server: the lobby of the server
it is served by, where its key is its account (``key``).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from c4tui.match.backends import Backend, PersonBackend
from c4tui.match.backends.online import RoomSeat
from c4tui.match.settings import MatchSettings
from c4tui.net.address import parse_host, parse_port
from c4tui.protocols.ssh_visit import KeyVisit

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


#: The menu's line for Online, over ssh: no server to name, the key logs in.
SSH_ONLINE_NOTE = (
    "Online: play people in this server's lobby, or watch them. Your ssh key logs you in."
)
#: How often a browser visitor's app looks whether its web server is still there.
SERVER_CHECK_SECONDS = 2.0


@dataclass(frozen=True)
class Visit:
    """The app is served to a browser, and may reach only ``servers`` (none: no network)."""

    servers: Servers
    #: The visitor's web server (the app's parent process, from the start).
    server_pid: int = field(default_factory=os.getppid)
    #: An ssh visit: the one server is its lobby, where the visitor's key logs in.
    key: KeyVisit | None = None

    @classmethod
    def over_ssh(cls, key: KeyVisit) -> Visit:
        """An ssh visitor's limits: its server's lobby, no other server, no program."""
        return cls((key.lobby,), key=key)

    def defaults(self, settings: MatchSettings) -> MatchSettings:
        """A visitor's defaults: the first allowed server, no name taken from this host.

        An ssh visitor opens in its lobby (its key logs in there, or makes an account).
        """
        name = self.key.name if self.key is not None and self.key.name else "player"
        options = {**settings.options, "user": settings.options.get("user", name)}
        if self.servers:
            host, port = self.servers[0]
            options.update(host=host, port=str(port))
        return replace(settings, options=options)

    def menu_notes(self) -> dict[str, str]:
        """What the menu says of a mode otherwise for this visitor: Online, over ssh."""
        if self.key is None:
            return {}
        return {RoomSeat.key: SSH_ONLINE_NOTE}

    def playable(self, settings: MatchSettings) -> MatchSettings:
        """``settings`` as a visitor may play them: never against a program.

        A saved game against one is played on by two players: the program's command
        would run on this machine.
        """
        if settings.kind.runs_commands:
            return replace(settings, opponent=PersonBackend.key, options={})
        return settings

    def offered(self, kinds: tuple[type[Backend], ...]) -> tuple[type[Backend], ...]:
        """The opponents a visitor is offered: network ones only if a server is allowed.

        Never a program: it would run a visitor's command on this machine.
        """
        kinds = tuple(kind for kind in kinds if not kind.runs_commands)
        if self.key is not None:  # the door's own lobby, never its other protocols
            return tuple(kind for kind in kinds if kind.lobby or not kind.remote)
        if self.servers:
            return kinds
        return tuple(kind for kind in kinds if not kind.remote)

    def server_gone(self) -> bool:
        """True once the web server has ended, however it ended.

        Textual's web driver goes on running when the server stops talking to it, so a
        server killed without goodbyes would leave its visitors' apps running for ever.
        Once the server is gone this process has another parent.
        """
        return os.getppid() != self.server_pid
