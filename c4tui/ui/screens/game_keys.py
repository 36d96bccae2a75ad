"""The game screen's keys, and which of them the footer offers when (the footer policy).

The footer has room for few keys: it offers what can be done now, in the order
that matters on a narrow terminal (the ways out first). Keys hidden from it to
make room still work (their ``anytime`` bindings); keys that cannot work now are
dimmed, and a key that is dimmed says why when pressed.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from textual.binding import Binding, BindingType

from c4tui.match.driver import MatchDriver

#: Terminals at least this wide show every game key in the footer.
WIDE_FOOTER = 120

GAME_BINDINGS: list[BindingType] = [
    # The ways out first: a narrow terminal's footer cuts off its end.
    Binding("escape,m", "menu", "Menu", id="game.menu"),
    Binding("question_mark", "help", "Help", key_display="?", id="game.help"),
    Binding("q", "app.quit", "Quit", id="game.quit"),
    Binding("p", "toggle_pop", "Drop/Pop", id="game.toggle_pop"),
    Binding("h", "hint", "Hint", id="game.hint"),
    Binding("a", "toggle_analysis", "Analysis", id="game.analysis"),
    Binding("u", "undo", "Undo", id="game.undo"),
    Binding("n", "new_game", "New", id="game.new"),
    # After New: on a narrow terminal New matters more (U works when left out).
    Binding("U,ctrl+y", "redo", "Redo", key_display="U", id="game.redo"),
    Binding("r", "rematch", "Rematch", id="game.rematch"),
    Binding("v", "review", "Review", id="game.review"),
    Binding("s", "save", "Save", id="game.save"),
    Binding("w", "toggle_threats", "Threats", id="game.threats"),
    Binding("x", "export_digits", "Digits", id="game.export"),
    # Not in the footer (no room): the panel's best line names its key.
    Binding("b", "best_line", "Best line", show=False, id="game.best_line"),
    # Reached only while the board's Play is dimmed: say why nothing was played.
    Binding("enter,space", "why_not", show=False),
    # Reached only while Hint is dimmed: say why there is none.
    Binding("h", "why_no_hint", show=False),
    # Reached only while Undo is dimmed or hidden: say why nothing was taken back.
    Binding("u", "why_no_undo", show=False),
    # Reached only while Redo is dimmed or hidden: say why nothing was played again.
    Binding("U,ctrl+y", "why_no_redo", show=False),
    # Reached only while Drop/Pop is hidden (classic rules) or dimmed: say why no pop.
    Binding("p", "why_no_pop", show=False),
    # The same actions while their footer entries are hidden (during play, or on a
    # narrow terminal); each comes after the shown binding of its key.
    Binding("r", "anytime('rematch')", show=False),
    Binding("v", "anytime('review')", show=False),
    Binding("s", "anytime('save')", show=False),
    Binding("w", "anytime('toggle_threats')", show=False),
    Binding("x", "anytime('export_digits')", show=False),
]

#: What the footer offers only once the game is over (during play they stay hidden).
AFTER_GAME_ACTIONS = frozenset({"rematch", "review", "save"})
#: What makes no sense once the game is over (hidden then, to make room).
DURING_GAME_ACTIONS = frozenset({"toggle_pop", "hint", "undo", "redo"})
#: What the footer has room for on wide terminals only (the keys work at any width).
WIDE_ONLY_ACTIONS = frozenset({"toggle_threats", "export_digits"})


@dataclass(frozen=True)
class GameCommand:
    """A game action in the command palette: the action its key runs, with a help line.

    ``why_not`` is the action that says why it cannot be done now, as its key does;
    an action without one is left out of the palette while it cannot be done.
    """

    name: str
    help: str
    action: str
    why_not: str | None = None


#: The game's actions in the command palette (Ctrl+P); Textual's "Theme" changes themes.
GAME_COMMANDS = (
    GameCommand("New game", "Same settings, empty board; asks mid-game (n)", "new_game"),
    GameCommand("Rematch", "Colours swapped, the score goes on; asks mid-game (r)", "rematch"),
    GameCommand("Save", "Save the game under a name (s)", "save"),
    GameCommand(
        "Download record",
        "The game as a record file: in a browser, a download; else in your downloads folder",
        "download",
    ),
    GameCommand(
        "Open a saved game",
        "Digits or a board picture too; this game waits under Resume (menu: Ctrl+O)",
        "open_saved",
    ),
    GameCommand("Analysis on/off", "Each column's outcome under the board (a)", "toggle_analysis"),
    GameCommand("Hint", "The cursor jumps to a good move (h)", "hint", "why_no_hint"),
    GameCommand("Review", "Step through the moves, play on from one (v)", "review"),
    GameCommand("Undo", "Take back your last move and the answer to it (u)", "undo", "why_no_undo"),
    GameCommand("Redo", "Play again what undo took back (U or Ctrl+Y)", "redo", "why_no_redo"),
)


@dataclass(frozen=True)
class KeyContext:
    """What the footer's choice depends on besides the driver."""

    popout: bool
    wide: bool
    analysis_on: bool


