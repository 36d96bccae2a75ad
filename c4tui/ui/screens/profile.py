"""A player's profile, from the lobby (PROFILE, spec/protocols.md §5.3): rating, record, games.

Above the player's finished games (``past_games``: Enter opens one in the review),
the rating (with "provisional" while its deviation is above 110), the deviation,
the games won, drawn and lost, and a bot's mark. r fetches both again; Esc goes back.
"""

from __future__ import annotations

from textual import work
from textual.app import ComposeResult
from textual.widgets import Static

from c4tui.client import standing as words
from c4tui.client.link import LobbyLink
from c4tui.net.errors import NetworkError, ProtocolError
from c4tui.protocols.competition import ProfileInfo
from c4tui.ui.screens.past_games import PastGamesScreen


class ProfileScreen(PastGamesScreen):
    """``user``'s profile and finished games; Enter reviews a game, Esc goes back.

    Args:
        link: the lobby connection (logged in).
        user: whose profile (the person logged in, or anybody else).
        ascii_only: draw with ASCII characters only (handed on to the review).
        saves_last_until_quit: saved games go when the app quits (handed on to the review).
    """

    DEFAULT_CSS = """
    ProfileScreen #profile { margin: 1 2 0 2; height: auto; padding: 0 1; border: round $primary; }
    ProfileScreen #profile.-error { color: $error; text-style: bold; }
    """

    def __init__(
        self,
        link: LobbyLink,
        user: str,
        *,
        ascii_only: bool = False,
        saves_last_until_quit: bool = False,
    ) -> None:
        super().__init__(
            link,
            user=user,
            ascii_only=ascii_only,
            saves_last_until_quit=saves_last_until_quit,
        )
        self.user = user
        #: The profile as last fetched (None: not yet, or no such user).
        self.info: ProfileInfo | None = None

    def compose(self) -> ComposeResult:
        """The profile above the games."""
        panel = Static(f"{self.user}: fetching the profile…", id="profile", markup=False)
        panel.border_title = "Profile"
        yield panel
        yield from super().compose()

    def action_refresh(self) -> None:
        """Fetch the profile and the games again."""
        super().action_refresh()
        self._fetch_profile()

    @work(group="profile", exclusive=True, exit_on_error=False)
    async def _fetch_profile(self) -> None:
        panel = self.query_one("#profile", Static)
        try:
            self.info = await self.link.profile(self.user)
        except (NetworkError, ProtocolError, TimeoutError) as error:
            panel.update(f"The server is gone: {error}")
            panel.add_class("-error")
            return
        panel.set_class(self.info is None, "-error")
        panel.update(f"No such user: {self.user}." if self.info is None else _shown(self.info))


def _shown(info: ProfileInfo) -> str:
    """The profile in three lines: who, the rating and its deviation, the record."""
    who = f"{info.user} (bot)" if info.bot else info.user
    rating = f"Rating {words.rating_words(info)}, deviation {info.deviation}"
    return f"{who}\n{rating}\n{words.record_words(info)}"
