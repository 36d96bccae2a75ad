"""A tic-tac-toe game in a room of an INFO1112 server: the 3 × 3 board, whose turn, the end.

A worker follows the room (``TicTacToeRoom``): each board the server sends is
checked and drawn, a move the server refuses is said, and the end is put in
the handout's words. f forfeits (after asking); Esc goes back to the lobby,
asking first when that would forfeit a game being played.
"""

from __future__ import annotations

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Center, Vertical
from textual.screen import Screen
from textual.widgets import Static

from c4tui.client.tictactoe import Ended, Refused, RoomNews, TicTacToeRoom, end_words
from c4tui.net.errors import NetworkError, ProtocolError
from c4tui.tictactoe import Board, Mark
from c4tui.ui.commands import ShowsAGame
from c4tui.ui.screens.confirm import confirm_forfeit, confirm_leaving
from c4tui.ui.widgets.footer import FittingFooter
from c4tui.ui.widgets.tictactoe_board import TicTacToeBoard


class TicTacToeScreen(ShowsAGame, Screen[bool | None]):
    """Play or watch one room's game; dismissed with True if we are still in the room."""

    DEFAULT_CSS = """
    TicTacToeScreen #tictactoe-title { text-style: bold; margin: 1 2; height: auto; }
    TicTacToeScreen Center { height: auto; }
    TicTacToeScreen #tictactoe-status { margin: 1 2 0 2; height: auto; }
    TicTacToeScreen #tictactoe-status.-error { color: $error; text-style: bold; }
    TicTacToeScreen #tictactoe-status.-over { color: $success; text-style: bold; }
    """

    BINDINGS = [
        Binding("f", "forfeit", "Forfeit", id="tictactoe.forfeit"),
        Binding("escape", "leave", "Lobby", id="tictactoe.leave"),
    ]

    def __init__(self, room: TicTacToeRoom, *, ascii_only: bool = False) -> None:
        super().__init__()
        self.room = room
        self._ascii_only = ascii_only
        self._broken = False

    def compose(self) -> ComposeResult:
        """Who plays whom, the board, a status line, the footer."""
        with Vertical():
            yield Static(self._title(), id="tictactoe-title", markup=False)
            with Center():
                yield TicTacToeBoard(
                    self.room.board or Board(), ascii_only=self._ascii_only, id="tictactoe-board"
                )
            yield Static("", id="tictactoe-status", markup=False)  # it quotes names
        yield FittingFooter(show_command_palette=False)

    def _title(self) -> str:
        names = self.room.names
        watching = "" if self.room.mine is not None else " (watching)"
        return f"Tic-tac-toe: {names[Mark.X]} (X) against {names[Mark.O]} (O){watching}"

    @property
    def board(self) -> TicTacToeBoard:
        """The board widget."""
        return self.query_one(TicTacToeBoard)

    def on_mount(self) -> None:
        """Show whose turn it is and follow the room."""
        self.board.focus()
        self._show_turn()
        self._follow()

    def _say(self, text: str, kind: str = "") -> None:
        status = self.query_one("#tictactoe-status", Static)
        status.update(text)
        status.set_class(kind == "error", "-error")
        status.set_class(kind == "over", "-over")

    def _show_turn(self, note: str = "") -> None:
        room = self.room
        self.board.accepting = room.our_turn
        self.refresh_bindings()
        if room.board is None:
            text = "Waiting for the board…"
        elif room.mine is None:
            text = f"{room.to_move}'s turn ({room.board.turn.name}). Esc: back to the lobby."
        elif room.our_turn:
            text = f"Your turn ({room.mine.name}): choose a cell (arrows, 1-9, mouse), then Enter."
        else:
            text = f"{room.to_move}'s turn: waiting for their move."
        self._say(f"{note}\n{text}" if note else text, "error" if note else "")

    # ----- following the room ----------------------------------------------------------

    @work(group="room", exclusive=True, exit_on_error=False)
    async def _follow(self) -> None:
        try:
            while True:
                news = await self.room.next_news()
                self._show(news)
                if isinstance(news, Ended):
                    return
        except (NetworkError, ProtocolError) as error:
            self._broken = True
            self.board.accepting = False
            # A server that hung up says why itself; one that broke its protocol is named so.
            why = str(error) if self.room.link.lost else f"The server broke off: {error}"
            self._say(f"{why}\nEsc: back to the lobby", "error")

    def _show(self, news: RoomNews) -> None:
        board = self.board
        last = board.board.move_to(news.board) or board.last  # None for a first board midway
        board.show(news.board, last)
        if isinstance(news, Refused):
            self._show_turn("The server refused that move; the board is unchanged.")
        elif isinstance(news, Ended):
            board.accepting = False
            self.refresh_bindings()
            words = end_words(news, self.room.link.user, watching=self.room.mine is None)
            self._say(f"{words}\nEsc: back to the lobby", "over")
        else:
            board.cursor_to_free_cell()  # a new turn: start on a cell that can be played
            self._show_turn()

    # ----- playing ---------------------------------------------------------------------

    def on_tic_tac_toe_board_cell_chosen(self, message: TicTacToeBoard.CellChosen) -> None:
        """Place our mark, if it is our turn and the cell is free."""
        room = self.room
        if room.mine is None:
            self._say("You are watching: the moves are the players'.")
            return
        if not room.our_turn or room.board is None:
            self._show_turn("Not your turn.")
            return
        problem = room.board.refusal(message.x, message.y)
        if problem is not None:
            self._show_turn(f"Not there: {problem}.")
            return
        self.board.accepting = False
        self.run_worker(room.place(message.x, message.y), exit_on_error=False)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Forfeit only while we play a game that goes on."""
        if action == "forfeit":
            return self._playing
        return True

    @property
    def _playing(self) -> bool:
        return self.room.mine is not None and self.room.ended is None and not self._broken

    def action_forfeit(self) -> None:
        """Give the game up, once confirmed."""
        if self._playing:
            self.app.push_screen(confirm_forfeit(), self._forfeit_confirmed)

    def _forfeit_confirmed(self, confirmed: bool | None) -> None:
        if confirmed and self._playing:
            self.run_worker(self.room.forfeit(), exit_on_error=False)
            self.refresh_bindings()

    def action_leave(self) -> None:
        """Back to the lobby; during a game we play, only once we agree to forfeit."""
        if not self._playing:
            # A viewer of a game that goes on is still in its room.
            self.dismiss(self.room.ended is None and not self._broken)
            return
        self.app.push_screen(confirm_leaving(), self._leave_confirmed)

    def _leave_confirmed(self, confirmed: bool | None) -> None:
        if confirmed:
            self.dismiss(True)  # the lobby hangs up: the server counts it as a forfeit
