"""The lobby screen's part for the lobby in public (spec §7): blocks, reports, moderators.

On the player list, ``b`` blocks the chosen player (or unblocks one marked
``[blocked]``) and ``x`` reports them (a dialog asks what about); ``B`` lists whom
you block (and unblocks). A moderator
(our own PROFILE's role, learned once the lobby opens) also has ``R``: the open
reports, where reports are closed and their players banned or muted. What came
of each is said in the status line, and stays there over the lists' refreshes (as
the news of a challenge does). Tic-tac-toe servers have none of these.
``LobbyScreen`` is built on this part.
"""

from __future__ import annotations

from textual import work
from textual.binding import Binding
from textual.widgets import Static

from c4tui.client import in_public
from c4tui.net.errors import NetworkError, ProtocolError
from c4tui.ui.public_actions import PublicActions
from c4tui.ui.screens.blocks import BlocksScreen
from c4tui.ui.screens.lobby_guests import players_only
from c4tui.ui.screens.lobby_standing import StandingLobby
from c4tui.ui.screens.reports import ReportsScreen
from c4tui.ui.widgets.player_table import PlayerTable

#: The actions of this part, which a tic-tac-toe server has no words for.
PUBLIC_ACTIONS = frozenset({"blocks", "reports"})
#: What the lobby's help adds for a moderator (the footer may have no room for R).
MODERATORS_HELP = " R: the open reports (you moderate)."
#: Their keys (after the standing's: they matter less in a narrow footer).
PUBLIC_BINDINGS = [
    Binding("B", "blocks", "Blocks", id="lobby.blocks"),
    Binding("R", "reports", "Reports", id="lobby.reports"),
]


class PublicLobby(StandingLobby):
    """The lobby's blocks, reports and, for a moderator, the reports' screen."""

    #: We are a moderator (our own PROFILE's role says so): R opens the reports.
    moderator = False
    _public: PublicActions | None = None

    @property
    def public(self) -> PublicActions:
        """Blocking and reporting, said in the status line (made when first used)."""
        if self._public is None:
            self._public = PublicActions(
                self,
                lambda: self.link,
                self._say_of_challenges,  # kept over refreshes, as a challenge's news
                lost=self._lost,
                ascii_only=self._ascii_only,
            )
        return self._public

    def on_mount(self) -> None:
        """Learn whether we moderate (Textual calls each part's ``on_mount`` in turn)."""
        if not self.tictactoe:
            self._learn_role()

    @work(group="role", exclusive=True, exit_on_error=False)
    async def _learn_role(self) -> None:
        """Our own PROFILE's role: a moderator's lobby offers the reports."""
        try:
            mine = await self.link.profile(self.link.user)
        except (NetworkError, ProtocolError, TimeoutError):
            return  # the room list notices a lost connection, and says so
        moderator = mine is not None and in_public.is_moderator(mine.role)
        if moderator and not self.moderator:
            help_text = self.query_one("#lobby-help", Static)
            help_text.update(f"{help_text.content}{MODERATORS_HELP}")
        self.moderator = self._session.moderator = moderator  # a game's palette reads it
        self.refresh_bindings()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """None on a tic-tac-toe server; the reports for moderators only; not in a room."""
        if action in PUBLIC_ACTIONS:
            if self.tictactoe or (action == "reports" and not self.moderator):
                return False
            return self._room is None  # back here, the lobby reloads as if out of it
        return super().check_action(action, parameters)

    @players_only
    def on_player_table_block_chosen(self, chosen: PlayerTable.BlockChosen) -> None:
        """``b`` on a player: block them."""
        if self._is_us(chosen.user, "block"):
            return
        self.public.block(chosen.user, then=self._load_rooms)  # marked [blocked] in the lists

    @players_only
    def on_player_table_unblock_chosen(self, chosen: PlayerTable.UnblockChosen) -> None:
        """``b`` on a player we block: unblock them."""
        self.public.unblock(chosen.user, then=self._load_rooms)

    @players_only
    def on_player_table_report_chosen(self, chosen: PlayerTable.ReportChosen) -> None:
        """``x`` on a player: report them (a dialog asks what about)."""
        if self._is_us(chosen.user, "report"):
            return
        self.public.report(chosen.user)

    def _is_us(self, user: str, verb: str) -> bool:
        """True (said) when ``user`` is the account logged in: nobody blocks themselves."""
        if user.casefold() != self.link.user.casefold():
            return False
        self._say(f"That is you: choose someone else to {verb}.", error=True)
        return True

    @players_only
    def action_blocks(self) -> None:
        """Whom we block (u there unblocks)."""
        self.app.push_screen(BlocksScreen(self.link))

    def action_reports(self) -> None:
        """The open reports (moderators)."""
        reports = ReportsScreen(
            self.link,
            ascii_only=self._ascii_only,
            saves_last_until_quit=self._saves_last_until_quit,
        )
        self.app.push_screen(reports)
