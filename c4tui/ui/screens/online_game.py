"""A game against a person online (or watched): the game screen, with chat and forfeit.

The board, the panel and the keys are the game screen's; what a lobby game has
no use for (hint, analysis, undo, new game) is hidden. ``t`` opens the chat
line, ``f`` forfeits after a confirmation, and once the game is over (the room
is gone, and its chat with it) both leave the footer and Esc goes back to the
lobby. A viewer's board takes no moves; the panel says who is to move.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding

from c4tui.client.room_game import RoomGame
from c4tui.engine import Player
from c4tui.match.driver import MatchDriver
from c4tui.match.events import GameOver, TurnStarted
from c4tui.match.settings import MatchSettings
from c4tui.ui.screens.confirm import confirm_forfeit, confirm_leaving
from c4tui.ui.screens.game import GameScreen
from c4tui.ui.widgets.chat import ChatInput

#: What a lobby game has no use for.
HIDDEN_ACTIONS = {"hint", "toggle_analysis", "undo", "new_game", "rematch"}


class OnlineGameScreen(GameScreen):
    """One room's game, as a player (``mine``) or a viewer (``mine`` is None).

    Dismissed with True when we leave while still in the room (a viewer leaving
    a game under way): the lobby must then leave it by logging in afresh.
    """

    DEFAULT_CSS = """
    OnlineGameScreen #chat { dock: bottom; margin: 0 1; }
    """

    BINDINGS = [
        Binding("t", "talk", "Chat", id="online.talk"),
        Binding("f,F", "forfeit", "Forfeit", id="online.forfeit"),
    ]

    def __init__(
        self,
        driver: MatchDriver,
        settings: MatchSettings,
        game: RoomGame,
        mine: Player | None,
        *,
        ascii_only: bool = False,
        saves_last_until_quit: bool = False,
    ) -> None:
        super().__init__(
            driver, settings, ascii_only=ascii_only, saves_last_until_quit=saves_last_until_quit
        )
        self.room_game = game
        self.mine = mine

    def compose(self) -> ComposeResult:
        """The game screen and a chat line (shown when t is pressed)."""
        yield from super().compose()
        yield ChatInput("A message for the room; Enter sends, Esc closes", id="chat")

    def on_mount(self) -> None:
        """Chat lines and forfeits from the server reach the screen.

        Textual then runs GameScreen's own ``on_mount`` (it calls each class's handler in
        turn), which starts the game: calling it here as well listened to the driver twice.
        """
        self.room_game.on_chat = self._chat_arrived
        self.room_game.on_presence = self.panel.say  # the opponent away, or back
        self.room_game.on_forfeit = self.driver.resign

    def _turn_started(self, event: TurnStarted) -> None:
        """A viewer is told whom they watch and who is to move."""
        if self.mine is not None:
            super()._turn_started(event)
            return
        names = self.room_game.names
        self.panel.say(
            f"Watching {names[Player.RED]} (RED) against {names[Player.YELLOW]} (YELLOW): "
            f"{event.label} is to move"
        )

    async def _release(self) -> None:
        """Once the game is closed, stop reading the room's news: the lobby reads again."""
        await self.room_game.close()

    def _chat_arrived(self, user: str, text: str) -> None:
        self.notify(text, title=f"{user} says", timeout=8, markup=False)  # chat is plain text

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Hide what a lobby game has no use for; Forfeit only for a player in a live game.

        Once the game is over the server deletes the room, so there is nobody left to
        forfeit to or to chat with: both leave the footer rather than stay as dead keys.
        """
        if action in HIDDEN_ACTIONS:
            return False
        if action in ("forfeit", "talk") and self.driver.is_over:
            return False
        if action == "forfeit":
            return self.mine is not None
        return super().check_action(action, parameters)

    def _show_problem(self, problem: str) -> None:
        """Why the game stopped; no ``n`` here (a new game is the lobby's): Esc goes back."""
        self.panel.say(f"{problem}\nesc: back to the lobby", "error")

    def action_rematch(self) -> None:
        """Rematches online are new rooms: the lobby is where they start."""
        self.panel.say("For a rematch, go back to the lobby and create or join a room.")

    def action_talk(self) -> None:
        """Open the chat line (while the room, and so its chat, still exists)."""
        if not self.driver.is_over:
            self.query_one(ChatInput).open()

    def on_chat_input_said(self, message: ChatInput.Said) -> None:
        """Send what was typed to the room."""
        self.run_worker(self.room_game.chat(message.text), exit_on_error=False)
        self.board.focus()

    def action_forfeit(self) -> None:
        """Give the game up, once confirmed."""
        if self.mine is None or self.driver.is_over:
            return
        self.app.push_screen(confirm_forfeit(), self._forfeit_confirmed)

    def _forfeit_confirmed(self, confirmed: bool | None) -> None:
        if confirmed and self.mine is not None and not self.driver.is_over:
            self.run_worker(self.room_game.forfeit(), exit_on_error=False)
            self.driver.resign(self.mine, "You forfeited.")

    def action_menu(self) -> None:
        """Esc: close the chat line; after the game, back to the lobby; during it, ask first."""
        chat = self.query_one(ChatInput)
        if chat.display:
            chat.close()
            self.board.focus()
            return
        if self.driver.is_over:
            self.dismiss(None)
            return
        if self.mine is None:
            self.dismiss(True)  # a viewer left a game under way: still in the room
            return
        self.app.push_screen(confirm_leaving(), self._leave_confirmed)

    def _leave_confirmed(self, confirmed: bool | None) -> None:
        if confirmed:
            self._forfeit_confirmed(True)
            self.dismiss(None)

    def _result_text(self, result: GameOver) -> str:
        """The players by name; Esc goes back to the lobby."""
        if result.winner is None:
            text = "Draw."
        else:
            text = f"{self.room_game.names[result.winner]} ({result.winner.name}) wins"
            text += "!" if result.state.is_over else f": {result.reason}"
        return f"{text}\nEsc: back to the lobby"
