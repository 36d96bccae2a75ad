"""The lobby screen: rooms to play in and to watch, creating one, quick play, waiting, chat.

Everything that talks to the server runs in workers, so no key waits for the
network. While we wait in a room, a worker reads what the server pushes: chat
shows at once, and BEGIN (or INPROGRESS, for a viewer) opens the game screen.
Leaving a room the protocol has no word for (cancelling a wait) is done by
logging in again on a fresh connection.

A lost connection is made again by itself (spec §5.1: the status line counts the
tries, Esc gives up), and a game the server puts us back in (REJOIN, after coming
back or after any login) opens at once: ``ComingBackLobby`` is that part of the
screen. The session (``OnlineSession``) is shared with the games opened here,
which come back by themselves too.

The same screen serves the tic-tac-toe rooms of INFO1112 servers: their
protocol has no room details, quick play or chat, so the list shows names and
whether a player is awaited, and those keys are not offered.
"""

from __future__ import annotations

from collections.abc import Sequence

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import DataTable, Static

from c4tui.client import in_public, words
from c4tui.client.outcomes import CreateOutcome, JoinOutcome
from c4tui.client.room_game import RoomGame, room_game_from
from c4tui.client.tictactoe import TicTacToeRoom, wait_for_start
from c4tui.client.words import Voice
from c4tui.engine import Rules
from c4tui.match.settings import MatchSettings
from c4tui.net.errors import NetworkError, ProtocolError
from c4tui.protocols import lobby as wire
from c4tui.ui.challenges import asked_for, colour_chosen, game_offered
from c4tui.ui.lobby_rows import lobby_rows
from c4tui.ui.online_session import OnlineSession, game_start, still_on
from c4tui.ui.screens.lobby_guests import GUEST_HELP, players_only
from c4tui.ui.screens.lobby_public import PUBLIC_BINDINGS, PublicLobby
from c4tui.ui.screens.lobby_standing import STANDING_ACTIONS, STANDING_BINDINGS
from c4tui.ui.screens.login import LoggedIn
from c4tui.ui.screens.online_game import online_game_screen
from c4tui.ui.screens.past_games import PastGamesScreen
from c4tui.ui.screens.tictactoe import TicTacToeScreen
from c4tui.ui.widgets.chat import ChatInput
from c4tui.ui.widgets.footer import FittingFooter
from c4tui.ui.widgets.player_table import PlayerTable
from c4tui.ui.widgets.room_table import LOBBY_COLUMNS, TICTACTOE_COLUMNS, RoomTable

#: Seconds between two refreshes of the room list.
REFRESH_SECONDS = 5.0


