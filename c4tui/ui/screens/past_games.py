"""A player's finished games, fetched from the lobby (HISTORY, GAME): yours, or a room's players'.

One row a game, newest first: when it started (in this computer's time zone), the
opponent, the result for the player listed, its length and its board. Enter opens
the game in the review (``past_review``: the solver's verdicts on the boards it
proves); Esc goes back to where it was opened (``back_to`` names it: the lobby, the reports…).
The requests run in a worker on the lobby's connection (it answers requests side by
side); a lost server, an unknown player or no games at all is said in a line.
"""

from __future__ import annotations

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import DataTable, Static

from c4tui.client import kept as words_of
from c4tui.client import words
from c4tui.client.link import LobbyLink, RoomSummary
from c4tui.engine import Player
from c4tui.match.settings import describe_game
from c4tui.net.errors import NetworkError, ProtocolError
from c4tui.protocols.past import KeptGame
from c4tui.ui.screens.past_review import PastGameReview
from c4tui.ui.widgets.footer import FittingFooter


class PastGamesScreen(Screen[None]):
    """One player's finished games; Enter reviews one, Esc goes back.

    Args:
        link: the lobby connection (logged in).
        room: list the games of this room's players (the first; o shows the other one).
            None: the games of ``user``.
        user: whose games to list without a room (None: the person logged in).
        ascii_only: draw with ASCII characters only (handed on to the review).
        saves_last_until_quit: saved games go when the app quits (handed on to the review).
        back_to: where Esc goes back to, in words ("the lobby", "the game").
    """

    DEFAULT_CSS = """
    PastGamesScreen #games-title { text-style: bold; margin: 1 2 0 2; height: auto; }
    PastGamesScreen #games-help { color: $text-muted; margin: 0 2 1 2; height: auto; }
    PastGamesScreen DataTable { height: 1fr; margin: 0 2; }
    PastGamesScreen #games-status { margin: 1 2 0 2; height: auto; }
    PastGamesScreen #games-status.-error { color: $error; text-style: bold; }
    """

    BINDINGS = [
        Binding("enter,v", "review", "Review", id="games.review"),
        Binding("o", "other_player", "Other player", id="games.other"),
        Binding("r", "refresh", "Refresh", id="games.refresh"),
        Binding("escape", "leave", "Back", id="games.leave"),
    ]

    def __init__(
        self,
        link: LobbyLink,
        room: str | None = None,
        *,
        user: str | None = None,
        ascii_only: bool = False,
        saves_last_until_quit: bool = False,
        back_to: str = "the lobby",
    ) -> None:
        super().__init__()
        self.link = link
        self.back_to = back_to
        self._room = room
        self._ascii_only = ascii_only
        self._saves_last_until_quit = saves_last_until_quit
        #: Whose games can be listed (the room's players, once known); the first is shown.
        self._players: tuple[str, ...] = () if room is not None else (user or link.user,)
        self._games: dict[int, KeptGame] = {}

    @property
    def whose(self) -> str | None:
        """The player whose games are listed (None: not known yet)."""
        return self._players[0] if self._players else None

    def compose(self) -> ComposeResult:
        """Title, help, the games, a status line, the footer."""
        with Vertical():
            yield Static("", id="games-title", markup=False)
            yield Static(
                "Enter reviews a game (with the solver's verdicts on the boards it proves); "
                f"Esc goes back to {self.back_to}.",
                id="games-help",
            )
            yield DataTable(id="games", cursor_type="row", zebra_stripes=True)
            yield Static("", id="games-status", markup=False)  # it quotes the server
        yield FittingFooter(show_command_palette=False)

    def on_mount(self) -> None:
        """The columns, then the games."""
        table = self.query_one(DataTable)
        table.add_columns("Started", "Opponent", "Terms", "Result", "Moves", "Board")
        table.focus()
        self.action_refresh()
        self._watch_link()

    @work(group="watch", exclusive=True, exit_on_error=False)
    async def _watch_link(self) -> None:
        """A lost connection is said at once (a toast over a review), not at the next ``r``."""
        said = words.connection_went(await self.link.gone())
        self._say(said, error=True)
        if self.app.screen is not self:  # a review on top: it needs no connection, but says so
            self.notify(said, severity="warning", markup=False)

    def _say(self, text: str, error: bool = False) -> None:
        status = self.query_one("#games-status", Static)
        status.update(text)
        status.set_class(error, "-error")

    def _show_title(self) -> None:
        whose = self.whose
        if whose is None:
            title = f"The players of room {self._room}"
        elif whose == self.link.user:
            title = f"Your finished games ({whose})"
        else:
            title = f"{whose}'s finished games"
        self.query_one("#games-title", Static).update(title)

    # ----- fetching --------------------------------------------------------------------

    def action_refresh(self) -> None:
        """Fetch the games again."""
        self._show_title()
        self._say("Fetching the games…")
        self._fetch()

    @work(group="games", exclusive=True, exit_on_error=False)
    async def _fetch(self) -> None:
        try:
            if not self._players and not await self._room_players():
                return
            whose = self.whose
            assert whose is not None
            games = await words_of.finished_games(
                self.link, None if whose == self.link.user else whose
            )
        except (NetworkError, ProtocolError, TimeoutError) as error:
            self._say(words.connection_went(str(error)), error=True)  # as the watch says it
            return
        self._show_title()
        self._show_games(whose, games or [])
        self._say(self._summary(whose, games), error=games is None)
        self.refresh_bindings()

    async def _room_players(self) -> bool:
        """Learn whose games to list from the room; False (having said why) if it is gone."""
        room = self._room or ""
        summary = RoomSummary.of(room, await self.link.room_info(room))
        if summary is None:
            self._say(f"Room {room!r} is gone: Esc, then r refreshes the rooms.", error=True)
            return False
        self._players = tuple(name for name in (summary.red, summary.yellow) if name)
        return True

    def _show_games(self, whose: str, games: list[KeptGame]) -> None:
        table = self.query_one(DataTable)
        table.clear()
        self._games = {game.number: game for game in games}
        for game in games:
            table.add_row(*_row(game, whose), key=str(game.number))

    def _summary(self, whose: str, games: list[KeptGame] | None) -> str:
        """The status line: what the list holds, or why it is empty."""
        mine = whose == self.link.user
        if games is None:
            return f"No such user: {whose}."
        if not games:
            return f"{'You have' if mine else whose + ' has'} no finished games yet."
        other = f" · o: {self._players[1]}'s games" if len(self._players) > 1 else ""
        counted = "1 game" if len(games) == 1 else f"{len(games)} games"
        return f"{counted}, newest first{other}."

    # ----- keys ------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """The other player only for a room of two; Review only with a game to review."""
        if action == "other_player":
            return len(self._players) > 1
        if action == "review":
            return bool(self._games)
        return True

    def action_other_player(self) -> None:
        """The room's other player's games."""
        if len(self._players) > 1:
            self._players = (*self._players[1:], self._players[0])
            self.action_refresh()

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        """Enter on a row (the table takes Enter before the screen does): review it."""
        self._review(str(event.row_key.value))

    def action_review(self) -> None:
        """Review the chosen game."""
        table = self.query_one(DataTable)
        if table.row_count:
            key = table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value
            self._review(str(key))

    def _review(self, key: str) -> None:
        game = self._games.get(int(key))
        whose = self.whose
        if game is None or whose is None:
            return
        review = PastGameReview(
            game,
            whose,
            ascii_only=self._ascii_only,
            saves_last_until_quit=self._saves_last_until_quit,
        )
        self.app.push_screen(review)

    def action_leave(self) -> None:
        """Back to where it was opened."""
        self.dismiss(None)


def _row(game: KeptGame, whose: str) -> tuple[str, ...]:
    """One game as the list shows it, from ``whose`` side."""
    colour = words_of.colour_of(game, whose) or Player.RED
    return (
        words_of.started_here(game),
        words_of.name_of(game, colour.other),
        words_of.terms_of(game),
        words_of.result_for(game, colour),
        str(len(game.moves)),
        describe_game(*game.game),
    )
