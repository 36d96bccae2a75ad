"""Review: a screen pushed on top of the game to step through its moves.

The game goes on underneath (a computer may still be thinking): the game screen
hands the review what it shows (``GameSoFar``) whenever the game changes. The
review is dismissed with the number of the move to play on from: the game's own
length to go back to the game as it stands, an earlier one to play on from there
(asked first when later moves would be lost). With the analysis's best line, the
review steps on past the game's last move through the line; those moves are not
the game's, and nothing plays on from them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from textual.binding import Binding

from c4tui.engine import GameState, Move, Player, describe_move, move_number
from c4tui.records import GameRecord
from c4tui.ui.keeping import GameKeeper
from c4tui.ui.screens.board_screen import BoardScreen
from c4tui.ui.screens.confirm import ConfirmDialog
from c4tui.ui.screens.help import HelpScreen
from c4tui.ui.widgets.status import Mode, MovesSoFar, Turn


@dataclass(frozen=True)
class GameSoFar:
    """The game under the review as it stands: what the review shows of it.

    ``halted`` is what the turn line says at the last move when the game is not
    going on ("" when it goes on); ``unfinished`` is True when playing on from an
    earlier move would throw moves of a game under way away.
    """

    positions: tuple[GameState, ...]
    moves: tuple[Move, ...]
    who: Mapping[Player, str]
    halted: str
    mode: Mode
    score: str
    unfinished: bool
    remote: bool


class ReviewScreen(BoardScreen[int]):
    """Steps through ``game``'s moves from move ``at``; dismissed with the move to play on from.

    Args:
        game: the game reviewed, as it stands.
        title: the game in words, at the top of the panel.
        at: the move shown first (0: the empty board).
        cursor: the column the game's board has its cursor on (the review's starts there).
        opened: the saved game being opened, if that is what is reviewed (its
            result is shown at its last move).
        record: the game so far as a record (what Save saves).
        keeper: saves the game.
        ascii_only: draw with ASCII characters only.
        line: the analysis's best line from the game's last position, shown after it.
    """

    BINDINGS = [
        # Before the board's own keys (its cursor).
        Binding("left", "step(-1)", "Back", priority=True, id="review.back"),
        Binding("right", "step(1)", "Next", priority=True, id="review.forward"),
        Binding("home", "jump(0)", "Start", priority=True, id="review.start"),
        Binding("end", "jump(-1)", "End", priority=True, id="review.end"),
        Binding("escape,v", "leave", "Done", priority=True, id="review.leave"),
        Binding("question_mark", "help", "Help", key_display="?", id="game.help"),
        Binding("q", "app.quit", "Quit", id="game.quit"),
        Binding("s", "save", "Save", id="game.save"),
        Binding("c", "play_on", "Play on", priority=True, id="review.continue"),
    ]

    def __init__(
        self,
        game: GameSoFar,
        title: str,
        *,
        at: int,
        cursor: int,
        opened: GameRecord | None,
        record: Callable[[], GameRecord],
        keeper: GameKeeper,
        ascii_only: bool = False,
        line: tuple[Move, ...] = (),
    ) -> None:
        super().__init__(game.positions[at], title, ascii_only)
        self._game = game
        self._line = line
        self._moves, self._positions = _followed_by(game, line)
        #: The move number shown (0: the empty board).
        self.at = at
        self._cursor = cursor
        self._opened = opened
        self._record = record
        self._keeper = keeper

    def on_mount(self) -> None:
        """Show the position to review; the board takes no moves here."""
        self._show_board()
        self.board.accepting = False
        self.board.offers_play = False
        self.board.cursor = self._cursor
        self._show()

    def on_unmount(self) -> None:
        """The widgets are going away."""
        self._shown = False

    def game_changed(self, game: GameSoFar) -> None:
        """The game went on underneath: the position reviewed stays in view.

        A best line shown from the game's old end no longer follows from it: it goes.
        """
        if game.moves != self._game.moves:
            self._line = ()
        self._game = game
        self._moves, self._positions = _followed_by(game, self._line)
        self.at = min(self.at, len(self._moves))
        if self._widgets_ready:
            self._show()

    def _show(self) -> None:
        game, at, moves = self._game, self.at, self._moves
        state = self._positions[at]
        self.board.show(state, moves[at - 1] if at else None)
        panel = self.panel
        panel.score = game.score
        in_line = at > len(game.moves)  # a move of the best line, not of the game
        halted = game.halted if at == len(game.moves) else ""
        panel.turn = Turn(state, {} if in_line else game.who, halted)
        panel.mode = game.mode
        panel.moves = MovesSoFar(moves[:at], state.turn.other if at else None)
        mover = state.turn.other.name if at else ""
        shown = f"{mover} {describe_move(moves[at - 1])}" if at else "the empty board"
        said = self._where(shown) + self._result(at) + self._notes(at) + self._keys()
        panel.say(said, "thinking")
        self.refresh_bindings()  # Play on is not offered in the best line

    def _where(self, shown: str) -> str:
        """Which move is shown: the game's, or a step of the best line.

        Moves are numbered as the move list numbers them (``move_number``: a pair of
        moves a number, "move 9 of 12" is the list's line 9, RED's or YELLOW's move);
        the best line's steps are counted on their own.
        """
        at, played = self.at, len(self._game.moves)
        where = f"Review: move {move_number(at)} of {move_number(played)} — {shown}"
        if not self._line:
            return where
        if at > played:
            return f"Best line (solver): step {at - played} of {len(self._line)} — {shown}"
        return f"{where}; → the best line (solver)"

    def _notes(self, at: int) -> str:
        """More to say of move ``at`` (a kind of review adds its own): nothing here."""
        return ""

    def _keys(self) -> str:
        """What the keys do here (no playing on from the best line's moves)."""
        if self.at > len(self._game.moves):
            return "\n← →: step · Home/End · esc: back to the game"
        return "\n← →: step · Home/End · c: play from here · esc: back"

    def _result(self, at: int) -> str:
        """A saved game's result, once its last move is shown."""
        record = self._opened
        if record is None or at != len(self._game.moves):
            return ""
        return f"\nResult: {record.result.value}" + (f" ({record.reason})" if record.reason else "")

    def action_step(self, step: int) -> None:
        """One move back or forward."""
        self.at = max(0, min(len(self._moves), self.at + step))
        self._show()

    def action_jump(self, where: int) -> None:
        """To the empty board (0) or the last move (-1)."""
        self.at = len(self._moves) if where < 0 else 0
        self._show()

    def action_leave(self) -> None:
        """Back to the game as it stands (a saved game opened plays on at its end)."""
        self.dismiss(len(self._game.moves))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Play on only from the game's own moves, never from the best line's."""
        return action != "play_on" or self.at <= len(self._game.moves)

    def action_play_on(self) -> None:
        """Play on from the position shown, against the same opponent."""
        at, game = self.at, self._game
        if at >= len(game.moves):  # the best line's moves are not the game's: back to it
            self.dismiss(len(game.moves))
        elif game.remote:
            self.panel.say("A server game cannot go back to an earlier move.", "error")
        elif not game.unfinished:
            self.dismiss(at)
        else:
            question = "Play on from this move? The later moves of this game are dropped."
            self.app.push_screen(ConfirmDialog(question, "Play on"), self._play_on_answered)

    def _play_on_answered(self, yes: bool | None) -> None:
        if yes:
            self.dismiss(self.at)

    def action_save(self) -> None:
        """Save the game, asking its name (a saved game opened: as it was opened)."""
        self._keeper.ask_and_save(self.app, self._opened or self._record(), self._tell)

    def action_help(self) -> None:
        """Show the rules and keys."""
        self.app.push_screen(HelpScreen())


def _followed_by(
    game: GameSoFar, line: tuple[Move, ...]
) -> tuple[tuple[Move, ...], tuple[GameState, ...]]:
    """The game's moves and positions, followed by ``line``'s from its last position."""
    positions = list(game.positions)
    for move in line:
        positions.append(positions[-1].play(move))
    return game.moves + line, tuple(positions)
