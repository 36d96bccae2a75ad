"""A game against a person online (or watched): the game screen, with chat and forfeit.

The board, the panel and the keys are the game screen's; what a lobby game has
no use for (hint, analysis, undo, new game) is hidden. ``t`` opens the chat
line, and the room's chat so far shows under the moves (``ChatLog``, from its first
line), ``f`` forfeits after a confirmation, and once the game is over (the room
is gone, and its chat with it) both leave the footer and Esc goes back to the
lobby. A viewer's board takes no moves; the panel says who is to move.

A lost connection does not end the game (spec §5.1): the board stays, the panel
counts the tries to log in again, and once the server has put us back (REJOIN; a
viewer asks to watch again) a fresh screen goes on exactly as the server's board
says. An opponent who dropped out is counted down in the panel until back.

A timed game (§5.4) shows both clocks at the top of the panel (``GameClocks``),
and a game lost on time says so. After a rated game, both new ratings (§5.3's
RATING lines) are said under the result. The running score against the opponent is
the session's (``OnlineSession.score_against``): it goes on through rematches.
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from functools import partial

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import Static

from c4tui.client import words
from c4tui.client.clocks import ClockReading
from c4tui.client.link import RoomSummary, ServerMessage
from c4tui.client.room_game import RoomGame
from c4tui.client.standing import RatingNews
from c4tui.engine import GameState, Player
from c4tui.match.backends.online import RoomSeat
from c4tui.match.backends.room_seat import follow_room, room_seats
from c4tui.match.driver import MatchDriver
from c4tui.match.events import GameOver, TurnStarted
from c4tui.match.score import Score
from c4tui.match.settings import MatchSettings
from c4tui.net.errors import NetworkError, ProtocolError
from c4tui.protocols import lobby as wire
from c4tui.protocols.competition import REMATCH_WINDOW, RatingChange
from c4tui.ui.challenges import ChallengeListener
from c4tui.ui.online_session import OnlineSession, moves_to
from c4tui.ui.screens.confirm import confirm_forfeit, confirm_leaving
from c4tui.ui.screens.game import GameScreen
from c4tui.ui.screens.lobby_guests import GUESTS_ONLY_WATCH
from c4tui.ui.screens.online_public import HIDDEN_ACTIONS, PublicGame
from c4tui.ui.widgets.chat import ChatInput, ChatLog
from c4tui.ui.widgets.game_clocks import GameClocks

#: How long "ann is back." stays before the panel says whose turn it is again (seconds).
BACK_NEWS_SECONDS = 5.0


def online_game_screen(
    game: RoomGame,
    session: OnlineSession,
    room: str,
    *,
    back: bool = False,
    before: MatchDriver | None = None,
    chat: Sequence[tuple[str, str]] = (),
    ascii_only: bool = False,
    saves_last_until_quit: bool = False,
) -> OnlineGameScreen:
    """The screen of ``game`` in ``room``, played (or watched) over ``session``'s connection.

    ``back``: we came back into a game under way (the panel says so first); ``before``
    played it until the connection was lost (its moves are kept if they lead to it).
    """
    mine = game.colour_of(session.link.user)
    state = game.state
    start, history = state, None
    if before is not None:
        history = moves_to(before.positions[0], before.moves, state)
        start = state if history is None else before.positions[0]
    if history is None and game.earlier:  # new here, or lost track: the archive's moves
        start, history = GameState.new(state.columns, state.rows, state.rules), game.earlier
    settings = MatchSettings(
        opponent=RoomSeat.key,
        options={
            **session.values,
            "red": game.names[Player.RED],
            "yellow": game.names[Player.YELLOW],
        },
        columns=state.columns,
        rows=state.rows,
        rules=state.rules,
    )
    opponent = None if mine is None else game.names[mine.other]
    return OnlineGameScreen(
        MatchDriver(start, room_seats(game, mine), history=history or ()),
        settings,
        game,
        mine,
        score=None if opponent is None else session.score_against(opponent),
        chat=chat,
        session=session,
        room=room,
        back=back,
        ascii_only=ascii_only,
        saves_last_until_quit=saves_last_until_quit,
    )


class OnlineGameScreen(PublicGame):
    """One room's game, as a player (``mine``) or a viewer (``mine`` is None).

    A viewer leaving a game under way is still in the room: the session says so
    (``still_in_room``), and the lobby leaves it by logging in afresh.
    """

    DEFAULT_CSS = """
    OnlineGameScreen #chat { dock: bottom; margin: 0 1; }
    OnlineGameScreen #terms { color: $text-muted; }
    """

    BINDINGS = [
        Binding("escape,m", "menu", "Lobby", id="online.lobby"),  # where Esc goes from here
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
        score: Score | None = None,
        chat: Sequence[tuple[str, str]] = (),
        session: OnlineSession,
        room: str,
        back: bool = False,
        ascii_only: bool = False,
        saves_last_until_quit: bool = False,
    ) -> None:
        super().__init__(
            driver,
            settings,
            ascii_only=ascii_only,
            score=score,
            saves_last_until_quit=saves_last_until_quit,
        )
        self.room_game = game
        self.mine = mine
        self._session = session
        self._room = room
        #: Said until the next move: we came back into this game.
        self._back = ""
        if back:
            self._back = "Back in the room." if mine is None else f"{words.BACK_IN_THE_GAME}."
        self._moves_when_back = len(driver.moves)
        #: Who is away from the game, and when (``time.monotonic``) their grace runs out.
        self._away: dict[str, float] = {}
        self.coming_back = False  # logging in again after the connection was lost
        self._trying = f"{words.CONNECTION_LOST} — reconnecting…"  # what the panel says meanwhile
        self._over_while_away = False
        self._successor: GameScreen | None = None  # the game we came back into
        # Before the first push is read (a REJOIN's AWAY comes at once), not on mounting.
        game.on_chat = self._chat_arrived
        game.on_away_or_back = self._away_or_back
        follow_room(game, driver)  # forfeits, takebacks, draws agreed and aborts
        #: The room's chat so far (what was said before we came back into it, too).
        self.chat_log = ChatLog(chat, id="chat-log")
        self.clocks = GameClocks(game.names, ascii_only=ascii_only, id="clocks")
        self.clocks.reading = game.clock  # a CLOCK read before this screen was made
        game.on_clock = self._clock_came
        self._follow_the_table(game)  # offers, takebacks, claims (§5.6): the table's keys
        self._rating_news = RatingNews(session.link.user)
        self._ratings = ""  # both new ratings in a line, once a rated game's have come
        self._last_turn: TurnStarted | None = None  # what the panel says again after news
        self._chat_after = False  # True in the minute after the end: the room's chat goes on

    def compose(self) -> ComposeResult:
        """The game screen and a chat line (shown when t is pressed)."""
        yield from super().compose()
        yield ChatInput("A message for the room; Enter sends, Esc closes", id="chat")
        yield ChallengeListener(lambda: self._session.link, self._say_after_game, self._heard)

    def on_mount(self) -> None:
        """The away countdown ticks every second.

        Textual then runs GameScreen's own ``on_mount`` (it calls each class's handler in
        turn), which starts the game: calling it here as well listened to the driver twice.
        """
        self.set_interval(1.0, self._count_down)
        self.panel.mount(self.clocks, after="#game-title")
        self.panel.mount(Static(id="terms", markup=False), after="#game-title")
        self.panel.mount(self.chat_log, after="#moves")
        self._show_terms()

    @work(group="terms", exit_on_error=False)
    async def _show_terms(self) -> None:
        """Under the title, what the game is played for: ``rated 3+2``, ``casual, no clock``."""
        try:
            room = RoomSummary.of(self._room, await self._session.link.room_info(self._room))
        except (NetworkError, ProtocolError, TimeoutError):
            return  # the panel goes without; the game goes on
        if room is not None:
            self.panel.query_one("#terms", Static).update(words.terms_line(room.terms))

    def _clock_came(self, reading: ClockReading) -> None:
        """The server's CLOCK (or the game's end): both clocks as it says."""
        self.clocks.reading = reading

    def _turn_started(self, event: TurnStarted) -> None:
        """A viewer is told whom they watch and who is to move; anyone back, that they are."""
        self._last_turn = event
        back = self._back_note()
        if self.mine is not None:
            super()._turn_started(event)
            if back and event.submits:
                self.panel.say(back)
            elif back:
                self.panel.say(f"{back} {event.label} is thinking…", "thinking")
        else:
            names = self.room_game.names
            watching = (
                f"Watching {names[Player.RED]} (RED) against {names[Player.YELLOW]} (YELLOW): "
                f"{event.label} is to move"
            )
            self.panel.say(f"{back}\n{watching}" if back else watching)
        if self._away:
            self._show_away()

    # ----- an opponent away (§5.1) ----------------------------------------------------

    def _away_or_back(self, news: wire.Away | wire.Back) -> None:
        """AWAY starts a countdown in the panel; BACK ends it."""
        if isinstance(news, wire.Away):
            self._away[news.user] = time.monotonic() + news.seconds
            self._show_away()
            return
        self._away.pop(news.user, None)
        if self._widgets_ready:
            said = words.back(news.user)
            self.panel.say(said)
            self.set_timer(BACK_NEWS_SECONDS, partial(self._news_over, said))

    def _news_over(self, said: str) -> None:
        """``said`` is old news: unless something else was said since, the turn's line again."""
        shown = self.panel.news
        if shown is None or shown.text != said or self.driver.is_over or self.coming_back:
            return
        if self._last_turn is not None:
            self._turn_started(self._last_turn)

    def _count_down(self) -> None:
        """Every second: the seconds left to those away, until they are back or the game ends."""
        if self.driver.is_over:
            self._away.clear()
        elif self._away:
            self._show_away()

    def _show_away(self) -> None:
        if not self._widgets_ready:
            return  # the first tick shows it
        now = time.monotonic()
        lines = [
            words.away(user, max(0, math.ceil(until - now))) for user, until in self._away.items()
        ]
        back = self._back_note()
        self.panel.say("\n".join([back, *lines] if back else lines))

    def _back_note(self) -> str:
        """``Back in the game.`` until a move is played after coming back; else nothing."""
        return self._back if len(self.driver.moves) == self._moves_when_back else ""

    # ----- coming back after the connection was lost ----------------------------------

    def _halted(self) -> str:
        """The turn line while we come back, once the game ended while we were away, or on time."""
        if self.coming_back:
            return "Reconnecting…"
        if self._over_while_away:
            return "Game over"
        ended, result = self.room_game.ended, self.driver.result
        if ended is not None and ended.status == 3 and result is not None and result.winner:
            return f"{result.winner.name} wins on time"  # not "by forfeit": nobody gave up
        return super()._halted()

    def _came_back_into(self, back: RoomGame) -> GameScreen:
        """The screen of the game the server put us back in (it takes this one's place)."""
        return online_game_screen(
            back,
            self._session,
            self._room,
            back=True,
            before=self.driver,
            chat=self.chat_log.said,
            ascii_only=self._ascii_only,
            saves_last_until_quit=self._saves_last_until_quit,
        )

    async def _release(self) -> None:
        """Once the game is closed, stop reading the room's news: the lobby reads again."""
        await self.room_game.close()

    def _chat_arrived(self, user: str, text: str) -> None:
        """A line of the room's chat: into the history under the moves (plain text)."""
        self.chat_log.add(user, text)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Hide what a lobby game has no use for; Forfeit only for a player in a live game.

        Once the game is over nobody is left to forfeit to, and its chat lasts a minute.
        """
        if action in HIDDEN_ACTIONS:
            return False
        if action == "rematch":  # §5.5: asked of the other player once the game is over
            over = self.driver.is_over and not self._session.link.lost
            return over and self.mine is not None and not self.coming_back
        if action == "talk" and self.driver.is_over:  # §5.6: a minute's chat after the end
            return not self.coming_back and not self._session.link.lost and self._chat_after
        if action in ("forfeit", "talk") and (self.driver.is_over or self.coming_back):
            return False  # a forfeit sent now would be lost: after coming back
        if action == "forfeit":
            return self.mine is not None
        return super().check_action(action, parameters)

    def _show_problem(self, problem: str) -> None:
        """Why the game stopped; no ``n`` here (a new game is the lobby's): Esc goes back.

        While we come back, a key that needs the game (a move) is told that we do.
        """
        if self.coming_back:
            self.panel.say(self._trying, "thinking")
            return
        self.panel.say(f"{problem}\nesc: back to the lobby", "error")

    def action_rematch(self) -> None:
        """Once the game is over, ask the other player for another, colours swapped."""
        if self.mine is not None and self.check_action("rematch", ()):
            self.query_one(ChallengeListener).ask_rematch(self.room_game.names[self.mine.other])

    def _show_result(self, result: GameOver) -> None:
        """The result; the room is gone, so a challenge (a rematch) may come here now."""
        super()._show_result(result)
        self._chat_after = True  # the finished room's chat lasts a minute (§5.6)
        self.set_timer(REMATCH_WINDOW, self._chat_after_ended)
        self.query_one(ChallengeListener).listen()
        self._watch_after_the_end()

    @work(group="after-the-end", exclusive=True, exit_on_error=False)
    async def _watch_after_the_end(self) -> None:
        """Once the game is over nothing asks the server: a lost connection is said at once."""
        link = self._session.link
        why = await link.gone()
        if link is self._session.link and not self.coming_back:
            self.panel.say(words.connection_went(why), "error")
            self.refresh_bindings()  # no rematch on a lost connection

    def _say_after_game(self, text: str) -> None:
        self.panel.say(f"{text}\n{self._ratings}Esc: back to the lobby", "result")

    def _chat_after_ended(self) -> None:
        self._chat_after = False
        self.refresh_bindings()

    def _heard(self, message: ServerMessage) -> None:
        """After the game: chat in the finished room; a RATING line (both: the result says them)."""
        if isinstance(message, wire.ChatLine):
            self.chat_log.add(message.user, message.text)
        if isinstance(message, RatingChange):
            said = self._rating_news.heard(message)
            if said is not None and (result := self.driver.result) is not None:
                self._ratings = f"{said}\n"
                self.panel.say(self._result_text(result), "result")

    def on_challenge_listener_begun(self, begun: ChallengeListener.Begun) -> None:
        """A rematch (or a challenge) was accepted: its game takes this screen's place."""
        self._successor = online_game_screen(
            begun.game,
            self._session,
            begun.room,
            ascii_only=self._ascii_only,
            saves_last_until_quit=self._saves_last_until_quit,
        )
        if self.is_active:
            self._go_on()

    def action_talk(self) -> None:
        """Open the chat line while the room (or its last minute) lasts; a guest only watches."""
        if self._session.guest:
            self.panel.say(GUESTS_ONLY_WATCH)
        elif self.check_action("talk", ()):
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
            mine = self.room_game.names[self.mine]
            self.driver.resign(self.mine, words.lost_how(mine, 2, stayed_away=False))

    def action_menu(self) -> None:
        """Esc: close the chat line; after the game, back to the lobby; during it, ask first."""
        chat = self.query_one(ChatInput)
        if chat.display:
            chat.close()
            self.board.focus()
            return
        if self.driver.is_over:
            self._session.gave_up = self._session.gave_up or self.coming_back
            self.query_one(ChallengeListener).stop()  # the lobby hears them from now on
            self.dismiss(None)
            return
        if self.mine is None:
            self._session.still_in_room = True  # a viewer left a game under way
            self.dismiss(None)
            return
        self.app.push_screen(confirm_leaving(), self._leave_confirmed)

    def _leave_confirmed(self, confirmed: bool | None) -> None:
        if confirmed:
            self._forfeit_confirmed(True)
            self.dismiss(None)

    def _offers_play(self) -> bool:
        """A viewer plays no move: no Play in the footer, not even dimmed."""
        return self.mine is not None and super()._offers_play()

    def _tell_seat_left(self, player: Player, reason: str) -> None:
        """Nothing: the result line says what happened (a time loss is not "RED left")."""

    def _result_text(self, result: GameOver) -> str:
        """The players by name; Esc goes back to the lobby."""
        text = words.room_game_over(
            self.room_game.names, result.winner, result.state, result.reason
        )
        rematch = "r: rematch · " if self.mine is not None else ""
        return f"{text}\n{self._ratings}{rematch}Esc: back to the lobby"
