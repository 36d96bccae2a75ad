"""The panel beside the board: whose turn, the mode, the last message and the move list.

The screen sets what there is to show (the panel's reactives); the panel's ``watch_``
methods draw it, each line only when what it shows has changed, laid out in lines of
the panel's width so that no phrase breaks (``phrasing``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.content import Content
from textual.markup import escape
from textual.reactive import reactive
from textual.widgets import Static

from c4tui.engine import GameState, Move, Player, Rules
from c4tui.ui.widgets.looks import player_glyph
from c4tui.ui.widgets.move_list import MoveList
from c4tui.ui.widgets.phrasing import ASCII_ELLIPSIS, ELLIPSIS, fill, lay_out, phrases

#: The theme's colour for each player's turn line (readable text, not the discs' colour).
TURN_COLOURS = {Player.RED: "$text-error", Player.YELLOW: "$text-warning"}


#: The panel's width by terminal width: narrower on small terminals, wider on big ones
#: (from the smallest terminal width up).
PANEL_WIDTHS = ((0, 18), (60, 20), (120, 30), (160, 40))


def panel_width_for(terminal_width: int) -> int:
    """The panel's width on a terminal ``terminal_width`` columns wide."""
    return next(width for least, width in reversed(PANEL_WIDTHS) if terminal_width >= least)


def narrowest_terminal_for(board_width: int) -> int:
    """The narrowest terminal that holds a board ``board_width`` wide and the panel beside it."""
    for least, width in PANEL_WIDTHS:
        needed = max(least, board_width + width)
        if panel_width_for(needed) == width:
            return needed
    return board_width + PANEL_WIDTHS[-1][1]


@dataclass(frozen=True)
class Turn:
    """Whose turn it is in ``state``, or who won; ``halted`` instead when the game is not going on.

    ``who`` names the player of each colour ("You", "Computer (Hard)").
    """

    state: GameState
    who: Mapping[Player, str]
    halted: str = ""


@dataclass(frozen=True)
class News:
    """One line of news; ``kind`` ("error", "thinking", "result" or "") picks its style."""

    text: str = ""
    kind: str = ""


@dataclass(frozen=True)
class Mode:
    """DROP or POP (``pop``); shown only under Pop Out rules while the game goes on."""

    shown: bool
    pop: bool

    @classmethod
    def of(cls, rules: Rules, pop: bool, game_over: bool = False) -> Mode:
        """The mode line for a game under ``rules``."""
        return cls(rules is Rules.POPOUT and not game_over, pop)


@dataclass(frozen=True)
class MovesSoFar:
    """The moves of the game shown; ``last_mover`` played the last one (None: no moves).

    ``marked``: the index of the move a review found lost the game (None: none marked);
    ``marks``: what follows each move in the list (a review's verdicts: ``?!``, ``?``, ``??``).
    """

    moves: tuple[Move, ...]
    last_mover: Player | None
    marked: int | None = None
    marks: tuple[str, ...] = ()


@dataclass(frozen=True)
class LineShown:
    """The analysis's best line for the panel: its columns (1-based) and how it ends.

    No ``result`` yet: it is still being worked out. ``complete`` is False when the
    moves stop short of the end (the result is proven all the same).
    """

    columns: tuple[int, ...] = ()
    result: str = ""
    complete: bool = True


#: The best line's first words (``b`` steps through it on the board).
BEST_LINE_LEAD = "Best line (b):"
#: Room for at least this many characters of moves beside the lead, or they go below it.
BEST_LINE_MOVES_BESIDE = 9


def best_line_text(shown: LineShown, width: int, ellipsis: str = ELLIPSIS) -> str:
    """The best line in ``width`` columns: the moves cut short with ``ellipsis``, never the result.

    The result keeps its move number with it when it wraps.
    """
    beside = width - len(BEST_LINE_LEAD) - 1
    if not shown.result:
        thinking = f"thinking{ellipsis}"
        return BEST_LINE_LEAD + (" " if len(thinking) <= beside else "\n") + thinking
    if beside >= BEST_LINE_MOVES_BESIDE:
        moves = f"{BEST_LINE_LEAD} {fitted_moves(shown, beside, ellipsis)}"
    else:
        moves = f"{BEST_LINE_LEAD}\n{fitted_moves(shown, width, ellipsis)}"
    return moves + "\n" + wrapped_result(shown.result, width)


