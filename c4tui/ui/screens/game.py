"""The game screen: the board, the status panel, and the turn loop that drives the backends."""

from __future__ import annotations

import asyncio
import threading

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Footer
from textual.worker import Worker, WorkerState

from c4tui.ai import SearchResult, search
from c4tui.ai.levels import HINT_SECONDS
from c4tui.engine import GameState, IllegalMoveError, Move, MoveKind, Player, Rules, describe_move
from c4tui.match import MatchController
from c4tui.ui.screens.help import HelpScreen
from c4tui.ui.widgets.board import Board
from c4tui.ui.widgets.status import StatusPanel

OPPONENT_GROUP = "opponent"
HINT_GROUP = "hint"


class GameScreen(Screen[None]):
    """One match: people play with keys or mouse; other backends are awaited in a worker."""

    BINDINGS = [
        Binding("p", "toggle_pop", "Drop/Pop", id="game.toggle_pop"),
        Binding("h", "hint", "Hint", id="game.hint"),
        Binding("u", "undo", "Undo", id="game.undo"),
        Binding("n", "new_game", "New", id="game.new"),
        Binding("escape,m", "menu", "Menu", id="game.menu"),
        Binding("question_mark", "help", "Help", key_display="?", id="game.help"),
    ]

    class MoveChosen(Message):
        """A backend answered: ``move`` for ``state`` (ignored if the game moved on)."""

        def __init__(self, state: GameState, move: Move) -> None:
            super().__init__()
            self.state = state
            self.move = move

    class HintFound(Message):
        """The hint search finished for ``state``."""

        def __init__(self, state: GameState, result: SearchResult) -> None:
            super().__init__()
            self.state = state
            self.result = result

    def __init__(
        self,
        controller: MatchController,
        ascii_only: bool = False,
        hint_seconds: float = HINT_SECONDS,
    ) -> None:
        super().__init__()
        self._hint_seconds = hint_seconds
        self._hint_cancel = threading.Event()
        self.controller = controller
        self._ascii_only = ascii_only
        self._failed = False

    # ----- layout --------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        """Board and panel side by side, footer (no header: a 20-row board needs the line)."""
        with Horizontal(id="game-body"):
            yield Board(self.controller.state, ascii_only=self._ascii_only, id="board")
            yield StatusPanel(
                self.controller.settings.describe(), ascii_only=self._ascii_only, id="status"
            )
        yield Footer()

    @property
    def board(self) -> Board:
        """The board widget."""
        return self.query_one(Board)

    @property
    def panel(self) -> StatusPanel:
        """The status panel."""
        return self.query_one(StatusPanel)

    def on_mount(self) -> None:
        """Focus the board and start the game."""
        self.board.focus()
        self._start_turn(None, starting=True)

    # ----- the turn loop -------------------------------------------------------------

    def _start_turn(self, played: tuple[GameState, Move] | None, starting: bool = False) -> None:
        """Show the position, then let the backends catch up and, if due, move.

        ``played`` is the position before the move just played and that move
        (None after undo or when a game is ``starting``). Backends are told of
        every move before the next one is asked for, so a network backend can
        send it first.
        """
        self._refresh_view()
        state = self.controller.state
        backend = self.controller.backend_to_move()
        if state.is_over:
            self._show_result(state)
        elif backend.interactive:
            self.panel.show_message("")
        else:
            self.panel.show_message(f"{backend.label} is thinking…", "thinking")
        self._run_backends(played, state, starting)

    @work(group=OPPONENT_GROUP, exclusive=True, exit_on_error=False)
    async def _run_backends(
        self, played: tuple[GameState, Move] | None, state: GameState, starting: bool
    ) -> None:
        """Off the UI's hands: start or tell the backends, then await the one to move."""
        for backend in list(self.controller.backends.values()):
            if starting:
                await backend.start(state)
            elif played is not None:
                await backend.move_played(*played)
        to_move = self.controller.backends[state.turn]
        if not state.is_over and not to_move.interactive:
            move = await to_move.choose_move(state)
            self.post_message(self.MoveChosen(state, move))

    def on_game_screen_move_chosen(self, message: GameScreen.MoveChosen) -> None:
        """Play a backend's move, unless undo or a new game made it stale."""
        if message.state is not self.controller.state:
            return
        try:
            self._play(message.move)
        except IllegalMoveError as error:
            backend = self.controller.backend_to_move()
            self._fail(f"{backend.label} tried an illegal move: {error}")

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        """A backend that fails (a server gone, a broken protocol) is reported, never a crash."""
        if event.state is WorkerState.ERROR and event.worker.group == OPPONENT_GROUP:
            self._fail(str(event.worker.error))

    def _fail(self, problem: str) -> None:
        """Stop the game where it is and say why; n starts over, m goes back."""
        self._failed = True
        self.board.accepting = False
        self.panel.show_message(f"{problem}\nn: try again · m: menu", "error")
        self.notify(problem, title="The game cannot go on", severity="error", timeout=8)
        self.refresh_bindings()

    def on_board_column_chosen(self, message: Board.ColumnChosen) -> None:
        """A person chose a column: play it, or say why not."""
        controller = self.controller
        state = controller.state
        if state.is_over:
            self.panel.show_message("The game is over. n: new game", "error")
            return
        if self._failed:
            self.panel.show_message("The game stopped. n: try again · m: menu", "error")
            return
        if not controller.is_interactive_turn():
            backend = controller.backend_to_move()
            self.panel.show_message(f"Wait: {backend.label} is to move", "error")
            return
        kind = MoveKind.POP if self.board.pop_mode else MoveKind.DROP
        move = Move(kind, message.column)
        reason = state.refusal(move)
        if reason is not None:
            self.panel.show_message(reason[0].upper() + reason[1:], "error")
            self.app.bell()
            return
        self._play(move)

    def _play(self, move: Move) -> None:
        """Play ``move`` for the side to move and go on to the next turn."""
        self._cancel_hint()
        before = self.controller.state
        self.controller.play(move)
        self.board.pop_mode = False
        self._start_turn((before, move))

    # ----- showing -------------------------------------------------------------------

    def _who(self) -> dict[Player, str]:
        """Who plays each colour, when it is worth saying (not for two people here)."""
        backends = self.controller.backends
        if all(backend.interactive for backend in backends.values()):
            return {}
        return {player: backend.label for player, backend in backends.items()}

    def _refresh_view(self) -> None:
        controller = self.controller
        state = controller.state
        self.board.show(state, controller.last_move)
        self.board.accepting = controller.is_interactive_turn() and not self._failed
        self.panel.show_turn(state, self._who())
        self.panel.show_mode(state.rules, self.board.pop_mode, state.is_over)
        last_mover = state.turn.other if controller.moves else None
        self.panel.show_moves(controller.moves, last_mover)
        self.refresh_bindings()

    def _show_result(self, state: GameState) -> None:
        if state.winner is not None:
            text = f"Four in a row: {state.winner.name} wins!"
        else:
            reason = state.draw_reason.value if state.draw_reason else "the game is drawn"
            text = f"Draw: {reason}."
        self.panel.show_message(f"{text}\nn: new game · m: menu", "result")

    # ----- actions -------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Hide Drop/Pop under classic rules; dim what can't be done right now."""
        controller = self.controller
        if action == "toggle_pop":
            if controller.settings.rules is not Rules.POPOUT:
                return False
            return True if controller.is_interactive_turn() and not self._failed else None
        if action == "hint":
            playing = controller.is_interactive_turn() and not self._failed
            return True if playing else None
        if action == "undo":
            if not all(backend.supports_undo for backend in controller.backends.values()):
                return False
            return True if controller.can_undo() and not self._failed else None
        return True

    def action_toggle_pop(self) -> None:
        """Switch the next move between dropping and popping."""
        if self.controller.settings.rules is not Rules.POPOUT:
            return
        self.board.pop_mode = not self.board.pop_mode
        self.panel.show_mode(Rules.POPOUT, self.board.pop_mode)

    def action_undo(self) -> None:
        """Take back the last move (against the computer: back to before your last move)."""
        if not self.controller.can_undo() or self._failed:
            return
        self._cancel_backend()
        self.controller.undo()
        self._start_turn(None)
        self.panel.show_message("Move taken back")

    def action_new_game(self) -> None:
        """Same settings, empty board."""
        self._cancel_backend()
        self.controller.restart()
        self._failed = False
        self.board.pop_mode = False
        self._start_turn(None, starting=True)

    def action_menu(self) -> None:
        """Back to the menu (the current game is abandoned)."""
        self._cancel_backend()
        self.app.run_worker(self.controller.close(), exit_on_error=False)
        self.dismiss(None)

    def action_help(self) -> None:
        """Show the rules and keys."""
        self.app.push_screen(HelpScreen())

    def _cancel_backend(self) -> None:
        self._cancel_hint()
        self.workers.cancel_group(self, OPPONENT_GROUP)

    # ----- hints ---------------------------------------------------------------------

    def action_hint(self) -> None:
        """Suggest a move for the person to move, computed off the UI's hands."""
        if not self.controller.is_interactive_turn() or self._failed:
            return
        self._cancel_hint()
        self._hint_cancel = threading.Event()
        self.panel.show_message("Looking for a good move…", "thinking")
        self._find_hint(self.controller.state, self._hint_cancel)

    @work(group=HINT_GROUP, exclusive=True, exit_on_error=False)
    async def _find_hint(self, state: GameState, cancel: threading.Event) -> None:
        result = await asyncio.to_thread(search, state, self._hint_seconds, 64, cancel)
        if not cancel.is_set():
            self.post_message(self.HintFound(state, result))

    def on_game_screen_hint_found(self, message: GameScreen.HintFound) -> None:
        """Point the cursor at the suggested move and say what is known about it."""
        if message.state is not self.controller.state:
            return  # the player moved first
        move = message.result.move
        self.board.cursor = move.column
        self.board.pop_mode = move.kind is MoveKind.POP
        self.panel.show_mode(message.state.rules, self.board.pop_mode)
        outlook = {
            "won": " — you can force a win",
            "lost": " — but the opponent can force a win",
        }.get(message.result.outlook or "", "")
        self.panel.show_message(f"Hint: {describe_move(move)}{outlook}")

    def _cancel_hint(self) -> None:
        """Stop a hint search (its thread stops at its next look at the flag)."""
        self._hint_cancel.set()
        self.workers.cancel_group(self, HINT_GROUP)
