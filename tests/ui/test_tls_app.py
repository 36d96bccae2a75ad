"""The app's login dialog over TLS (its TLS switch and CA file) against a real TLS lobby."""

from __future__ import annotations

import socket
from dataclasses import replace
from pathlib import Path

from textual.widgets import Input

from c4tui.net.address import DEFAULT_PORT, DEFAULT_TLS_PORT, tls_port_beside
from c4tui.server.core import C4Server, ServerConfig
from c4tui.ui.screens.login import LoginDialog
from c4tui.ui.widgets.choice import ChoiceSet
from tests.net.lobby_client import TEST_ROUNDS, lobby_server
from tests.net.test_tls import certificates
from tests.ui.helpers import SIZE, make_app
from tests.ui.test_lobby_app import log_in_through_the_dialog, press_button, text_of, until


async def test_the_app_registers_and_logs_in_over_tls(tmp_path: Path) -> None:
    certs = certificates(tmp_path, "127.0.0.1")
    async with lobby_server(tmp_path, tls_cert=certs.server, tls_key=certs.server) as server:
        options = {
            "host": "127.0.0.1",
            "port": str(server.tls_port),
            "user": "zoe",
            "tls": "on",
            "tls_ca": str(certs.ca),
        }
        app = make_app(opponent="online", options=options)
        async with app.run_test(size=SIZE) as pilot:
            await log_in_through_the_dialog(pilot, "secret", register=True)


async def test_the_dialog_says_why_a_certificate_is_refused(tmp_path: Path) -> None:
    certs = certificates(tmp_path, "127.0.0.1")
    async with lobby_server(tmp_path, tls_cert=certs.server, tls_key=certs.server) as server:
        options = {"host": "127.0.0.1", "port": str(server.tls_port), "user": "zoe"}
        app = make_app(opponent="online", options=options)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.press("enter")
            await until(pilot, lambda: isinstance(pilot.app.screen, LoginDialog))
            switch = pilot.app.screen.query_one("#tls", ChoiceSet)
            switch.chosen = 1  # On, trusting the system's CAs only
            pilot.app.screen.query_one("#password", Input).value = "secret"
            pilot.app.screen.query_one("#password_again", Input).value = "secret"
            await press_button(pilot, "#register")
            await until(
                pilot, lambda: "not signed by anyone you trust" in text_of(pilot, "#login-status")
            )
            assert pilot.app.screen.focused is pilot.app.screen.query_one("#tls_ca", Input)


async def test_a_ca_file_left_behind_with_tls_off_is_not_checked(tmp_path: Path) -> None:
    """TLS Off: the CA file beside the switch is not read, so a stale path cannot stop a login."""
    async with lobby_server(tmp_path) as server:
        options = {
            "host": "127.0.0.1",
            "port": str(server.port),
            "user": "zoe",
            "tls": "off",
            "tls_ca": str(tmp_path / "gone.pem"),  # no such file
        }
        app = make_app(opponent="online", options=options)
        async with app.run_test(size=SIZE) as pilot:
            await log_in_through_the_dialog(pilot, "secret", register=True)


async def test_turning_tls_on_offers_the_default_tls_port_and_off_the_plain_one(
    tmp_path: Path,
) -> None:
    """What ``c4tui serve --tls-cert`` serves by default is what the dialog offers."""
    plain = free_port_pair()
    certs = certificates(tmp_path, "127.0.0.1")
    database = tmp_path / "lobby.sqlite3"
    config = ServerConfig(port=plain, db=database, tls_cert=certs.server, tls_key=certs.server)
    server = C4Server(replace(config, bcrypt_rounds=TEST_ROUNDS))
    await server.start()
    try:
        assert server.tls_port == tls_port_beside(plain)  # the server's default, and so:
        assert tls_port_beside(DEFAULT_PORT) == DEFAULT_TLS_PORT
    finally:
        await server.stop()
    app = make_app(opponent="online", options={"host": "127.0.0.1", "user": "zoe"})
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(pilot.app.screen, LoginDialog))
        port = pilot.app.screen.query_one("#port", Input)
        assert port.value == str(DEFAULT_PORT)
        switch = pilot.app.screen.query_one("#tls", ChoiceSet)
        switch.chosen = 1
        await until(pilot, lambda: port.value == str(DEFAULT_TLS_PORT))
        switch.chosen = 0
        await until(pilot, lambda: port.value == str(DEFAULT_PORT))
        port.value = str(plain)  # any port: the server's TLS port is the one beside it
        switch.chosen = 1
        await until(pilot, lambda: port.value == str(tls_port_beside(plain)))
        switch.chosen = 0
        await until(pilot, lambda: port.value == str(plain))
        switch.chosen = 1
        await until(pilot, lambda: port.value == str(tls_port_beside(plain)))
        port.value = "5000"  # typed by hand after TLS On: kept when it goes Off
        switch.chosen = 0
        await pilot.pause()
        assert port.value == "5000"


def free_port_pair() -> int:
    """A free port whose neighbour above is free too (for a server's default TLS port)."""
    for _ in range(50):
        with socket.socket() as first, socket.socket() as second:
            first.bind(("127.0.0.1", 0))
            port = first.getsockname()[1]
            try:
                second.bind(("127.0.0.1", tls_port_beside(port)))
            except OSError:
                continue
            return int(port)
    raise AssertionError("no two free ports side by side")
