"""A listing of players (the moderators' reports, the leaderboard): a row's profile a key away.

Apart from ``listing`` because a profile opens a listing too (its ssh keys): the
profile is built on the listing's base, and this part on the profile. A profile
opened here says it goes back here (``BACK_TO``).
"""

from __future__ import annotations

from c4tui.client.link import LobbyLink
from c4tui.ui.screens.listing import ListingScreen
from c4tui.ui.screens.profile import ProfileScreen


class ProfiledListing(ListingScreen):
    """A list of what players did or are, each player's profile a key away.

    Args:
        link: the lobby connection (logged in).
        ascii_only: draw with ASCII characters only (handed on to a profile's review).
        saves_last_until_quit: saved games go when the app quits (handed on likewise).
    """

    #: Where a profile opened here goes back to, in its help line.
    BACK_TO = "the list"

    def __init__(
        self, link: LobbyLink, *, ascii_only: bool = False, saves_last_until_quit: bool = False
    ) -> None:
        super().__init__(link)
        self._ascii_only = ascii_only
        self._saves_last_until_quit = saves_last_until_quit

    def show_profile(self, user: str) -> None:
        """``user``'s profile over the list (Esc there comes back here)."""
        profile = ProfileScreen(
            self.link,
            user,
            ascii_only=self._ascii_only,
            saves_last_until_quit=self._saves_last_until_quit,
            back_to=self.BACK_TO,
        )
        self.app.push_screen(profile)
