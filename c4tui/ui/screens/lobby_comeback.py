"""The lobby screen's part that comes back by itself after a lost connection (spec §5.1).

A request or the wait for a game that fails on a lost connection logs in again
by itself: the status line counts the tries, Esc gives up (the lobby's
``action_leave``), and r tries again. Back in, the status line says so ("The server
is back.", never "restarting" once it is not) and the rooms are loaded again, with
a game the server put us back in (REJOIN). ``LobbyScreen`` is this screen with
its rooms; the status line and the session are shared. Banned or deleted (BYE:banned,
BYE:deleted: §7) is no drop: the status line says so, and nothing logs in again.
"""

from __future__ import annotations

from functools import partial

from textual import work
from textual.screen import Screen
from textual.widgets import Static

from c4tui.client import in_public, words
from c4tui.client.link import LobbyLink
from c4tui.ui.online_session import OnlineSession, room_lost
from c4tui.ui.widgets.room_table import RoomTable


class ComingBackLobby(Screen[None]):
    """The lobby's connection, its status line, and logging in again when it is lost."""

    _session: OnlineSession
    _room: str | None  # the room we wait in
    tictactoe: bool
    coming_back: bool  # logging in again after the connection was lost

    @property
    def link(self) -> LobbyLink:
        """The connection in use."""
        return self._session.link

    def _say(self, text: str, error: bool = False) -> None:
        status = self.query_one("#lobby-status", Static)
        status.update(text)
        status.set_class(error, "-error")

    @property
    def _offline(self) -> bool:
        """Coming back, or given up on it: nothing to ask meanwhile."""
        return self.coming_back or self._session.gave_up

    def _load_rooms(self, note: str = "", news: str = "") -> object:
        """The rooms again, ``note`` said as a problem, ``news`` as news (the lobby's worker)."""
        raise NotImplementedError

    def _lost(self, error: Exception, room: str | None = None) -> None:
        """A request or the wait failed: come back by ourselves if we can, else say why.

        ``room``: the room we waited in (rooms whose game had not begun are not kept).
        """
        room, self._room = room or self._room, None
        if self.coming_back:
            return  # already on it
        if self._session.worth_coming_back() and not self._session.gave_up:
            self.coming_back = True
            self._come_back(room)
        elif self._sent_away_for_good():
            pass
        elif self.link.lost and not self.tictactoe:  # given up, or sent away (BYE)
            self._session.gave_up = True
            self._say_gave_up(self._session.why_lost())
        else:
            self._say(f"The server is gone: {error}", error=True)

    @work(group="comeback", exclusive=True, exit_on_error=False)
    async def _come_back(self, room: str | None) -> None:
        """Log in again (the status line counts the tries), then the rooms (and a REJOIN)."""
        if self._sent_away_for_good():  # r asks in vain: the account cannot log in
            self.coming_back = False
            return
        why = self._session.why_lost()
        try:
            answer = await self._session.come_back(partial(self._say_trying, why))
        finally:
            self.coming_back = False
        if isinstance(answer, str):
            self._session.gave_up = True
            self._say_gave_up(answer)
            return
        # The room we waited in is gone, unless its game began (rooms are kept once begun).
        back = words.back_online(why)  # no longer "restarting": it is back
        if room and answer.rejoined != room:
            self._load_rooms(room_lost(room, back))
        else:
            self._load_rooms(news=f"{back}.")

    def _sent_away_for_good(self) -> bool:
        """Banned or deleted: said (True), and the lists emptied; no coming back."""
        gone = in_public.sent_away(self.link.bye_reason) if self.link.lost else None
        if gone is None:
            return False
        self._session.gave_up = True
        for table in self.query(RoomTable):
            table.show([])
        self._say(f"{gone} Esc goes back to the menu.", error=True)
        return True

    def _say_trying(self, why: str, attempt: int) -> None:
        self._say(f"{words.reconnecting(why, attempt)} Esc gives up.", error=True)

    def _say_gave_up(self, why: str) -> None:
        """Not connected: the rooms shown would be stale; a game of ours waits a while."""
        for table in self.query(RoomTable):  # the rooms, and the players
            table.show([])
        self._say(
            f"{why.rstrip('.')}. r tries again (a game you play waits about a minute for "
            f"you); Esc goes back to the menu.",
            error=True,
        )
