"""The app's login dialog over TLS (its TLS switch and CA file) against a real TLS lobby."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Input

from c4tui.ui.screens.login import LoginDialog
from c4tui.ui.widgets.choice import ChoiceSet
from tests.net.lobby_client import lobby_server
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
