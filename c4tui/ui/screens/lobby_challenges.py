"""The lobby screen's part for challenges (spec §5.5): the players, challenging, answering.

While the lists are shown (we wait in no room), a ``ChallengeListener`` hears
what the server pushes: a challenge to us pops up, a decline is said in the
status line, and a game a challenge began opens. ``c`` (or Enter) on the player
list challenges the chosen player with the menu's game. ``LobbyScreen`` is
built on this part.
"""

from __future__ import annotations

from textual import work

from c4tui.client.room_game import RoomGame
from c4tui.match.settings import MatchSettings
from c4tui.net.errors import NetworkError, ProtocolError
from c4tui.ui.challenges import ChallengeListener, challenge
from c4tui.ui.screens.lobby_comeback import ComingBackLobby
from c4tui.ui.screens.lobby_guests import players_only
from c4tui.ui.widgets.player_table import PlayerTable

#: The lobby's workers that enter a room (JOIN, CREATE, QUICKPLAY), by name: while one
#: runs, the room's wait is about to read what the server pushes.
ENTERING = frozenset({"_join", "_create", "_quick"})


class ChallengingLobby(ComingBackLobby):
    """The lobby's challenges: to a chosen player, and from anyone, while in no room."""

    _settings: MatchSettings
    #: What the status line says of our challenges until something else happens (a
    #: refresh of the lists would clear it): ``waiting for ann…``, ``ann declined…``.
    challenge_note = ""

    def _open_game(self, game: RoomGame, room: str, back: bool) -> None:
        """Open the game screen (the lobby's)."""
        raise NotImplementedError

    def _challenge_listener(self) -> ChallengeListener:
        """What the lobby composes to hear challenges."""
        return ChallengeListener(lambda: self.link, self._say_of_challenges)

    def _say_of_challenges(self, text: str, error: bool = False) -> None:
        """Say ``text`` in the status line, and again after each refresh of the lists."""
        self.challenge_note = text
        self._say(text, error)

    def _listen(self) -> None:
        """Hear challenges while the lists are shown (in no room; tic-tac-toe has none)."""
        entering = any(  # the room's BEGIN is the wait's, not ours to take
            worker.node is self and worker.name in ENTERING and not worker.is_finished
            for worker in self.workers
        )
        # Only while the lobby is on top: a list loaded under a game opened over it must not
        # start a listener that would read the game's boards and clocks in its place.
        shown = self.is_active
        if shown and not (self.tictactoe or entering or self._offline) and self._room is None:
            self.query_one(ChallengeListener).listen()

    def _stop_listening(self) -> None:
        """Entering a room: its wait reads what the server pushes from now on."""
        self.challenge_note = ""
        self.query_one(ChallengeListener).stop()

    def on_challenge_listener_begun(self, begun: ChallengeListener.Begun) -> None:
        """A challenge of ours, or one we accepted: its game opens."""
        self._room, self.challenge_note = begun.room, ""
        self._open_game(begun.game, begun.room, back=False)

    @players_only
    def on_player_table_challenge_chosen(self, chosen: PlayerTable.ChallengeChosen) -> None:
        """``c`` on a player: challenge them with the menu's game."""
        if self._room is not None:
            self._say("You are in a room: Esc leaves it, then challenge.", error=True)
        elif chosen.user == self.link.user:
            self._say("That is you: choose someone else to challenge.", error=True)
        else:
            self._challenge(chosen.user)

    @work(group="challenge", exclusive=True, exit_on_error=False)
    async def _challenge(self, user: str) -> None:
        try:
            text, error = await challenge(self.link, user, self._settings)
        except (NetworkError, ProtocolError, TimeoutError) as problem:
            self._lost(problem)
            return
        self._say_of_challenges(text, error=error)