class LobbyScreen(PublicLobby):
    """Rooms, and what to do with them. Esc: cancel a wait, or back to the menu."""

    DEFAULT_CSS = """
    LobbyScreen #lobby-title { text-style: bold; margin: 1 2 0 2; height: auto; }
    LobbyScreen #lobby-help { color: $text-muted; margin: 0 2 1 2; height: auto; }
    LobbyScreen DataTable { height: 1fr; margin: 0 2; }
    LobbyScreen #lobby-status { margin: 1 2 0 2; height: auto; }
    LobbyScreen #lobby-status.-error { color: $error; text-style: bold; }
    LobbyScreen #chat { margin: 0 2; }
    """

    BINDINGS = [
        Binding("r", "refresh", "Refresh", id="lobby.refresh"),
        Binding("enter,j", "join", "Play", id="lobby.join"),
        Binding("w", "watch", "Watch", id="lobby.watch"),
        Binding("c", "create", "Create", id="lobby.create"),
        Binding("g", "quick_play", "Quick play", id="lobby.quick"),
        Binding("t", "talk", "Chat", id="lobby.talk"),
        Binding("escape", "leave", "Back", id="lobby.leave"),
        Binding("m", "past_games", "My games", id="lobby.my_games"),
        Binding("p", "past_games(True)", "Player's games", id="lobby.players_games"),
        *STANDING_BINDINGS,
        *PUBLIC_BINDINGS,
    ]

    def __init__(
        self,
        logged_in: LoggedIn,
        settings: MatchSettings,
        *,
        ascii_only: bool = False,
        saves_last_until_quit: bool = False,
        reconnect_delays: Sequence[float] | None = None,
        key_visit: bool = False,
    ) -> None:
        """``reconnect_delays``: seconds before each try to come back (None: the client's).

        ``key_visit``: an ssh visitor's key logged in (its session's password is the
        visit's token): P asks for no current password, the title names no loopback host.
        """
        super().__init__()
        self.key_visit = key_visit
        self._session = OnlineSession(logged_in, reconnect_delays)
        self._settings = settings
        # Handed on to the game screens it opens.
        self._ascii_only = ascii_only
        self._saves_last_until_quit = saves_last_until_quit
        self._room: str | None = None  # the room we wait in
        self.tictactoe = self._session.tictactoe
        self.coming_back = False  # logging in again after the connection was lost

    @property
    def game(self) -> tuple[int, int, Rules]:
        """The board and rules chosen in the menu (for Create and Quick play)."""
        settings = self._settings
        return settings.columns, settings.rows, settings.rules

    @property
    def offer(self) -> str:
        """The menu's game and terms in words: ``7 × 6 Classic, rated 3+2`` (quick play's)."""
        return game_offered(self._settings)

    def compose(self) -> ComposeResult:
        """Title, rooms, status, chat line, footer."""
        values = self._session.values
        place = "Tic-tac-toe rooms" if self.tictactoe else "Lobby"
        # An ssh visitor reaches the lobby on a loopback port: its host means nothing to them.
        host = "this server" if self.key_visit else values["host"]
        if self.tictactoe:
            help_text = "Enter plays in a waiting room (you place O), w watches, c creates one."
        else:
            help_text = (
                f"Enter plays in a waiting room, w watches, c creates one, g meets the next "
                f"person waiting: {self.offer} (your menu choice"
                f"{colour_chosen(self._settings)}). m: your finished games; "
                f"p: the chosen room's players'; i: your profile (k there: your ssh keys); "
                f"l: the leaderboard; P: a new password; B: whom you block (\\[blocked] in the "
                f"lists). Tab: the players online; c there challenges one, i: their profile, "
                f"b blocks, x reports them."
            )
        with Vertical():
            yield Static(
                f"{place} on {host} — logged in as {values['user']}",
                id="lobby-title",
            )
            yield Static(help_text, id="lobby-help")
            yield RoomTable(TICTACTOE_COLUMNS if self.tictactoe else LOBBY_COLUMNS, id="rooms")
            yield PlayerTable(id="players")
            yield self._challenge_listener()
            yield Static("", id="lobby-status", markup=False)  # it quotes the server
            yield ChatInput("A message for the room; Enter sends", id="chat")
        yield FittingFooter(show_command_palette=False)

    def on_mount(self) -> None:
        """The first list, and a refresh every few seconds."""
        self.query_one(PlayerTable).display = not self.tictactoe
        if self._session.guest:  # an ssh guest only watches (§9)
            self.query_one("#lobby-help", Static).update(GUEST_HELP)
        self.query_one("#rooms", RoomTable).focus()
        self.action_refresh()
        #: The refresh every few seconds (paused by tests that must not rely on it).
        self.refresh_timer = self.set_interval(REFRESH_SECONDS, self._refresh_quietly)

    def on_screen_resume(self) -> None:
        """Back from a game: the rooms have changed (a viewer who left one leaves its room).

        Back from a profile opened on the player list, that list keeps the focus.
        """
        self._room = None
        self.query_one(ChatInput).close()
        if self.focused is not self.query_one(PlayerTable):
            self.query_one("#rooms", DataTable).focus()
        if self._session.still_in_room:
            self._reconnect()
        else:
            self._load_rooms()

    # ----- the room list -------------------------------------------------------------

    def _refresh_quietly(self) -> None:
        """The list again, in a room we wait in too (ours is on it); not under a game."""
        if self.is_active and not self._offline:
            self._load_rooms()

    def action_refresh(self) -> None:
        """Ask the server for the rooms again; a lost connection is made again, asked or not."""
        self._session.gave_up = False
        if self.link.lost and not self.tictactoe and not self.coming_back:
            self.coming_back = True
            self._come_back(None)
        else:
            self._load_rooms()

    @work(group="rooms", exclusive=True, exit_on_error=False)
    async def _load_rooms(self, note: str = "", news: str = "") -> None:
        """The rooms; a game the server put us back in opens (REJOIN); ``note`` is said.

        ``note`` is a problem; else ``news`` is said, good news (the server is back).
        """
        try:
            rooms, players, self._session.blocked = await lobby_rows(self.link, self.tictactoe)
        except (NetworkError, ProtocolError, TimeoutError) as error:
            self._lost(error)
            return
        self.query_one("#rooms", RoomTable).show(rooms)
        self.query_one(PlayerTable).show(players)
        self._session.gave_up = False  # connected after all
        self._watch_link()
        rejoined = self._session.take_rejoined()
        if rejoined is not None:  # its INPROGRESS is on the way: no waiting to speak of
            self._room = rejoined
            self._say(still_on(rejoined))
            self._wait_for_game()
        elif self._room is None:
            empty = "No rooms yet: c creates one" + (
                "." if self.tictactoe else ", g waits for an opponent."
            )
            said = note or news or self.challenge_note or ("" if rooms else empty)
            self._say(said, error=bool(note))
            self._listen()

    @work(group="watch", exclusive=True, exit_on_error=False)
    async def _watch_link(self) -> None:
        """Notice a lost connection at once while the list is shown, not at its next refresh.

        In a room, the wait for the game notices it; in a game, the game screen does.
        """
        link = self.link
        why = await link.gone()
        if link is self.link and self.is_current and self._room is None:
            self._lost(NetworkError(why))

    def _chosen(self) -> str | None:
        return self.query_one("#rooms", RoomTable).chosen

    # ----- entering a room -----------------------------------------------------------

    @players_only
    def action_join(self) -> None:
        """Play in the chosen room (its creator waits)."""
        self._enter(wire.Mode.PLAYER)

    def on_data_table_row_selected(self) -> None:
        """Enter on a row (the table takes Enter before the screen does): play there."""
        self.action_join()

    def action_watch(self) -> None:
        """Watch the chosen room."""
        self._enter(wire.Mode.VIEWER)

    def _enter(self, mode: wire.Mode) -> None:
        name = self._chosen()
        if self._room is not None or name is None:
            self._say("Choose a room first (r refreshes the list).", error=name is None)
            return
        self._stop_listening()
        self._join(name, mode)

    def _refused(self, said: str) -> None:
        """Say why we did not get in, and keep saying it over the list asked again."""
        self._say(said, error=True)
        self._load_rooms(note=said)  # (a refresh says its own news, or nothing, else)

    @work(group="enter", exclusive=True, exit_on_error=False)
    async def _join(self, name: str, mode: wire.Mode) -> None:
        try:
            joined = await self.link.join(name, mode)
        except (NetworkError, ProtocolError, TimeoutError) as error:
            self._lost(error)
            return
        if joined is JoinOutcome.NO_SUCH_ROOM and mode is wire.Mode.PLAYER:  # a block? (§7)
            self._refused(await in_public.join_refused(self.link, name, Voice.APP))
            return
        if joined is not JoinOutcome.JOINED:
            self._refused(words.JOIN.said(joined, Voice.APP))
            return
        self._wait_in(name, "Joining…" if mode is wire.Mode.PLAYER else "Watching…")

    @players_only
    def action_create(self) -> None:
        """Open a room with the menu's board and rules, named after you, and wait in it."""
        if self._room is None:
            self._stop_listening()
            self._create()

    @work(group="enter", exclusive=True, exit_on_error=False)
    async def _create(self) -> None:
        user = self._session.values["user"]
        game = None if self.tictactoe else self.game
        described = "tic-tac-toe" if game is None else asked_for(self._settings)
        colour = self._settings.lobby_colour
        for suffix in ["", *(f" {n}" for n in range(2, 20))]:
            name = f"{user[:12]} room{suffix}"
            try:
                created = await self.link.create(name, game, self._settings.terms, colour)
            except (NetworkError, ProtocolError, TimeoutError) as error:
                self._lost(error)
                return
            if created is CreateOutcome.CREATED:
                self._wait_in(name, f"Room {name!r} ({described}) is open.")
                return
            if created is not CreateOutcome.NAME_TAKEN:
                break
        self._say(words.CREATE.said(created, Voice.APP), error=True)

    @players_only
    def action_quick_play(self) -> None:
        """Meet the next person waiting for the same board and rules, or wait for one."""
        if self._room is None:
            self._stop_listening()
            self._quick()

    @work(group="enter", exclusive=True, exit_on_error=False)
    async def _quick(self) -> None:
        try:
            room = await self.link.quick_play(self.game, self._settings.terms)
        except (NetworkError, ProtocolError, TimeoutError) as error:
            self._lost(error)
            return
        if room is None:
            self._say(words.QUICK_PLAY_REFUSED.said(Voice.APP), error=True)
            return
        self._wait_in(room, f"Quick play ({self.offer}): in room {room!r}.")

    def _wait_in(self, room: str, note: str) -> None:
        self._room = room
        chat = "" if self.tictactoe else "; t chats with the room"
        self._say(f"{note} Waiting for the game… Esc leaves{chat}.")
        self._wait_for_game()
        self._load_rooms()  # the room we wait in is on the list

    @work(group="wait", exclusive=True, exit_on_error=False)
    async def _wait_for_game(self) -> None:
        """Read the server's pushes until the game begins; chat shows meanwhile."""
        self._stop_listening()  # from now on, the wait reads what the server pushes
        if self.tictactoe:
            await self._wait_for_tictactoe()
            return
        room = self._room
        assert room is not None
        try:
            message = await game_start(self.link, self._chat_arrived)
            game = await room_game_from(self.link, message, room)
        except (NetworkError, ProtocolError, TimeoutError) as error:
            self._lost(error, room)
            return
        # A player shown a game under way is back in it (REJOIN).
        back = isinstance(message, wire.InProgress) and game.colour_of(self.link.user) is not None
        self._open_game(game, room, back)

    def _chat_arrived(self, line: wire.ChatLine) -> None:
        self.notify(line.text, title=f"{line.user} says", markup=False)

    async def _wait_for_tictactoe(self) -> None:
        try:
            start = await wait_for_start(self.link)
        except (NetworkError, ProtocolError) as error:
            self._room = None
            self._say(f"The server is gone: {error}", error=True)
            return
        room = TicTacToeRoom(self.link, start)
        screen = TicTacToeScreen(room, ascii_only=self._ascii_only)
        self.app.push_screen(screen, self._game_left)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Tic-tac-toe servers have no quick play, no chat, keep no games and rate nobody."""
        tictactoe_has_none = {"quick_play", "talk", "past_games", *STANDING_ACTIONS}
        if self.tictactoe and action in tictactoe_has_none:
            return False
        return super().check_action(action, parameters)

    def _open_game(self, game: RoomGame, room: str, back: bool) -> None:
        screen = online_game_screen(
            game,
            self._session,
            room,
            back=back,
            ascii_only=self._ascii_only,
            saves_last_until_quit=self._saves_last_until_quit,
        )
        self.app.push_screen(screen)

    def _game_left(self, still_in_room: bool | None) -> None:
        """Back from a tic-tac-toe game; a viewer who left one under way leaves its room too."""
        if still_in_room:
            self._reconnect()

    # ----- finished games ------------------------------------------------------------

    def action_past_games(self, of_room: bool = False) -> None:
        """Your finished games, or (``of_room``) those of the chosen room's players."""
        room = self._chosen() if of_room else None
        if of_room and room is None:
            self._say("Choose a room first (r refreshes the list).", error=True)
            return
        games = PastGamesScreen(
            self.link,
            room,
            ascii_only=self._ascii_only,
            saves_last_until_quit=self._saves_last_until_quit,
        )
        self.app.push_screen(games)

    # ----- chat and leaving ----------------------------------------------------------

    @players_only
    def action_talk(self) -> None:
        """Type a message for everyone in the room you wait in."""
        if self._room is None:
            self._say(words.NO_CHAT_IN_THE_LOBBY)
            return
        self.query_one(ChatInput).open()

    def on_chat_input_said(self, message: ChatInput.Said) -> None:
        """Send what was typed to the room."""
        self.run_worker(self.link.send(f"CHAT:{message.text}"), exit_on_error=False)
        self.query_one("#rooms", DataTable).focus()

    def action_leave(self) -> None:
        """Close the chat box; else leave the room you wait in (a fresh login), or the lobby."""
        chat = self.query_one(ChatInput)
        if chat.display:
            chat.close()
            self.query_one("#rooms", DataTable).focus()
            return
        if self.coming_back:
            self.workers.cancel_group(self, "comeback")
            self.coming_back = False
            self._session.gave_up = True
            self._say_gave_up("You stopped reconnecting")
            return
        if self._room is None:
            self.run_worker(self.link.close(), exit_on_error=False)
            self.dismiss(None)
            return
        self._room = None
        self.workers.cancel_group(self, "wait")
        self._say("Leaving the room…")
        self._reconnect()

    @work(group="enter", exclusive=True, exit_on_error=False)
    async def _reconnect(self) -> None:
        problem = await self._session.log_in_afresh()
        if problem is not None:
            self._say(problem, error=True)
            return
        self._say("You left the room.")
        self.action_refresh()
