"""The lobby's leaderboard (LEADERBOARD:ALL): the best established ratings, then provisional.

The 20 best established ratings, then the 20 best provisional ones below them,
marked "provisional" (LEADERBOARD:ALL is c4tui's own: ``protocols/PROTOCOL.md``).

One row a player, best first: rank, name, rating and a bot's mark (the leaders'
profiles say which are bots, ``client.standing.leaders``). Enter opens the chosen
player's profile; r fetches the board again; Esc goes back.
"""

from __future__ import annotations

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import DataTable, Static

from c4tui.client.link import LobbyLink
from c4tui.client.standing import Leader, leaders
from c4tui.net.errors import NetworkError, ProtocolError
from c4tui.ui.screens.profile import ProfileScreen
from c4tui.ui.widgets.footer import FittingFooter

#: Why a board may be empty, or short: who is on it.
WHO_IS_LISTED = (
    "Players with at least one rated game: established ratings first, then provisional "
    "ones (deviation 110 or more), marked."
)


class LeaderboardScreen(Screen[None]):
    """The leaderboard; Enter shows a player's profile, Esc goes back.

    Args:
        link: the lobby connection (logged in).
        ascii_only: draw with ASCII characters only (handed on to a profile's review).
        saves_last_until_quit: saved games go when the app quits (handed on likewise).
    """

    DEFAULT_CSS = """
    LeaderboardScreen #leaders-title { text-style: bold; margin: 1 2 0 2; height: auto; }
    LeaderboardScreen #leaders-help { color: $text-muted; margin: 0 2 1 2; height: auto; }
    LeaderboardScreen DataTable { height: 1fr; margin: 0 2; }
    LeaderboardScreen #leaders-status { margin: 1 2 0 2; height: auto; }
    LeaderboardScreen #leaders-status.-error { color: $error; text-style: bold; }
    """

    BINDINGS = [
        Binding("enter,i", "profile", "Profile", id="leaders.profile"),
        Binding("r", "refresh", "Refresh", id="leaders.refresh"),
        Binding("escape", "leave", "Back", id="leaders.leave"),
    ]

    def __init__(
        self, link: LobbyLink, *, ascii_only: bool = False, saves_last_until_quit: bool = False
    ) -> None:
        super().__init__()
        self.link = link
        self._ascii_only = ascii_only
        self._saves_last_until_quit = saves_last_until_quit
        self.leaders: list[Leader] = []

    def compose(self) -> ComposeResult:
        """Title, help, the board, a status line, the footer."""
        with Vertical():
            yield Static("Leaderboard", id="leaders-title")
            yield Static(WHO_IS_LISTED + " Enter shows a profile.", id="leaders-help")
            yield DataTable(id="leaders", cursor_type="row", zebra_stripes=True)
            yield Static("", id="leaders-status", markup=False)  # it quotes the server
        yield FittingFooter(show_command_palette=False)

    def on_mount(self) -> None:
        """The columns, then the board."""
        table = self.query_one(DataTable)
        table.add_column("Rank", key="rank")
        table.add_column("Player", key="player")
        table.add_column("Rating", key="rating")
        table.add_column("Bot", key="bot")
        table.focus()
        self.action_refresh()

    def _say(self, text: str, error: bool = False) -> None:
        status = self.query_one("#leaders-status", Static)
        status.update(text)
        status.set_class(error, "-error")

    def action_refresh(self) -> None:
        """Fetch the board again."""
        self._say("Fetching the leaderboard…")
        self._fetch()

    @work(group="leaders", exclusive=True, exit_on_error=False)
    async def _fetch(self) -> None:
        try:
            self.leaders = await leaders(self.link)
        except (NetworkError, ProtocolError, TimeoutError) as error:
            self._say(f"The server is gone: {error}", error=True)
            return
        table = self.query_one(DataTable)
        table.clear()
        for leader in self.leaders:
            bot = "bot" if leader.bot else ""
            row = (str(leader.rank), leader.user, leader.rating_words, bot)
            table.add_row(*row, key=leader.user)
        self._say(_summary(self.leaders))
        self.refresh_bindings()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """A profile only with a player to show."""
        return bool(self.leaders) if action == "profile" else True

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        """Enter on a row (the table takes Enter before the screen does): its profile."""
        self._show(str(event.row_key.value))

    def action_profile(self) -> None:
        """The chosen player's profile."""
        table = self.query_one(DataTable)
        if table.row_count:
            key = table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value
            self._show(str(key))

    def _show(self, user: str) -> None:
        profile = ProfileScreen(
            self.link,
            user,
            ascii_only=self._ascii_only,
            saves_last_until_quit=self._saves_last_until_quit,
        )
        self.app.push_screen(profile)

    def action_leave(self) -> None:
        """Back to where it was opened."""
        self.dismiss(None)


def _summary(leaders: list[Leader]) -> str:
    """``2 best, highest first.``, and how many provisional ones follow them."""
    if not leaders:
        return "Nobody is on it yet."
    provisional = sum(leader.provisional for leader in leaders)
    established = len(leaders) - provisional
    said = f"{established} best, highest first." if established else "None established yet."
    return said + (f" {provisional} provisional below them." if provisional else "")
