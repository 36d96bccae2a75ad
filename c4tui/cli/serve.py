"""``c4tui serve``: the Connect Four server.

AI games in three protocols on one port, the lobby's rooms, and tic-tac-toe rooms
on a second port.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from c4tui.cli.choices import LEVELS, move_seconds, program_or_level
from c4tui.cli.confine import add_confinement_options, limits_from
from c4tui.cli.types import (
    CommandTable,
    listening_port,
    number_from,
    positive_count,
    seconds,
    usage_error,
)
from c4tui.match.backends.computer import LEVEL_OPTION
from c4tui.match.backends.program import DEFAULT_MOVE_SECONDS, KAGGLE_SUBMISSIONS
from c4tui.net.address import DEFAULT_PORT
from c4tui.protocols.limits import DEFAULT_IDLE_TIMEOUT, MAX_ROOMS
from c4tui.protocols.public import CHAT_LINES, CHAT_SECONDS, REGISTRATIONS_PER_HOUR
from c4tui.server.limits import (
    DEFAULT_MAX_CONNECTIONS,
    DEFAULT_MAX_PER_ADDRESS,
    DEFAULT_MAX_PROGRAMS,
    DEFAULT_RECONNECT_GRACE,
    DEFAULT_ROUNDS,
)
from c4tui.server.ssh.settings import DEFAULT_MAX_VISITORS, SshSettings

#: The longest grace ``--reconnect-grace`` allows: a day.
MAX_RECONNECT_GRACE = 86_400
#: Where ``--metrics-port`` serves unless told otherwise: this machine only.
METRICS_HOST = "127.0.0.1"
#: The most ``--max-registrations`` and ``--chat-rate`` may say (0 turns either off).
MAX_RATE = 1_000_000


@dataclass(frozen=True)
class _Number:
    """An option that takes a number (a limit, a count, seconds): its type, default and words.

    ``metavar`` None: argparse's own (the option's name in capitals).
    """

    option: str
    kind: Callable[[str], object]
    default: object
    words: str
    metavar: str | None = None


def _add_numbers(serve: argparse.ArgumentParser, numbers: Sequence[_Number]) -> None:
    """Add each of ``numbers`` to ``serve``."""
    for number in numbers:
        serve.add_argument(
            number.option,
            type=number.kind,
            default=number.default,
            metavar=number.metavar,
            help=number.words,
        )


def _rate(option: str, default: int, words: str) -> _Number:
    """A limit on how often (``--max-registrations``, ``--chat-rate``): 0 turns it off."""
    kind = number_from(0, MAX_RATE)
    return _Number(option, kind, default, f"{words} 0: no limit. Default %(default)s", "N")


_MAX_PROGRAMS = _Number(
    "--max-programs",
    positive_count,
    DEFAULT_MAX_PROGRAMS,
    "processes of a program (--ai engine:… or kaggle:…) running at once, one per game; a "
    "client beyond them is refused at once (its protocol's ERROR); default %(default)s "
    "(twice the cores)",
    "N",
)
#: How many clients, from where, how long a silent one is kept, and how often one may act.
_LIMITS = (
    _Number(
        "--max-connections",
        positive_count,
        DEFAULT_MAX_CONNECTIONS,
        "clients served at once; more are refused (ERROR); default %(default)s",
    ),
    _Number(
        "--max-per-address",
        positive_count,
        DEFAULT_MAX_PER_ADDRESS,
        "clients served at once from one address (IPv6: one /64), so one machine cannot take "
        "every slot; default %(default)s",
    ),
    _Number(
        "--idle-timeout",
        seconds,
        DEFAULT_IDLE_TIMEOUT,
        "seconds of silence before hanging up on a client that has not logged in or is in no "
        "room (a player waiting or thinking is never cut off); default %(default)s",
    ),
    _rate(
        "--max-registrations",
        REGISTRATIONS_PER_HOUR,
        "lobby accounts one address (IPv6: one /64) may try to register in an hour; more are "
        "answered REGISTER:ACKSTATUS:3.",
    ),
    _rate(
        "--chat-rate",
        CHAT_LINES,
        f"chat lines one lobby user may say in {CHAT_SECONDS} seconds; more are answered "
        "CHAT:ACKSTATUS:2 and reach nobody.",
    ),
)
#: The lobby's numbers: its rooms, a dropped player's grace, the passwords' cost.
_LOBBY_NUMBERS = (
    _Number(
        "--max-rooms",
        positive_count,
        MAX_ROOMS,
        "rooms the lobby holds at once; default %(default)s (the protocol's limit: raise it "
        "only for clients that allow more)",
        "N",
    ),
    _Number(
        "--reconnect-grace",
        number_from(0, MAX_RECONNECT_GRACE),
        DEFAULT_RECONNECT_GRACE,
        "seconds a lobby player whose connection drops mid-game has to log in again and go "
        "on (its opponent is told AWAY); then it forfeits. 0: it forfeits at once. "
        "Tic-tac-toe players always forfeit at once. Default %(default)s",
        "S",
    ),
    _Number(
        "--bcrypt-rounds",
        number_from(4, 15),
        DEFAULT_ROUNDS,
        "the cost of hashing passwords (log2); default %(default)s. Lower it only for tests "
        "and benchmarks: it is what makes stolen hashes slow to crack",
        "4-15",
    ),
)


def add_parser(commands: CommandTable) -> None:
    """Register ``serve``, its options and its ``run``."""
    serve = commands.add_parser(
        "serve",
        description=(
            "Run a Connect Four server: clients play against its AI in any of three "
            "protocols on the same port, told apart by their first bytes: I32CFSP "
            "(I32CFSP_HELLO ...), CFSP (GAME rows columns ...) and C4N (C4N 1.0 START); and a "
            "lobby where people play each other in rooms, with viewers (LOGIN:/REGISTER:); "
            "with --tictactoe-port, tic-tac-toe rooms for INFO1112 clients on a second port; "
            "with --tls-cert and --tls-key, the lobby over TLS on a port of its own. "
            "Logs one line per connection to standard error. Stop it with Ctrl-C."
        ),
    )
    _add_listening_options(serve)
    _add_limits(serve)
    _add_lobby_options(serve)
    _add_tls_options(serve)
    _add_cluster_options(serve)
    _add_metrics_options(serve)
    _add_ssh_options(serve)
    add_confinement_options(serve)
    serve.add_argument(
        "--ai-first",
        action="store_true",
        help="in C4N the AI drops the first disc, as the reference C4N server does "
        "(I32CFSP and CFSP clients always move first)",
    )
    serve.set_defaults(run=run)


def _add_listening_options(serve: argparse.ArgumentParser) -> None:
    """Where the server listens, and how its AI plays."""
    serve.add_argument(
        "--host", default="127.0.0.1", help="address to listen on; default %(default)s"
    )
    serve.add_argument(
        "--port",
        type=listening_port,
        default=DEFAULT_PORT,
        help="port to listen on (0: any); default %(default)s",
    )
    serve.add_argument(
        "--tictactoe-port",
        type=listening_port,
        metavar="PORT",
        help="also serve tic-tac-toe rooms on PORT (0: any), in the INFO1112 assignment's "
        "protocol, for its clients and `c4tui tictactoe`; accounts are the lobby's",
    )
    serve.add_argument(
        "--ai",
        type=ai_name,
        default=LEVEL_OPTION.default_value(),
        metavar="AI",
        help=f"the AI the server plays with: a level ({', '.join(LEVELS)}), engine:COMMAND "
        f"(a program speaking the engine protocol) or kaggle:AGENT (a Kaggle ConnectX "
        f"agent, {KAGGLE_SUBMISSIONS}: classic games only); each game gets its own process "
        "of a program, tried once at start-up; default %(default)s",
    )
    serve.add_argument(
        "--seconds",
        type=move_seconds,
        default=DEFAULT_MOVE_SECONDS,
        metavar="S",
        help="a program's time for each move; past it, it loses the game (the client "
        "wins); default %(default)g",
    )
    _add_numbers(serve, [_MAX_PROGRAMS])


def ai_name(text: str) -> str:
    """``--ai``'s type: a level or an outside program (ArgumentTypeError in words)."""
    return program_or_level(text, "a level")


