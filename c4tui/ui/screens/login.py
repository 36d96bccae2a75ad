"""The login dialog of "Online": which game, where the server is, who you are, your password.

The server hosts Connect Four (the lobby of ``c4tui serve``) or tic-tac-toe (the
INFO1112 assignment's rooms): the two protocols cannot be told apart before
logging in, so the dialog asks which.

Registering asks for the password twice (a typo would lock the newcomer out of the
account just made). Log in or Register (which logs in too) connect in the background; what goes
wrong (cannot connect, the name is taken, no such user, a wrong password) is
said under the fields, and the field to fix gets the focus.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Container, Grid, Horizontal, Vertical
from textual.screen import ModalScreen, Screen
from textual.widgets import Button, Input, Label, Static

from c4tui.client import words
from c4tui.client.key_words import GUEST_REFUSED
from c4tui.client.link import LOBBY_LINK, TICTACTOE_LINK, LobbyLink
from c4tui.client.outcomes import LoginOutcome, RegisterOutcome
from c4tui.client.words import Voice
from c4tui.match.backends.base import Option
from c4tui.match.backends.online import (
    TICTACTOE_ROOMS,
    TLS,
    TLS_CA,
    TLS_ON,
    RoomSeat,
    client_tls,
    parse_password,
)
from c4tui.net.address import DEFAULT_PORT, DEFAULT_TLS_PORT, MAX_PORT, tls_port_beside
from c4tui.net.errors import NetworkError, ProtocolError
from c4tui.ui.screens.connect import chosen_value, option_widget
from c4tui.ui.servers import Servers, server_refusal
from c4tui.ui.widgets.choice import ChoiceSet


def after_typing(screen: Screen[Any], then: Callable[[], None]) -> None:
    """Run ``then`` once the focused field has read every key typed before this Enter.

    Enter is the screen's (a priority binding): it is acted on as it arrives, while the
    keys before it may still wait in the field's queue, as they do when a line comes at
    once (pasted, or over ssh). Queued behind them, ``then`` sees the whole line.
    """
    (screen.focused or screen).call_later(then)


#: The dialog's title when the server is given (an ssh visit's): only an account to log in.
ACCOUNT_TITLE = "Log in to your account on this server"


@dataclass(frozen=True)
class LoggedIn:
    """A logged-in link, and what it took (to log in again after leaving a room).

    ``guest``: an ssh guest who only watches (§9): ``password`` is its visit's token,
    and logging in again is KEYGUEST (``values["user"]`` the name it was given).
    """

    link: LobbyLink
    values: dict[str, str]
    password: str
    guest: bool = False


async def log_in(
    values: Mapping[str, str], password: str, register: bool, guest: bool = False
) -> LoggedIn | str:
    """Connect and log in (registering first if asked); the link, or what went wrong.

    ``guest``: as an ssh guest (KEYGUEST, ``password`` the visit's token), under a new name.
    """
    dialect = TICTACTOE_LINK if values.get("game") == TICTACTOE_ROOMS else LOBBY_LINK
    try:
        link = await LobbyLink.open(
            values["host"], int(values["port"]), dialect=dialect, tls=client_tls(values)
        )
    except NetworkError as error:
        return str(error)
    if guest:
        return await _as_guest(link, values, password)
    try:
        if register:
            registered = await link.register(values["user"], password)
            if registered is not RegisterOutcome.CREATED:
                await link.close()
                return words.REGISTER.said(registered, Voice.APP)
        logged_in = await link.login(values["user"], password)
    except (NetworkError, ProtocolError, TimeoutError) as error:
        await link.close()
        return f"The server did not answer as expected: {error}"
    if logged_in is not LoginOutcome.LOGGED_IN:
        await link.close()
        return words.LOGIN.said(logged_in, Voice.APP)
    return LoggedIn(link, dict(values), password)


async def _as_guest(link: LobbyLink, values: Mapping[str, str], token: str) -> LoggedIn | str:
    """KEYGUEST on ``link``: logged in under the name the server gives, or why not."""
    try:
        name = await link.key_guest(token)
    except (NetworkError, ProtocolError, TimeoutError) as error:
        name, problem = None, f"The server did not answer as expected: {error}"
    else:
        problem = GUEST_REFUSED
    if name is None:
        await link.close()
        return problem
    return LoggedIn(link, {**values, "user": name}, token, guest=True)


class LoginDialog(ModalScreen[LoggedIn | None]):
    """Host, port, username and password; Log in, Register or Back."""

    DEFAULT_CSS = """
    LoginDialog { align: center middle; }
    LoginDialog ChoiceSet { width: auto; background: transparent; }
    LoginDialog #tls-row, LoginDialog #password-row { layout: horizontal; height: 1; }
    LoginDialog #password-row Input { width: 1fr; }
    LoginDialog #password_again { margin-left: 1; }
    LoginDialog #tls_ca { width: 1fr; margin-left: 1; }
    """

    BINDINGS = [
        Binding("escape", "cancel", "Back", id="login.cancel"),
        Binding("enter", "log_in", "Log in", priority=True, id="login.log_in"),
    ]

    def __init__(
        self,
        values: Mapping[str, str],
        allowed: Servers | None = None,
        *,
        ascii_only: bool = False,
        account_only: bool = False,
    ) -> None:
        """``account_only``: the server is given (an ssh visit): ask only who, and the password."""
        super().__init__()
        self._account_only = account_only
        self._values = RoomSeat.option_values(values)
        self._allowed = allowed
        self._ascii_only = ascii_only
        self._plain_port: tuple[str, str] | None = None  # the port TLS On replaced, and by what
        self._told_port = values.get("port")  # a port we were given (the command line's)

    def compose(self) -> ComposeResult:
        """The fields, a status line and the buttons."""
        with Vertical(classes="form-dialog"):
            title = ACCOUNT_TITLE if self._account_only else RoomSeat.summary
            yield Static(title, id="login-title", classes="form-title")
            with Grid():
                for option in self._asked():
                    if option.key == TLS_CA.key:
                        continue  # beside TLS's switch, in its row
                    yield Label(option.label)
                    widget = option_widget(
                        option, self._values[option.key], ascii_only=self._ascii_only
                    )
                    if option.key != TLS.key:
                        yield widget
                        continue
                    with Container(id="tls-row"):  # not a Horizontal: the buttons' row style
                        yield widget
                        yield self._ca_field()
                yield Label("Password")
                with Container(id="password-row"):  # the repetition beside it: one row
                    yield Input("", id="password", password=True, max_length=128, compact=True)
                    if not self._account_only:  # no registering with the server given
                        yield Input(
                            "",
                            id="password_again",
                            password=True,
                            max_length=128,
                            placeholder="again, to register",
                            compact=True,
                        )
            yield Static("", id="login-status", classes="form-status")
            with Horizontal():
                yield Button("Log in", id="log-in", variant="primary")
                if not self._account_only:
                    yield Button("Register", id="register")
                yield Button("Back", id="back")

    def _asked(self) -> tuple[Option, ...]:
        """The options asked here: all the dialog's, or with the server given, only the user."""
        asked = RoomSeat.asked_in_dialog()
        return tuple(o for o in asked if o.key == "user") if self._account_only else asked

    def _ca_field(self) -> Input:
        """Whom to trust over TLS: a CA certificate's file, or (empty) the system's."""
        return Input(
            self._values[TLS_CA.key],
            id=TLS_CA.key,
            placeholder="CA file (empty: the system's)",
            max_length=TLS_CA.max_length,
            compact=True,
        )

    def on_mount(self) -> None:
        """Start where something is missing: the username, else the password."""
        user = self.query_one("#user", Input)
        (user if not user.value else self.query_one("#password", Input)).focus()

    @on(ChoiceSet.Changed, "#tls")
    def _tls_switched(self, changed: ChoiceSet.Changed) -> None:
        """TLS On offers the TLS port beside the port (``c4tui serve``'s unless told); Off, back.

        Off puts back the port On replaced, or the default one in place of the default TLS
        port; a port typed after On, or one given (``--option port=``), is left as it is.
        """
        port = self.query_one("#port", Input)
        typed = port.value.strip()
        if TLS.choices[changed.index].value == TLS_ON:
            told = typed == self._told_port and typed != str(DEFAULT_PORT)  # given: kept
            if not told and typed.isascii() and typed.isdigit() and 0 < int(typed) < MAX_PORT:
                self._plain_port = (typed, str(tls_port_beside(int(typed))))
                port.value = self._plain_port[1]
            return
        plain, offered = self._plain_port or (str(DEFAULT_PORT), str(DEFAULT_TLS_PORT))
        if typed == offered:
            port.value = plain
        self._plain_port = None

    def _say(self, text: str, error: bool = True) -> None:
        status = self.query_one("#login-status", Static)
        status.update(text)
        status.set_class(error, "-error")

    def _checked(self) -> tuple[dict[str, str], str] | None:
        """The fields if every one is fine; else the first problem is shown and focused."""
        values = {} if not self._account_only else dict(self._values)
        for option in self._asked():
            value = chosen_value(self, option)
            problem = option.problem(value)
            if option.key == TLS_CA.key and values.get("tls") != TLS_ON:
                problem = None  # the CA file is read only for TLS: no TLS, nothing to check
            if problem is not None:
                self._say(problem)
                self.query_one(f"#{option.key}").focus()
                return None
            values[option.key] = value
        refusal = server_refusal(values, self._allowed)
        if refusal is not None:
            self._say(refusal)
            self.query_one("#host", Input).focus()
            return None
        password = self.query_one("#password", Input)
        try:
            parse_password(password.value)
        except ValueError as error:
            self._say(f"Password: {error}.")
            password.focus()
            return None
        return values, password.value

    def action_log_in(self) -> None:
        """Enter: press the button that has the focus, else log in."""
        if isinstance(self.focused, Button):
            self.focused.press()
            return
        after_typing(self, lambda: self._start(register=False))

    @on(Button.Pressed, "#log-in")
    def _log_in_pressed(self) -> None:
        self._start(register=False)

    @on(Button.Pressed, "#register")
    def action_register(self) -> None:
        """Create the account, then log in."""
        self._start(register=True)

    def _start(self, register: bool) -> None:
        if not self.query("#user"):  # Enter came before the fields exist, or after they went
            return
        checked = self._checked()
        if checked is None:
            return
        values, password = checked
        if register and self.query_one("#password_again", Input).value != password:
            self._say(words.PASSWORDS_DIFFER)
            self.query_one("#password_again", Input).focus()
            return
        self._say("Registering…" if register else "Logging in…", error=False)
        self._connect(values, password, register)

    @work(exclusive=True, exit_on_error=False)
    async def _connect(self, values: dict[str, str], password: str, register: bool) -> None:
        outcome = await log_in(values, password, register)
        if isinstance(outcome, str):
            self._say(outcome)
            wrong = "#password" if "password" in outcome.lower() else "#user"
            if "connect" in outcome.lower():
                wrong = "#tls_ca" if "certificate" in outcome else "#host"
            self.query_one(wrong, Input).focus()
            return
        self.dismiss(outcome)

    @on(Button.Pressed, "#back")
    def action_cancel(self) -> None:
        """Back to the menu."""
        self.dismiss(None)
