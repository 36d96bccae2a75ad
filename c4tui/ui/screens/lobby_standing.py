"""The lobby screen's part for standing (spec §5.3): profiles, the leaderboard, the password.

``i`` opens the profile of the player chosen in the player list, or your own
while the room list has the focus; ``l`` opens the leaderboard; ``P`` changes
your password (the session then logs in with the new one when it comes back): on
an ssh visit the session's password (the visit's token) is the current one, not
asked for, so an account a key made gets a password to log in elsewhere with.
Tic-tac-toe servers have none of these. ``LobbyScreen`` is built on this part.
"""

from __future__ import annotations

from textual.binding import Binding

from c4tui.client.outcomes import PasswordChange
from c4tui.ui.screens.leaderboard import LeaderboardScreen
from c4tui.ui.screens.lobby_challenges import ChallengingLobby
from c4tui.ui.screens.lobby_guests import players_only
from c4tui.ui.screens.password import PasswordDialog
from c4tui.ui.screens.profile import ProfileScreen
from c4tui.ui.widgets.player_table import PlayerTable

#: The actions of this part, which a tic-tac-toe server has no words for.
STANDING_ACTIONS = frozenset({"profile", "leaderboard", "password"})


#: Their keys: ``LobbyScreen`` lists them after its own, which matter more in a narrow footer.
STANDING_BINDINGS = [
    Binding("i", "profile", "Profile", id="lobby.profile"),
    Binding("l", "leaderboard", "Leaders", id="lobby.leaderboard"),
    Binding("P", "password", "Password", id="lobby.password"),
]


class StandingLobby(ChallengingLobby):
    """The lobby's actions for profiles, the leaderboard and the password."""

    # Handed on to the screens opened here (the review of a game in a profile).
    _ascii_only: bool
    _saves_last_until_quit: bool
    #: An ssh visitor's key logged in (the session's password is the visit's token).
    key_visit: bool

    def _profiled(self) -> str:
        """Whose profile ``i`` opens: the chosen player's in the player list, else ours."""
        players = self.query_one(PlayerTable)
        chosen = players.chosen if players.has_focus else None
        return chosen or self.link.user

    def action_profile(self) -> None:
        """The profile (rating, record, finished games) of the chosen player, or ours."""
        profile = ProfileScreen(
            self.link,
            self._profiled(),
            ascii_only=self._ascii_only,
            saves_last_until_quit=self._saves_last_until_quit,
            password=self._session.password if self.key_visit else None,
        )
        self.app.push_screen(profile)

    def action_leaderboard(self) -> None:
        """The best-rated players (Enter there opens one's profile)."""
        leaders = LeaderboardScreen(
            self.link,
            ascii_only=self._ascii_only,
            saves_last_until_quit=self._saves_last_until_quit,
        )
        self.app.push_screen(leaders)

    @players_only
    def action_password(self) -> None:
        """Change our password (the current one, the new one twice)."""
        current = self._session.password if self.key_visit else None
        dialog = PasswordDialog(self.link, current)
        self.app.push_screen(dialog, lambda outcome: self._password_changed(dialog, outcome))

    def _password_changed(self, dialog: PasswordDialog, outcome: PasswordChange | None) -> None:
        """The session logs in with the new password from now on (the dialog said it changed)."""
        if outcome is PasswordChange.CHANGED and dialog.new_password is not None:
            self._session.password_changed(dialog.new_password)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Not while we wait in a room: back here, the lobby reloads as if out of it."""
        return not (action in STANDING_ACTIONS and self._room is not None)
