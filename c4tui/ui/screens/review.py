"""Review: a screen pushed on top of the game to step through its moves.

The game goes on underneath (a computer may still be thinking): the game screen
hands the review what it shows (``GameSoFar``) whenever the game changes. The
review is dismissed with the number of the move to play on from: the game's own
length to go back to the game as it stands, an earlier one to play on from there
(asked first when later moves would be lost). With the analysis's best line, the
review steps on past the game's last move through the line; those moves are not
the game's, and nothing plays on from them.

``a`` reviews the game's moves (``ai.game_review``, in the search pool: the screen
never waits): the analysis row under the board, each move's mark in the move list
(``?!`` an inaccuracy, ``?`` a mistake, ``??`` a blunder), the verdict on the move
shown with the best move, each player's accuracy and the evaluation graph; ``]`` and
``[`` jump to the next and previous mistake or blunder. Save keeps the verdicts as
the record's annotations.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, replace

from textual import work
from textual.binding import Binding

from c4tui.ai.review_verdicts import (
    GameReview,
    accuracy_parts,
    evaluation_graph,
    next_mistake,
    review_annotations,
    shown_move_words,
    verdict_mark,
)
from c4tui.engine import GameState, Move, Player, describe_move, move_number
from c4tui.match.pool import SearchPool
from c4tui.records import GameRecord
from c4tui.ui.keeping import GameKeeper
from c4tui.ui.screens.board_screen import BoardScreen
from c4tui.ui.screens.confirm import ConfirmDialog
from c4tui.ui.screens.help import HelpScreen
from c4tui.ui.widgets.phrasing import PHRASE_BREAK, phrases
from c4tui.ui.widgets.status import Mode, MovesSoFar, Turn

#: The worker group of the game's review (one at a time; a new one replaces it).
REVIEW_GROUP = "game-review"
#: Moves a line of the evaluation graph shows before the panel has a width.
GRAPH_GROUP = 18


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
        pool: where the review's solver runs (the process's shared pool by default).
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
        Binding("a", "review_moves", "Verdicts", id="review.verdicts"),
        # Said in the panel's keys and the help (the footer has no room for them at 80 columns).
        Binding("right_square_bracket", "mistake(1)", "Next mistake", show=False, id="review.next"),
        Binding(
            "left_square_bracket",
            "mistake(-1)",
            "Previous mistake",
            show=False,
            id="review.previous",
        ),
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
        pool: SearchPool | None = None,
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
        self._pool = pool
        #: The review of the game's moves (None: not asked for, or coming, or gone stale).
        self.verdicts: GameReview | None = None
        #: Whether the verdicts are shown (a toggles them); what to say of them meanwhile.
        self._verdicts_on = False
        self._verdicts_news = ""
        self._reviewing = False  # the review is being worked out

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
            if self.verdicts is not None:
                self.verdicts = None
                self._verdicts_news = "The game went on: a reviews it again."
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
        marks = self._marks()[:at]
        panel.moves = MovesSoFar(moves[:at], state.turn.other if at else None, marks=marks)
        mover = state.turn.other.name if at else ""
        shown = f"{mover} {describe_move(moves[at - 1])}" if at else "the empty board"
        said = self._where(shown) + self._result(at) + self._notes(at)
        said += self._verdict_notes(at) + self._keys()
        self._show_labels(at)
        panel.say(said, "thinking")
        self.refresh_bindings()  # Play on is not offered in the best line

    def _shown_verdicts(self) -> GameReview | None:
        """The review, while it is shown (a turned it on) and is of the game as it stands."""
        return self.verdicts if self._verdicts_on else None

    def _marks(self) -> tuple[str, ...]:
        """Each of the game's moves' mark in the move list (none without the review)."""
        verdicts = self._shown_verdicts()
        return () if verdicts is None else tuple(map(verdict_mark, verdicts.moves))

    def _show_labels(self, at: int) -> None:
        """The analysis row under the board: each column's outcome before move ``at + 1``."""
        verdicts = self._shown_verdicts()
        if verdicts is not None and at < len(verdicts.moves):
            self.board.show_analysis(verdicts.moves[at].labels)
        else:
            self.board.show_analysis(None)

    def _verdict_notes(self, at: int) -> str:
        """The verdict on the move shown, the accuracies and the graph; or the review's news.

        Short, for the panel of an 80 × 24 terminal: the graph is cut in lines of the
        panel's width, each player's accuracy a phrase.
        """
        news, self._verdicts_news = self._verdicts_news, ""
        if self._reviewing:
            news = "Reviewing…"
        verdicts = self._shown_verdicts()
        if verdicts is None:
            return f"\n{news}" if news else ""
        said = shown_move_words(verdicts, at)
        lines = [said] if said else []
        red, yellow = accuracy_parts(verdicts)
        estimated = "" if verdicts.exact else "(estimated)"
        lines.append(phrases("Accuracy:", f"{red},", yellow, estimated).rstrip(PHRASE_BREAK))
        graph = evaluation_graph(verdicts, self._ascii_only)
        width = self.panel.content_size.width or GRAPH_GROUP
        lines += [graph[i : i + width] for i in range(0, len(graph), width)]
        if news:
            lines.append(news)
        return "\n" + "\n".join(lines)

    def action_review_moves(self) -> None:
        """a: review the game's moves (in the background), or hide or show the review again."""
        if self.verdicts is not None:
            self._verdicts_on = not self._verdicts_on
        elif self._reviewing:
            pass  # it is coming ("Reviewing…" says so)
        elif not self._game.moves:
            self._verdicts_news = "No moves to review yet."
        else:
            self._verdicts_on = self._reviewing = True
            self._review_moves(self._game.positions[0], self._game.moves)
        self._show()

    @work(group=REVIEW_GROUP, exclusive=True, exit_on_error=False)
    async def _review_moves(self, start: GameState, moves: tuple[Move, ...]) -> None:
        """Judge every move in the pool; shown if the game has not moved on meanwhile."""
        pool = self._pool or SearchPool.shared()
        try:
            verdicts = await pool.review_game(start, moves, owner=self)
        except (BrokenProcessPool, RuntimeError, OSError, ValueError) as error:
            self._verdicts_news = f"The review stopped: {error}"
        else:
            if moves == self._game.moves:
                self.verdicts = verdicts
            else:
                self._verdicts_news = "The game went on: a reviews it again."
        finally:
            self._reviewing = False
        if self._widgets_ready:
            self._show()

    def action_mistake(self, step: int) -> None:
        """] or [: to the next or previous move that was a mistake or a blunder."""
        verdicts = self._shown_verdicts()
        if verdicts is None:
            self._verdicts_news = "a reviews the moves first."
        else:
            ply = next_mistake(verdicts, self.at, step)
            if ply is None:
                self._verdicts_news = "No more mistakes." if step > 0 else "No earlier mistakes."
            else:
                self.at = ply
        self._show()

    def _where(self, shown: str) -> str:
        """Which move is shown: the game's, or a step of the best line.

        Moves are numbered as the move list numbers them (``move_number``: a pair of
        moves a number, "move 9 of 12" is the list's line 9, RED's or YELLOW's move);
        the best line's steps are counted on their own.
        """
        at, played = self.at, len(self._game.moves)
        where = f"Review: move {move_number(at)} of {move_number(played)}"
        if self._shown_verdicts() is None or at > played:
            where += f" — {shown}"  # with the verdicts, "Last:" says it (the panel is full)
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
        if self._shown_verdicts() is not None:  # the others are in the footer and the help
            return "\n] [: mistakes"  # a line: the marked move list keeps its room at 80 × 24
        return "\n← →: step · Home/End · a: verdicts · c: play from here · esc: back"

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
        """Back to the game as it stands; a saved game opened is left (``c`` plays it on)."""
        self.dismiss(None)

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
        """Save the game, asking its name (a saved game opened: as it was opened).

        Once the moves are reviewed, the record keeps the verdicts as its annotations.
        """
        record = self._opened or self._record()
        verdicts = self.verdicts
        if verdicts is not None and tuple(m.move for m in verdicts.moves) == record.moves:
            record = replace(record, comments=review_annotations(verdicts, record.comments))
        self._keeper.ask_and_save(self.app, record, self._tell)

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