def wrapped_result(result: str, width: int) -> str:
    """``result`` in lines of ``width``, broken between words but never inside "move 21"."""
    words = result.replace(" move ", " move\0").split(" ")
    return "\n".join(fill(phrases(*(word.replace("\0", " ") for word in words)), width))


def fitted_moves(shown: LineShown, width: int, ellipsis: str) -> str:
    """As many of the line's moves as fit ``width`` (at least one), then ``ellipsis`` if cut."""
    numbers = [str(column) for column in shown.columns]
    for count in range(len(numbers), 0, -1):
        text = " ".join(numbers[:count])
        if count < len(numbers) or not shown.complete:
            text += " " + ellipsis
        if len(text) <= width or count == 1:
            return text
    return ""


class StatusPanel(Vertical):
    """Everything a player needs to know besides the board itself."""

    DEFAULT_CSS = """
    StatusPanel {
        width: 20;
        height: 1fr;
        padding: 0 1;
        background: $panel;
    }
    /* A line even when empty: news coming and going does not move the lines below it. */
    StatusPanel > Static { margin-bottom: 1; min-height: 1; }
    StatusPanel #game-title { color: $text-muted; }
    StatusPanel #score { display: none; }
    StatusPanel #best-line { display: none; }
    StatusPanel #turn { text-style: bold; }
    StatusPanel #message.-error { color: $text-error; text-style: bold; }
    StatusPanel #message.-thinking { color: $text-muted; text-style: italic; }
    StatusPanel #message.-result { color: $text-success; text-style: bold; }
    StatusPanel #moves-title { margin: 0; color: $text-muted; }
    StatusPanel #moves { margin: 0; }
    """

    # None until the screen first sets them: each is drawn when set, not on mounting.
    turn: reactive[Turn | None] = reactive(None, repaint=False, init=False)
    score: reactive[str | None] = reactive(None, repaint=False, init=False)
    mode: reactive[Mode | None] = reactive(None, repaint=False, init=False)
    news: reactive[News | None] = reactive(None, repaint=False, init=False)
    moves: reactive[MovesSoFar | None] = reactive(None, repaint=False, init=False)
    #: The analysis's best line (None: none shown).
    best_line: reactive[LineShown | None] = reactive(None, repaint=False, init=False)

    def __init__(self, title: str, ascii_only: bool = False, id: str | None = None) -> None:
        super().__init__(id=id)
        self._title = title
        self._ascii_only = ascii_only
        #: What each line of news shows now, by id: its text (an unchanged one is not set
        #: again) and the words on screen, without markup (measured for its height).
        self._shown: dict[str, tuple[str, str]] = {}

    def compose(self) -> ComposeResult:
        """Title, turn, mode, message, best line, last move and the move list, top to bottom."""
        # Plain text: news may quote a server or a player ("[/]" must not be read as markup).
        yield Static(self._title, id="game-title", markup=False)
        yield Static(id="score", markup=False)
        yield Static(id="turn")  # its colour is markup; the words in it are escaped
        yield Static(id="mode")  # its style is markup (constant words)
        yield Static(id="message", markup=False)
        yield Static(id="best-line", markup=False)
        yield Static(id="last-move", markup=False)
        yield Static("Moves", id="moves-title")
        yield MoveList(id="moves")

    def watch_turn(self, shown: Turn | None) -> None:
        """Whose turn it is, or who won; ``halted`` instead when the game is not going on."""
        if shown is None:
            return
        turn = self.query_one("#turn", Static)
        state, who, halted = shown.state, shown.who, shown.halted
        if halted:
            halted = self._laid_out(halted)
            self._put(turn, escape(halted), shown=halted)
            return
        player: Player | None = state.winner or state.turn
        glyph = player_glyph(state.winner or state.turn, self._ascii_only)
        if state.winner is not None:
            text = f"{glyph} {state.winner.name} wins!"
        elif state.is_draw:
            text = "Draw"
            player = None
        else:
            text = f"{glyph} {state.turn.name} to move"
        if player is not None and who.get(player):
            name = who[player]
            text += "\n" + (phrases(name, "won") if state.winner is not None else name)
        text = self._laid_out(text)
        # The colour is in the text, not a CSS class: restyling the widget on every
        # move took more of a frame than drawing it.
        colour = TURN_COLOURS.get(player) if player is not None else None
        self._put(turn, f"[{colour}]{escape(text)}[/]" if colour else escape(text), shown=text)

    def watch_score(self, text: str | None) -> None:
        """The running score of a series of rematches (hidden before the first result)."""
        if text is None:
            return
        score = self.query_one("#score", Static)
        # A line a player, its count last: the name and the count are two phrases.
        lines = [phrases(*line.rsplit(" ", 1)) for line in text.splitlines()]
        self._put(score, self._laid_out("\n".join(["Score", *lines])))
        score.display = bool(text)

    def watch_mode(self, shown: Mode | None) -> None:
        """DROP or POP, under Pop Out rules only, while the game goes on."""
        if shown is None:
            return
        mode = self.query_one("#mode", Static)
        mode.display = shown.shown
        # The style is in the text, not a CSS class: no restyle on every pop (as the turn).
        # Two phrases: "(p: pop)" goes below "DROP mode" where the line is too narrow.
        words = self._laid_out(
            phrases("POP mode", "(p: drop)") if shown.pop else phrases("DROP mode", "(p: pop)")
        )
        if shown.pop:
            self._put(mode, f"[bold reverse $accent]{words}[/]", words)
        else:
            self._put(mode, words)

    def say(self, text: str, kind: str = "") -> None:
        """Show one line of news (``kind`` picks the style): ``news = News(text, kind)``."""
        self.news = News(text, kind)

    def watch_news(self, news: News | None) -> None:
        """One line of news: an error, "thinking…", the result (kind picks the style)."""
        if news is None:
            return
        message = self.query_one("#message", Static)
        self._put(message, self._laid_out(news.text))
        for name in ("error", "thinking", "result"):
            message.set_class(news.kind == name, f"-{name}")

    def watch_moves(self, shown: MovesSoFar | None) -> None:
        """The last move in words and the whole list."""
        if shown is None:
            return
        moves, last_mover = shown.moves, shown.last_mover
        last = self.query_one("#last-move", Static)
        # A review's verdicts name the move shown (its words above): its line goes, so the
        # marked move list keeps its room on a short terminal.
        last.display = not shown.marks
        if moves and last_mover is not None:
            move = moves[-1]
            verb = "in" if move.kind.value == "d" else "pop"  # short: fits the narrow panel
            said = phrases("Last:", f"{last_mover.name} {verb} {move.column + 1}")
            self._put(last, self._laid_out(said))
        else:
            self._put(last, "Last: —")
        self.query_one("#moves", MoveList).show(moves, shown.marked, shown.marks)

    def watch_best_line(self, shown: LineShown | None) -> None:
        """The analysis's best line, fitted to the panel's width (hidden without one)."""
        line = self.query_one("#best-line", Static)
        line.display = shown is not None
        if shown is not None:
            ellipsis = ASCII_ELLIPSIS if self._ascii_only else ELLIPSIS
            self._put(line, best_line_text(shown, self.content_size.width, ellipsis))

    def on_resize(self) -> None:
        """A new width: every line laid out again (and redrawn only where that changed it)."""
        self.watch_turn(self.turn)
        self.watch_score(self.score)
        self.watch_mode(self.mode)
        self.watch_news(self.news)
        self.watch_moves(self.moves)
        self.watch_best_line(self.best_line)

    def _laid_out(self, text: str) -> str:
        """``text`` in lines of the panel's width, broken only between phrases."""
        ellipsis = ASCII_ELLIPSIS if self._ascii_only else ELLIPSIS
        return lay_out(text, self.content_size.width, ellipsis)

    def _put(self, static: Static, text: str, shown: str | None = None) -> bool:
        """Show ``text`` in ``static``; False if it already showed it.

        ``shown`` is what markup in ``text`` comes to on screen (its height is measured).

        Speed: laying the screen out again costs more than a frame on a big terminal,
        so that is done only when the widget's height changes.
        """
        key = static.id or ""
        old = self._shown.get(key)
        if old is not None and old[0] == text:
            return False
        words = text if shown is None else shown
        self._shown[key] = (text, words)
        layout = old is None or lines_taken(static, old[1]) != lines_taken(static, words)
        static.update(text, layout=layout)
        return True


def lines_taken(static: Static, words: str) -> int:
    """The lines ``words`` take in ``static`` at its width: wrapped, and at least its minimum.

    0 before the widget has a width (it is laid out then anyway).
    """
    width = static.size.width
    if width <= 0:
        return 0
    minimum = static.styles.min_height
    least = int(minimum.value) if minimum is not None and minimum.is_cells else 0
    return max(least, Content(words).get_height({}, width))