def _add_limits(serve: argparse.ArgumentParser) -> None:
    """How many clients, from where, and how long a silent one is kept."""
    _add_numbers(serve, _LIMITS)


def _add_lobby_options(serve: argparse.ArgumentParser) -> None:
    """The lobby's accounts and rooms."""
    serve.add_argument(
        "--db",
        metavar="PATH|URL",
        help="the lobby's database of accounts and games: a SQLite file (created if missing, "
        "an older accounts-only file is upgraded) or a PostgreSQL URL "
        "(postgresql://user:password@host/name; needs the server extra: "
        "python3 -m pip install '.[server]'); "
        "default: accounts.sqlite3 in your user data directory",
    )
    _add_numbers(serve, _LOBBY_NUMBERS)


def _add_tls_options(serve: argparse.ArgumentParser) -> None:
    """The lobby over TLS: its certificate, its key and its port."""
    serve.add_argument(
        "--tls-cert",
        type=Path,
        metavar="FILE",
        help="also serve the lobby (only the lobby) over TLS, with this certificate "
        "(PEM, the chain after it); needs --tls-key. See c4tui/server/README.md for making one",
    )
    serve.add_argument(
        "--tls-key", type=Path, metavar="FILE", help="the certificate's private key (PEM)"
    )
    serve.add_argument(
        "--tls-port",
        type=listening_port,
        metavar="PORT",
        help="where the lobby is served over TLS (0: any free port); "
        "default: the --port number + 1 (any free port with --port 0)",
    )


