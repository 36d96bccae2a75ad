"""The online game screen's part that comes back by itself after a lost connection (§5.1).

The board stays, the panel counts the tries to log in again, and once the server
has put us back (REJOIN; a viewer asks to watch again) the game's fresh screen
(``_came_back_into``) takes this one's place and goes on as the server's board says.
``OnlineGameScreen`` is this screen with its room; the session and the panel are shared.
"""

from __future__ import annotations

from functools import partial

from textual import work

from c4tui.client import words
from c4tui.client.room_game import RoomGame
from c4tui.engine import Player
from c4tui.net.errors import NetworkError, ProtocolError
from c4tui.ui.online_session import OnlineSession, back_in_room
from c4tui.ui.screens.game import GameScreen
from c4tui.ui.screens.table_talk import TableTalkScreen


class ComingBackGame(TableTalkScreen):
    """A room's game whose connection may be lost, and which logs in again by itself."""

    _session: OnlineSession
    _room: str
    room_game: RoomGame
    mine: Player | None
    coming_back: bool  # logging in again after the connection was lost
    _trying: str  # what the panel says meanwhile
    _over_while_away: bool
    _successor: GameScreen | None  # the game we came back into
    _away: dict[str, float]

    def _came_back_into(self, back: RoomGame) -> GameScreen:
        """The screen of the game the server put us back in."""
        raise NotImplementedError

    def _failed(self, problem: str) -> None:
        """A lost connection: log in again by ourselves (the board stays); else say why."""
        self._away.clear()
        if not self._session.worth_coming_back():
            super()._failed(problem)
            return
        self.coming_back = True
        self._show_turn(self.driver.state)
        self._come_back(self._session.why_lost())

    @work(group="comeback", exclusive=True, exit_on_error=False)
    async def _come_back(self, why: str) -> None:
        """Try to log in again; then on with the game as the server has it, or say why not."""
        session = self._session
        names = (self.room_game.names[Player.RED], self.room_game.names[Player.YELLOW])
        while True:
            game_on = self.driver.result is None  # a lost link is no end: Esc stops the tries
            answer = await session.come_back(partial(self._say_trying, why), game_on=game_on)
            if isinstance(answer, str):
                session.gave_up = True
                self._stop_coming_back(answer, "error")
                return
            try:
                back = await back_in_room(session, self._room, names, watching=self.mine is None)
                break
            except (NetworkError, ProtocolError, TimeoutError) as error:
                if not session.worth_coming_back():
                    self._stop_coming_back(str(error), "error")
                    return
        if isinstance(back, str):
            self._over_while_away = True
            self._stop_coming_back(back, "result")
            return
        self._successor = self._came_back_into(back)
        if self.is_active:  # else once what is on top (help, a question) is closed
            self._go_on()

    def on_screen_resume(self) -> None:
        """Back from what was on top: a game we came back into goes on."""
        if self._successor is not None:
            self._go_on()

    def _go_on(self) -> None:
        """The game we came back into takes this screen's place."""
        if self._successor is not None:
            self.app.switch_screen(self._successor)
            self._successor = None

    def _say_trying(self, why: str, attempt: int) -> None:
        self._trying = f"{words.reconnecting(why, attempt)}\nesc: give up"
        if self._widgets_ready:
            self.panel.say(self._trying, "thinking")

    def _stop_coming_back(self, text: str, kind: str) -> None:
        self.coming_back = False
        if self._widgets_ready:
            self._show_turn(self.driver.state)
            self.panel.say(f"{text}\nesc: back to the lobby", kind)
