"""The lobby's leaderboard (LEADERBOARD:ALL): the best established ratings, then provisional.

The 20 best established ratings, then the 20 best provisional ones below them,
marked "provisional" (LEADERBOARD:ALL is c4tui's own: ``protocols/PROTOCOL.md``).

One row a player, best first: rank, name, rating and a bot's mark (the leaders'
profiles say which are bots, ``client.standing.leaders``). Enter opens the chosen
player's profile; r fetches the board again; Esc goes back.
"""

from __future__ import annotations

from textual import work
from textual.binding import Binding
from textual.widgets import DataTable

from c4tui.client.link import LobbyLink
from c4tui.client.standing import Leader, leaders
from c4tui.net.errors import NetworkError, ProtocolError
from c4tui.ui.screens.profiled_listing import ProfiledListing

#: Why a board may be empty, or short: who is on it.
WHO_IS_LISTED = (
    "Players with at least one rated game: established ratings first, then provisional "
    "ones (deviation 110 or more), marked."
)


class LeaderboardScreen(ProfiledListing):
    """The leaderboard; Enter shows a player's profile, Esc goes back.

    Args:
        link: the lobby connection (logged in).
        ascii_only: draw with ASCII characters only (handed on to a profile's review).
        saves_last_until_quit: saved games go when the app quits (handed on likewise).
    """

    BINDINGS = [
        Binding("enter,i", "profile", "Profile", id="leaders.profile"),
        Binding("r", "refresh", "Refresh", id="leaders.refresh"),
        Binding("escape", "leave", "Back", id="leaders.leave"),
    ]
    NAME = "leaders"
    TITLE = "Leaderboard"
    HELP = WHO_IS_LISTED + " Enter shows a profile."
    FETCHING = "Fetching the leaderboard…"
    BACK_TO = "the leaderboard"

    def __init__(
        self, link: LobbyLink, *, ascii_only: bool = False, saves_last_until_quit: bool = False
    ) -> None:
        super().__init__(link, ascii_only=ascii_only, saves_last_until_quit=saves_last_until_quit)
        self.leaders: list[Leader] = []

    def add_columns(self, table: DataTable[object]) -> None:
        """Rank, player, rating, a bot's mark."""
        for column in ("Rank", "Player", "Rating", "Bot"):
            table.add_column(column, key=column.casefold())

    @work(group="leaders", exclusive=True, exit_on_error=False)
    async def fetch(self) -> None:
        """The board, best first."""
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
        self.show_profile(str(event.row_key.value))

    def action_profile(self) -> None:
        """The chosen player's profile."""
        if (user := self.chosen_key) is not None:
            self.show_profile(user)


def _summary(leaders: list[Leader]) -> str:
    """``2 best, highest first.``, and how many provisional ones follow them."""
    if not leaders:
        return "Nobody is on it yet."
    provisional = sum(leader.provisional for leader in leaders)
    established = len(leaders) - provisional
    said = f"{established} best, highest first." if established else "None established yet."
    return said + (f" {provisional} provisional below them." if provisional else "")
