"""A player's profile, from the lobby (PROFILE, spec/protocols.md §5.3): rating, record, games.

Above the player's finished games (``past_games``: Enter opens one in the review),
the rating (with "provisional" while its deviation is above 110), the deviation,
the games won, drawn and lost, and a bot's or a moderator's mark. r fetches both
again; Esc goes back to where it was opened (the lobby, the reports, the
leaderboard, a game: ``back_to``).

Someone else's profile blocks them (b; b again unblocks) and reports them (x); a
moderator's also bans (B), mutes (M) and unbans (U) them (spec §7: PROFILE's role
of ourselves says who is one; the server checks again). Our own lists the
account's ssh keys (k, or its button: ``KeysScreen``, §9) and deletes the account
(D: its password, then a question); once it is gone the screen says so in an
``AccountDeleted`` message, and the app goes back to the menu.
"""

from __future__ import annotations

from dataclasses import dataclass

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.message import Message
from textual.widgets import Button, Static

from c4tui.client import in_public
from c4tui.client import standing as words
from c4tui.client.link import LobbyLink
from c4tui.net.errors import NetworkError, ProtocolError
from c4tui.protocols.competition import ProfileInfo
from c4tui.ui.public_actions import PublicActions
from c4tui.ui.screens.delete_account import DeleteAccountDialog
from c4tui.ui.screens.past_games import PastGamesScreen
from c4tui.ui.screens.ssh_keys import KeysScreen

#: What someone else's profile offers (``MODERATORS`` only a moderator), and our own.
ABOUT_OTHERS = frozenset({"block", "unblock", "report"})
MODERATORS = frozenset({"ban", "mute", "unban"})
ABOUT_US = frozenset({"delete_account", "keys"})