def footer_offers(action: str, driver: MatchDriver, context: KeyContext) -> bool | None:
    """True: offer ``action``; None: show it dimmed; False: leave it out of the footer."""
    over = driver.is_over or driver.state.is_over
    if action in WIDE_ONLY_ACTIONS or (action in AFTER_GAME_ACTIONS and not over):
        return context.wide  # elsewhere hidden; the "anytime" bindings of the keys still work
    if action in DURING_GAME_ACTIONS and over:
        return False
    return _while_playing(action, driver, context)


def _while_playing(action: str, driver: MatchDriver, context: KeyContext) -> bool | None:  # noqa: PLR0911 (a rule an action)
    """Hide Drop/Pop (classic rules) and Undo (nobody undoes); dim what cannot be done now.

    Redo goes with Undo, lit only while an undo's moves wait to be played again (dimmed,
    not hidden, otherwise: a key appearing would lay the whole screen out again).
    """
    if action == "toggle_pop":
        if not context.popout:
            return False
        return True if driver.awaiting_submission() else None
    if action == "hint":
        return True if driver.awaiting_submission() else None
    if action == "toggle_analysis":  # nothing to analyse once the game is over
        return not (driver.is_over or driver.state.is_over) or context.analysis_on
    if action in ("undo", "redo"):
        if not driver.takes_moves_back:  # a timed game, or a seat that does not
            return False
        possible = driver.can_undo() if action == "undo" else driver.can_redo()
        return True if possible else None
    return True


def palette_actions(
    driver: MatchDriver, context: KeyContext, *, remote: bool
) -> list[tuple[GameCommand, str]]:
    """The game's commands for the palette now, each with the action choosing it runs.

    Its own action when the footer's rules allow it (as on a terminal wide enough for
    every key), else the one that says why not. Left out: what cannot be done and has
    no why, and Open in a game on a server (leaving that game forfeits it).
    """
    chosen = []
    for command in GAME_COMMANDS:
        offered = footer_offers(command.action, driver, replace(context, wide=True))
        action = command.action if offered else command.why_not
        if action is not None and not (remote and action == "open_saved"):
            chosen.append((command, action))
    return chosen


def nothing_to(verb: str, driver: MatchDriver) -> str:
    """Why ``verb`` (undo, redo) changed nothing in ``driver``'s game, for the panel."""
    if driver.clock is not None:
        return "No undo in a timed game: the clocks cannot give time back."
    if not driver.takes_moves_back:
        return "Moves cannot be taken back in this game."
    if driver.is_over or driver.state.is_over:
        return f"The game is over: nothing to {verb}.\nn: new game · esc: menu"
    return f"Nothing to {verb}"