def _add_cluster_options(serve: argparse.ArgumentParser) -> None:
    """Several nodes serving one lobby: the bus that joins them, this node's name."""
    serve.add_argument(
        "--bus",
        metavar="URL",
        help="join the other nodes serving this lobby through Redis (redis://HOST:PORT/0); "
        "needs --db postgresql://… shared by every node. One node leads the lobby at a "
        "time; if it dies another takes its games over from the database. Redis's "
        "password, if any, from the URL or else REDISCLI_AUTH (kept out of the process "
        "list). See c4tui/server/cluster/README.md",
    )
    serve.add_argument(
        "--node",
        metavar="NAME",
        help="this node's name in the logs (with --bus); default: the host's name",
    )


def _add_metrics_options(serve: argparse.ArgumentParser) -> None:
    """The operator's series for Prometheus: where they are served."""
    serve.add_argument(
        "--metrics-port",
        type=listening_port,
        metavar="PORT",
        help="serve the server's metrics (connections, logins, games, moves, the moves' "
        "commit time, chat, reports, bans) for Prometheus at http://HOST:PORT/metrics "
        "(0: any free port); each node of several serves its own. Default: not served",
    )
    serve.add_argument(
        "--metrics-host",
        metavar="HOST",
        help="the address the metrics are served on (with --metrics-port); default "
        f"{METRICS_HOST}: this machine only. Open them to your Prometheus, not to everyone",
    )


def _add_ssh_options(serve: argparse.ArgumentParser) -> None:
    """The whole app over ssh: its port, its host key, how many visitors, and guests."""
    serve.add_argument(
        "--ssh-port",
        type=listening_port,
        metavar="PORT",
        help="also serve the whole app over ssh on PORT (0: any free port), one app process a "
        "visitor: `ssh -p PORT HOST` plays, nothing to install. A visitor's ssh key is their "
        "lobby account (public keys only: no passwords over ssh, no commands, no sftp, no "
        "forwarding). Needs the ssh extra: python3 -m pip install '.[ssh]'. Default: not served",
    )
    serve.add_argument(
        "--ssh-host-key",
        type=Path,
        metavar="FILE",
        help="the ssh host key (OpenSSH's private key file); default: one made at the first "
        "start and kept in c4tui's data folder. Its fingerprint is logged at every start",
    )
    serve.add_argument(
        "--ssh-max-visitors",
        type=positive_count,
        default=DEFAULT_MAX_VISITORS,
        metavar="N",
        help="ssh visitors at once, each an app process; more are told the server is full; "
        "default %(default)s",
    )
    serve.add_argument(
        "--ssh-guests",
        action="store_true",
        help="let ssh keys without an account play against the computer or a friend at the "
        "same keyboard without making one (online play always needs an account)",
    )