class ProfileScreen(PastGamesScreen):
    """``user``'s profile and finished games; Enter reviews a game, Esc goes back.

    Args:
        link: the lobby connection (logged in).
        user: whose profile (the person logged in, or anybody else).
        ascii_only: draw with ASCII characters only (handed on to the review).
        saves_last_until_quit: saved games go when the app quits (handed on to the review).
        back_to: where Esc goes back to, in words ("the reports").
        password: on an ssh visit, the session's (its token): deleting asks for no password
            the player may never have had.
    """

    DEFAULT_CSS = """
    ProfileScreen #profile { margin: 1 2 0 2; height: auto; padding: 0 1; border: round $primary; }
    ProfileScreen #profile.-error { color: $error; text-style: bold; }
    ProfileScreen > Vertical { width: 100%; }
    ProfileScreen #keys-button { margin: 0 2; }
    """

    BINDINGS = [
        Binding("b", "block", "Block", id="profile.block"),
        Binding("b", "unblock", "Unblock", id="profile.unblock"),
        Binding("x", "report", "Report", id="profile.report"),
        Binding("B", "ban", "Ban", id="profile.ban"),
        Binding("M", "mute", "Mute", id="profile.mute"),
        Binding("U", "unban", "Unban", id="profile.unban"),
        Binding("k", "keys", "ssh keys", id="profile.keys"),
        Binding("D", "delete_account", "Delete account", id="profile.delete"),
    ]

    @dataclass
    class AccountDeleted(Message):
        """The account ``user`` was deleted here, and ``said`` says so (the app goes back)."""

        user: str
        said: str

    def __init__(
        self,
        link: LobbyLink,
        user: str,
        *,
        ascii_only: bool = False,
        saves_last_until_quit: bool = False,
        back_to: str = "the lobby",
        password: str | None = None,
    ) -> None:
        super().__init__(
            link,
            user=user,
            ascii_only=ascii_only,
            saves_last_until_quit=saves_last_until_quit,
            back_to=back_to,
        )
        self.user = user
        self._password = password
        #: The profile as last fetched (None: not yet, or no such user).
        self.info: ProfileInfo | None = None
        #: We are a moderator (our own PROFILE's role says so).
        self.moderator = False
        #: We block this player (None: not known, or our own profile).
        self.blocked: bool | None = None
        self.public = PublicActions(self, lambda: self.link, self._say, ascii_only=ascii_only)

    @property
    def own(self) -> bool:
        """This is the profile of the account logged in."""
        return self.user.casefold() == self.link.user.casefold()

    def compose(self) -> ComposeResult:
        """The profile above the games."""
        panel = Static(f"{self.user}: fetching the profile…", id="profile", markup=False)
        panel.border_title = "Profile"
        yield panel
        if self.own:
            yield Button("Your ssh keys (k)", id="keys-button", compact=True)
        yield from super().compose()

    def action_refresh(self) -> None:
        """Fetch the profile and the games again."""
        super().action_refresh()
        self._fetch_profile()
        if not self.own:
            self._fetch_blocks()

    @work(group="profile", exclusive=True, exit_on_error=False)
    async def _fetch_profile(self) -> None:
        panel = self.query_one("#profile", Static)
        try:
            self.info = await self.link.profile(self.user)
            mine = self.info if self.own else await self.link.profile(self.link.user)
        except (NetworkError, ProtocolError, TimeoutError) as error:
            panel.update(f"The server is gone: {error}")
            panel.add_class("-error")
            return
        self.moderator = mine is not None and in_public.is_moderator(mine.role)
        self._show_profile()

    @work(group="blocks", exclusive=True, exit_on_error=False)
    async def _fetch_blocks(self) -> None:
        """Whether we block this player (BLOCKS): b blocks, or unblocks."""
        try:
            blocked = await self.link.blocks()
        except (NetworkError, ProtocolError, TimeoutError):
            return  # the profile says the server is gone
        folded = {user.casefold() for user in blocked or []}
        self.blocked = None if blocked is None else self.user.casefold() in folded
        self._show_profile()

    def _show_profile(self) -> None:
        """The panel as last fetched, and the keys that fit it."""
        panel = self.query_one("#profile", Static)
        panel.set_class(self.info is None, "-error")
        shown = f"No such user: {self.user}." if self.info is None else _shown(self.info)
        if self.info is not None and self.blocked:
            shown += f"\nYou block {self.info.user}: b unblocks."
        panel.update(shown)
        self.refresh_bindings()

    # ----- blocks, reports, moderating (§7) ------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Someone else's profile blocks (or unblocks) and reports; ours deletes the account."""
        if action in ABOUT_OTHERS | MODERATORS | ABOUT_US and self.info is None:
            return False
        if action in ABOUT_US:
            return self.own
        if action in ABOUT_OTHERS | MODERATORS and self.own:
            return False
        if action in ("block", "unblock"):
            return (action == "unblock") is bool(self.blocked)
        if action in MODERATORS:
            return self.moderator
        return super().check_action(action, parameters)

    def action_block(self) -> None:
        """Block this player (the panel then says so)."""
        self.public.block(self.user, then=self._fetch_blocks)

    def action_unblock(self) -> None:
        """Stop blocking this player."""
        self.public.unblock(self.user, then=self._fetch_blocks)

    def action_report(self) -> None:
        """Report this player (a dialog asks what about)."""
        self.public.report(self.user)

    def action_ban(self) -> None:
        """Ban this player (a dialog asks for how long, and why)."""
        self.public.ban(self.user)

    def action_mute(self) -> None:
        """Mute this player (a dialog asks for how long)."""
        self.public.mute(self.user)

    def action_unban(self) -> None:
        """Lift this player's ban."""
        self.public.unban(self.user)

    @on(Button.Pressed, "#keys-button")
    def action_keys(self) -> None:
        """Our ssh keys: listed, added, removed (``KeysScreen``)."""
        self.app.push_screen(KeysScreen(self.link))

    def action_delete_account(self) -> None:
        """Delete our account: its password, then a question (``DeleteAccountDialog``)."""
        self.app.push_screen(DeleteAccountDialog(self.link, self._password), self._deleted)

    def _deleted(self, gone: bool | None) -> None:
        if gone:
            self._hang_up_deleted()

    @work(group="delete", exit_on_error=False)
    async def _hang_up_deleted(self) -> None:
        """The account is gone: hang up (the server closes too), and say so to the app."""
        await self.link.close()
        self.post_message(self.AccountDeleted(self.user, in_public.deleted(self.link.user)))


def _shown(info: ProfileInfo) -> str:
    """The profile in three lines: who (a bot? a moderator?), the rating, the record."""
    marks = [mark for mark, shown in (("bot", info.bot), ("moderator", _moderator(info))) if shown]
    who = f"{info.user} ({', '.join(marks)})" if marks else info.user
    rating = f"Rating {words.rating_words(info)}, deviation {info.deviation}"
    return f"{who}\n{rating}\n{words.record_words(info)}"


def _moderator(info: ProfileInfo) -> bool:
    return in_public.is_moderator(info.role)
