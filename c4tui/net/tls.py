"""TLS for the lobby: the server's and the clients' contexts, and its failures in words.

The lobby's passwords cross the network; ``c4tui serve --tls-cert --tls-key`` serves
the lobby over TLS on a port of its own, and the clients connect with ``--tls``.
Certificates are always verified (the chain and the host name), against the
system's trust store or one CA file the person names; what goes wrong is said in
words a person can act on, never as OpenSSL's codes.
"""

from __future__ import annotations

import ssl
from dataclasses import dataclass
from pathlib import Path

from c4tui.net.errors import NetworkError

#: Seconds a client has to complete the TLS handshake; it holds a slot meanwhile.
HANDSHAKE_SECONDS = 10.0
#: The first byte of a TLS handshake record: what every TLS client sends first.
TLS_HANDSHAKE_RECORD = 0x16

# OpenSSL's verification results (X509_V_ERR_*) that a person can act on.
_EXPIRED = {9, 10}  # not yet valid, expired
_UNTRUSTED = {2, 18, 19, 20, 21}  # no issuer we trust: self-signed, unknown CA
_WRONG_HOST = {62, 64}  # host name, IP address mismatch
#: OpenSSL's reasons when the other end answers something that is not TLS.
_NOT_TLS = {"WRONG_VERSION_NUMBER", "RECORD_LAYER_FAILURE", "PACKET_LENGTH_TOO_LONG"}


class TlsSetupError(NetworkError):
    """A certificate, key or CA file that cannot be used; the message says which and why."""


def server_context(cert: Path, key: Path) -> ssl.SSLContext:
    """The server's side: its certificate chain and private key (PEM files).

    Raises TlsSetupError (one line, naming the file) if either cannot be read or used.
    """
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    try:
        context.load_cert_chain(cert, key)
    except OSError as error:
        if isinstance(error, ssl.SSLError):
            raise TlsSetupError(
                f"{cert} and {key} are not a PEM certificate and its private key "
                f"({error.reason or error})"
            ) from None
        raise TlsSetupError(f"cannot read {error.filename}: {error.strerror}") from None
    return context


@dataclass(frozen=True)
class ClientTls:
    """Connect with TLS, trusting ``ca_file``'s certificates (None: the system's)."""

    ca_file: Path | None = None

    def context(self) -> ssl.SSLContext:
        """A context that verifies the server's chain and host name.

        Raises TlsSetupError if the CA file cannot be read or holds no certificate.
        """
        context = ssl.create_default_context()
        if self.ca_file is None:
            return context
        try:
            context.load_verify_locations(cafile=self.ca_file)
        except ssl.SSLError as error:
            raise TlsSetupError(
                f"{self.ca_file} holds no PEM certificate ({error.reason or error})"
            ) from None
        except OSError as error:
            raise TlsSetupError(f"cannot read {self.ca_file}: {error.strerror}") from None
        return context


def handshake_failure(error: OSError, host: str, port: int) -> str:
    """Why the TLS handshake with ``host:port`` failed, in words a person can act on."""
    if isinstance(error, ssl.SSLCertVerificationError):
        words = _refused_certificate(error, host)
    elif isinstance(error, ssl.SSLError) and error.reason in _NOT_TLS:
        words = (
            "it does not speak TLS: is that the server's plain port? "
            "(c4tui serve --tls-cert serves TLS on a port of its own)"
        )
    else:
        words = f"it broke off the TLS handshake: is TLS served on that port? ({error})"
    return f"Cannot connect to {host}:{port} with TLS: {words}"


def _refused_certificate(error: ssl.SSLCertVerificationError, host: str) -> str:
    code, detail = error.verify_code, error.verify_message
    if code in _WRONG_HOST:
        return f"the server's certificate is not valid for {host}: {detail}"
    if code in _UNTRUSTED:
        return (
            f"the server's certificate is not signed by anyone you trust ({detail}): "
            "give the certificate of the CA that signed it, or the server's own if it "
            "signed itself, as the CA file (--tls-ca FILE; in the app: CA file)"
        )
    if code in _EXPIRED:
        return f"the server's certificate is out of date: {detail}"
    return f"the server's certificate was refused: {detail}"
