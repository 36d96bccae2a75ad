"""An ssh visitor's way into the lobby: its key logs in, or makes its account first.

``c4tui serve --ssh-port`` gives each visit a token (``protocols.ssh_visit``). A key the lobby
knows logs in at once, with no dialog to see; a new key is asked for a name, which
becomes an account that this key (and any key added to it later) logs in; or the
visitor logs in with a lobby password (an account made elsewhere), and the key is
bound to it from then on. With ``--ssh-guests`` a visitor may also go on without an
account, to play here against the computer or a friend, or to watch the lobby as a
guest (KEYGUEST: the lobby opens, and its play keys say that guests only watch).
"""

from __future__ import annotations

from collections.abc import Mapping

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, Static

from c4tui.client.key_words import GUEST_REFUSED, KEYBIND, KEYREGISTER
from c4tui.client.link import LobbyLink
from c4tui.client.outcomes import KeyBindOutcome, KeyRegisterOutcome, LoginOutcome
from c4tui.client.words import LOGIN, Voice
from c4tui.match.backends.online import RoomSeat
from c4tui.net.errors import NetworkError, ProtocolError
from c4tui.protocols.names import USER_RULE, valid_user
from c4tui.protocols.ssh_visit import KeyVisit
from c4tui.ui.screens.login import LoggedIn, LoginDialog, after_typing

#: Said while the lobby looks the key up (the visitor usually never sees it).
LOOKING_UP = "Looking up your ssh key…"
NEW_KEY = (
    "This ssh key is new here. Choose a name for your account: from now on this key "
    "logs you in as that name, with no password. Have an account already? Log in with "
    "its password once, and this key is added to it."
)
#: Said when the visitor leaves without an account and the server takes no guests.
NEEDS_ACCOUNT = "This server's games need an account: come back to make one."