def _ssh_settings(args: argparse.Namespace) -> SshSettings | None:
    """What ``--ssh-port`` and its options ask for (status 2 for options without it)."""
    if args.ssh_port is None:
        given = args.ssh_host_key is not None or args.ssh_guests
        if given or args.ssh_max_visitors != DEFAULT_MAX_VISITORS:
            usage_error(
                "serve", "--ssh-host-key, --ssh-max-visitors and --ssh-guests need --ssh-port"
            )
        return None
    try:
        import asyncssh  # noqa: F401, PLC0415 (only to say it is missing, in words)
    except ImportError:
        usage_error("serve", "--ssh-port needs asyncssh: python3 -m pip install 'c4tui[ssh]'")
    return SshSettings(
        port=args.ssh_port,
        host_key=args.ssh_host_key,
        max_visitors=args.ssh_max_visitors,
        guests=args.ssh_guests,
        idle_seconds=args.idle_timeout,
    )


def _check_metrics(args: argparse.Namespace) -> None:
    """Refuse a metrics address without a metrics port (status 2)."""
    if args.metrics_host is not None and args.metrics_port is None:
        usage_error("serve", "--metrics-host says where --metrics-port serves: it needs it")


def _check_cluster(args: argparse.Namespace) -> None:
    """Refuse a bus without a shared database, or addresses that are neither (status 2)."""
    if args.bus is None:
        if args.node is not None:
            usage_error("serve", "--node names a node of several: it needs --bus")
        return
    if not args.bus.startswith(("redis://", "rediss://", "unix://")):
        usage_error("serve", f"--bus takes Redis's address (redis://HOST:PORT/0), not {args.bus!r}")
    if not str(args.db or "").startswith(("postgresql://", "postgres://")):
        usage_error(
            "serve",
            "--bus needs --db postgresql://…: the nodes share one database, "
            "and a SQLite file is one machine's",
        )


def _check_tls(args: argparse.Namespace) -> None:
    """Refuse TLS options that go without each other, or files that cannot serve (status 2)."""
    from c4tui.net.tls import TlsSetupError, server_context  # noqa: PLC0415

    if (args.tls_cert is None) != (args.tls_key is None):
        usage_error("serve", "--tls-cert and --tls-key go together")
    if args.tls_port is not None and args.tls_cert is None:
        usage_error("serve", "--tls-port needs --tls-cert and --tls-key")
    if args.tls_cert is not None:
        try:
            server_context(args.tls_cert, args.tls_key)
        except TlsSetupError as error:
            usage_error("serve", f"cannot serve TLS: {error}")


def run(args: argparse.Namespace) -> int:
    """Serve until stopped; the server (and its protocols) load only now."""
    from c4tui.server.core import ServerConfig  # noqa: PLC0415
    from c4tui.server.process import serve  # noqa: PLC0415
    from c4tui.server.program_ai import is_program  # noqa: PLC0415

    _check_tls(args)
    _check_cluster(args)
    _check_metrics(args)

    config = ServerConfig(
        host=args.host,
        port=args.port,
        ai=args.ai,
        ai_seconds=args.seconds,
        max_programs=args.max_programs,
        ai_limits=replace(
            limits_from(args, "serve", runs_programs=is_program(args.ai)), overage=0.0
        ),
        max_connections=args.max_connections,
        max_per_address=args.max_per_address,
        idle_timeout=args.idle_timeout,
        ai_first=args.ai_first,
        db=args.db,
        bcrypt_rounds=args.bcrypt_rounds,
        max_rooms=args.max_rooms,
        tictactoe_port=args.tictactoe_port,
        reconnect_grace=args.reconnect_grace,
        tls_cert=args.tls_cert,
        tls_key=args.tls_key,
        tls_port=args.tls_port,
        bus=args.bus,
        node=args.node,
        metrics_port=args.metrics_port,
        metrics_host=args.metrics_host or METRICS_HOST,
        max_registrations=args.max_registrations,
        chat_rate=args.chat_rate,
        ssh=_ssh_settings(args),
    )
    return serve(config)
