"""``--tls`` and ``--tls-ca``: how every lobby client (console, bot, app, replay) asks for TLS."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

from c4tui.cli.types import usage_error

if TYPE_CHECKING:  # ssl loads with the connection, not with the command line
    from c4tui.net.tls import ClientTls


def add_tls_options(parser: argparse.ArgumentParser, what: str = "the lobby server") -> None:
    """Add ``--tls`` and ``--tls-ca FILE`` to ``parser``."""
    parser.add_argument(
        "--tls",
        action="store_true",
        help=f"connect to {what} over TLS (the port c4tui serve --tls-cert serves it on); "
        "its certificate is verified: chain and host name",
    )
    parser.add_argument(
        "--tls-ca",
        type=Path,
        metavar="FILE",
        help="with --tls (implies it): trust the certificates this CA certificate (PEM) signed, "
        "instead of the system's trusted ones; for a self-signed server, its certificate",
    )


def client_tls(command: str, args: argparse.Namespace) -> ClientTls | None:
    """What ``--tls`` and ``--tls-ca`` ask for (None: plain TCP).

    A CA file that cannot be read or holds no certificate is a usage error (status 2).
    """
    from c4tui.net.tls import ClientTls, TlsSetupError  # noqa: PLC0415

    if not args.tls and args.tls_ca is None:
        return None
    tls = ClientTls(args.tls_ca)
    try:
        tls.context()
    except TlsSetupError as error:
        usage_error(command, f"--tls-ca: {error}")
    return tls