class KeyWelcome(ModalScreen[LoggedIn | None]):
    """Logs an ssh visitor's key in, or makes its account; None: went on without one."""

    DEFAULT_CSS = """
    KeyWelcome { align: center middle; }
    KeyWelcome #welcome-form { height: auto; }
    KeyWelcome #welcome-form.-hidden { display: none; }
    KeyWelcome #name { width: 1fr; }
    KeyWelcome #name-row { height: 1; margin: 1 0 0 0; }
    KeyWelcome #fingerprint { color: $text-muted; }
    KeyWelcome .welcome-buttons { height: auto; }
    """

    BINDINGS = [
        Binding("escape", "leave", "Back", id="key_welcome.leave"),
        Binding("enter", "make_account", "Make my account", priority=True, id="key_welcome.make"),
    ]

    def __init__(self, visit: KeyVisit, values: Mapping[str, str]) -> None:
        super().__init__()
        self._visit = visit
        host, port = visit.lobby
        self._values = {**RoomSeat.option_values(values), "host": host, "port": str(port)}
        self._link: LobbyLink | None = None

    def compose(self) -> ComposeResult:
        """The key's welcome: a status line, and for a new key the name and the buttons."""
        with Vertical(classes="form-dialog"):
            yield Static("Welcome to c4tui", classes="form-title")
            yield Static(LOOKING_UP, id="welcome-status", classes="form-status")
            with Vertical(id="welcome-form", classes="-hidden"):
                if self._visit.fingerprint:
                    yield Static(f"Your key: {self._visit.fingerprint}", id="fingerprint")
                with Horizontal(id="name-row"):
                    yield Label("Name ")
                    yield Input(
                        self._visit.name,
                        id="name",
                        max_length=20,
                        placeholder="your name",
                        compact=True,
                    )
                with Horizontal(classes="welcome-buttons"):
                    yield Button("Make my account", id="make", variant="primary")
                    yield Button("I have an account", id="log-in")
                    if not self._visit.guests:
                        yield Button("Quit", id="quit")
                if self._visit.guests:  # without an account: watch the lobby, or play here
                    with Horizontal(classes="welcome-buttons"):
                        yield Button("Watch as a guest", id="watch")
                        yield Button("Play without one", id="guest")

    def on_mount(self) -> None:
        """Ask the lobby whose key this is (nothing to do but wait, usually a moment)."""
        self._look_up()

    def _say(self, text: str, error: bool = False) -> None:
        status = self.query_one("#welcome-status", Static)
        status.update(text)
        status.set_class(error, "-error")

    @work(exclusive=True, exit_on_error=False)
    async def _look_up(self) -> None:
        """A known key logs in and the lobby opens; a new one is asked for a name."""
        try:
            link = await self._connected()
            account = await link.key_account(self._visit.token)
        except (NetworkError, ProtocolError, TimeoutError) as error:
            self._say(f"The lobby did not answer: {error}", error=True)
            return
        if account.user is not None:
            await self._log_in(account.user)
            return
        if not account.visit_known:
            self._say("This visit is over (the server restarted?): connect again.", error=True)
            return
        self._say(NEW_KEY)
        self.query_one("#welcome-form").remove_class("-hidden")
        self.query_one("#name", Input).focus()

    async def _connected(self) -> LobbyLink:
        if self._link is None or self._link.lost:
            host, port = self._visit.lobby
            self._link = await LobbyLink.open(host, port)
        return self._link

    async def _log_in(self, user: str) -> None:
        """Log in as ``user`` with the visit's token; the lobby opens."""
        link = await self._connected()
        outcome = await link.login(user, self._visit.token)
        if outcome is not LoginOutcome.LOGGED_IN:
            self._say(LOGIN.said(outcome, Voice.APP), error=True)
            return
        self._link = None  # the lobby's from now on
        self.dismiss(LoggedIn(link, {**self._values, "user": user}, self._visit.token))

    def action_make_account(self) -> None:
        """Enter: press the focused button, else make the account with the name typed."""
        if isinstance(self.focused, Button):
            self.focused.press()
            return
        if not self.query_one("#welcome-form").has_class("-hidden"):
            after_typing(self, self._make_account)

    @on(Button.Pressed, "#make")
    def _make_pressed(self) -> None:
        self._make_account()

    def _make_account(self) -> None:
        name = self.query_one("#name", Input).value.strip()
        if not valid_user(name):
            self._say(f"A name is {USER_RULE}.", error=True)
            self.query_one("#name", Input).focus()
            return
        self._say(f"Making the account {name}…")
        self._register(name)

    @work(exclusive=True, exit_on_error=False)
    async def _register(self, name: str) -> None:
        try:
            link = await self._connected()
            outcome = await link.key_register(name, self._visit.token)
            if outcome is not KeyRegisterOutcome.CREATED:
                self._say(KEYREGISTER.said(outcome, Voice.APP), error=True)
                self.query_one("#name", Input).focus()
                return
            await self._log_in(name)
        except (NetworkError, ProtocolError, TimeoutError) as error:
            self._say(f"The lobby did not answer: {error}", error=True)

    @on(Button.Pressed, "#log-in")
    def _password_login(self) -> None:
        """Log in with a lobby password (an account made elsewhere); the key is then bound."""
        values = {**self._values, "user": ""}
        dialog = LoginDialog(values, allowed=(self._visit.lobby,), account_only=True)
        self.app.push_screen(dialog, self._logged_in_with_password)

    def _logged_in_with_password(self, logged_in: LoggedIn | None) -> None:
        if logged_in is not None:
            self._bind(logged_in)

    @work(exclusive=True, exit_on_error=False)
    async def _bind(self, logged_in: LoggedIn) -> None:
        """Bind the visit's key to the account just logged in; say what came of it."""
        try:
            outcome = await logged_in.link.key_bind(self._visit.token)
        except (NetworkError, ProtocolError, TimeoutError) as error:
            outcome = None
            self.app.notify(f"Your key could not be added: {error}", severity="warning")
        if outcome is KeyBindOutcome.BOUND:
            user = logged_in.values["user"]
            self.app.notify(f"Your ssh key now logs you in as {user}.", markup=False)
        elif outcome is not None:
            said = KEYBIND.said(outcome, Voice.APP)
            self.app.notify(said, severity="warning", markup=False)
        await self._hang_up()
        self.dismiss(logged_in)

    @on(Button.Pressed, "#watch")
    def _watch_pressed(self) -> None:
        self._say("Opening the lobby for a guest…")
        self._watch()

    @work(exclusive=True, exit_on_error=False)
    async def _watch(self) -> None:
        """Log in as a guest (KEYGUEST: no account, a ``guest-<n>`` name); the lobby opens.

        The lobby then only watches (its play keys say so), and comes back as a guest.
        """
        try:
            link = await self._connected()
            name = await link.key_guest(self._visit.token)
        except (NetworkError, ProtocolError, TimeoutError) as error:
            self._say(f"The lobby did not answer: {error}", error=True)
            return
        if name is None:
            self._say(GUEST_REFUSED, error=True)
            return
        self._link = None  # the lobby's from now on
        values = {**self._values, "user": name}
        self.dismiss(LoggedIn(link, values, self._visit.token, guest=True))

    @on(Button.Pressed, "#guest")
    def _as_guest(self) -> None:
        self.action_leave()

    @on(Button.Pressed, "#quit")
    def _quit(self) -> None:
        self.action_leave()

    def action_leave(self) -> None:
        """Without an account: to the menu if guests may play, else the visit ends."""
        self._leave()

    @work(exclusive=True, exit_on_error=False)
    async def _leave(self) -> None:
        await self._hang_up()
        if self._visit.guests:
            self.dismiss(None)
        else:
            self.app.exit(message=NEEDS_ACCOUNT)

    async def _hang_up(self) -> None:
        if self._link is not None:
            link, self._link = self._link, None
            await link.close()
