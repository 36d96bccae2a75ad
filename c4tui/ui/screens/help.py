"""The help screen: the rules and every key, one keypress away."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Markdown

from c4tui.ui.widgets.footer import FittingFooter

HELP_TEXT = """\
*Esc or ? closes this help; ↑ ↓ and Page Up/Down scroll it.*

# How to play

Drop discs into the columns; the first to get **four in a row** — across, down or
diagonally — wins. **Red** always moves first.

**Pop Out** rules: instead of dropping, you may *pop* one of **your own** discs out of
the bottom of a column; everything above it falls one row. A full board is not the
end under Pop Out. If a pop makes four in a row for both players, the player who
popped wins; if only for the opponent, the opponent wins. The same position coming
up a third time is a draw. Under **classic** rules a full board is a draw.

# Keys

| key | on the game screen |
| --- | --- |
| ← → | move the column cursor (the mouse too) |
| 1-9, 0 | jump to column 1 to 9, or 10 (two quick digits: 11 to 20) |
| Enter or Space | play in the cursor column (a click plays too) |
| p | switch between dropping and popping (Pop Out only) |
| u | undo (against the computer: back to before your last move) |
| U or Ctrl+Y | redo: play again what u took back, until a new move is made |
| h | hint: the cursor jumps to a good move (and says if it wins) |
| a | analysis on/off: each column's outcome under the board |
| n | new game with the same settings (asks first mid-game) |
| r | rematch: colours swapped, the score of the series goes on |
| v | review: ← → step through the moves, Home/End jump, c plays on from the move shown |
| a | in review: the verdicts (worked out in the background: "Reviewing…"), see below |
| ] [ | in review, with the verdicts: the next or previous mistake or blunder (not inaccuracies) |
| b | the best line (analysis on, where every position is proven; none online): ← → step |
| s | save the game under a name (Enter: the time); Open in the menu, `c4tui replay FILE` |
| w | threats on/off: **r**, **y** (**!** both) mark the cells where RED or YELLOW makes four |
| x | the game as a digit string (like 4453) for solver websites, copied to the clipboard |
| Esc or m | back to the menu (the game waits there: Resume, Ctrl+R) |
| t, f | online: chat with the room, forfeit (after a confirmation) |
| d | online: offer a draw, or accept the one offered (once both players have moved) |
| u | online: ask to take your last move back, or agree when the other player asks |
| n | online: decline the draw or the takeback the other player offers |
| a | online: abort the game before both players have moved (it counts for nobody) |
| c | online: claim the win against an opponent away 30 s, or idle 10 minutes (no clock) |
| B, X | online: block the opponent (their chat no longer reaches you; B again: unblock), report |
| Ctrl+P | the command palette: these actions by name (new game, save, undo…), and themes |
| ? | this help |
| q or Ctrl+Q | quit |

The disc just dropped is shown in parentheses, the winning four in brackets.

The analysis labels: **W3** you win on your 3rd move from now, **D** a draw, **L5** the
opponent wins on its 5th. The **W**, **D** and **L** labels are proven: in every position
of the classic boards of up to 42 cells (7 × 6 with BitBully's opening book, the others
with c4tui's own books or small enough to need none; **b** names any left out); on the
other boards the solver takes (those few, and the larger ones up to 8 × 6, 9 × 6 or 7 × 8)
when it finishes within half a second, and the panel then says "proven"; anywhere else
(Pop Out, big boards) when a short search finds a forced win or loss. **+ = -** are
estimates of that short search (better, even, worse). Where a cell is too narrow for a
label such as W17, each label shows its letter only.

The **verdicts** (**a** in review, a saved game or a past online game too): each move is
marked by what it did to the outcome its player could force, with the best move said
beside it — best (no mark), **?!** an inaccuracy (a slower win or a faster loss), **?** a
mistake (a win thrown to a draw, a draw to a loss), **??** a blunder (a win thrown to a
loss); each player's **accuracy** (the share of their moves that were best, an inaccuracy
counting one half); the **graph**: one character a move, the outcome after it from RED's
side as a height (the middle a draw, higher a RED win, the sooner the higher; lower a
YELLOW win; ? not proven). Proven by the solver wherever it proves every position (as for
the labels); elsewhere the search's verdicts, marked "(estimated)". Save keeps them in the
record.

The **best line** (where every position is proven, analysis on): the panel shows best play from the
position on the board to the end, proven by the solver (each move keeps the best outcome,
nearest the centre among equals), and who wins on which move (numbered as the move list
numbers them). **b** shows it on the board: ← → step through it, Esc goes back to the
game as it was; those moves are not played, and c plays on only from the game's own moves.

**Columns** (Ctrl+K in the menu): three jewels fall as one; ← → move them, ↑ or Space
rotates them (the bottom one goes to the top), ↓ makes them fall faster. Three or more of
one colour in a line — across, down or diagonally — vanish, and what is above falls, maybe
into another match (a chain scores more). The game ends when jewels freeze above the top.
p pauses, n starts again. Each jewel is its letter too (S T V W X Y Z).

**Puzzles** (Ctrl+Z in the menu, or its Puzzles button; `c4tui --puzzles`): find the move
that wins (or the only one that does not lose), proven by the solver. Play as in a game
(← →, Enter, a click). A right move is answered by the defence at once; a wrong one stays on
the board, the solver's best reply is played and the panel says what it lets the other side
do. **h** marks the column to play (a hinted try does not count as solved), **s** shows the
solution (before the end, the try counts as failed), **n** the next puzzle, **r** this one
again (not rated), **d** the daily puzzle (the same for everyone that day), **y** your tries,
failed ones first (Enter retries one), Esc the menu. Only a first try is rated (Glicko-2, as
the lobby's); the puzzle's themes show after the try, not to give the answer away.

In the menu: Tab moves between fields, arrows change a choice, **Enter starts the game**,
Ctrl+R resumes the game you left (or the unfinished one from last time), Ctrl+O opens a
saved game, a pasted digit string or a board picture, Ctrl+T sets up a position, Ctrl+Z
opens the puzzles.

**Setting up a position** (Ctrl+T in the menu, for its board, rules and opponent; or Open
with a board picture: rows of **.** **x** **o** top first, **/** between them, such as
`..../..../.x../.ox.`): ← → or the mouse move the cursor, **r** or **x** stacks a red disc
in the column, **y** or **o** a yellow one, Enter, Space or a click one of the side to move,
Backspace or Delete takes the top disc off, **t** changes who moves. The panel says whose
turn it is and whether the position can be played on, and why not (four already in a row,
named like chess squares: a1 is column 1's bottom cell; counts that cannot alternate, red
moving first; a full board). **p** plays it against the menu's computer (you take the side
to move) or as two players, **a** opens it in review at its last move, **c** copies it as a
board picture (for Open); Esc goes back.
In the online lobby: Enter plays in a waiting room, w watches, c creates a room, g is quick
play (both with the menu's board, rules, Rated and Clock), t chats, r refreshes, m and p list
finished games, i shows your profile, l the leaderboard, P changes your password, B lists
whom you block (u unblocks; the lists mark them [blocked]), Esc leaves. Tab goes to the
players online, where c challenges one, i shows their profile, b blocks them (or unblocks)
and x reports them to the moderators; a challenge to you pops up (a accepts, d declines).
After a game, r asks a rematch. A profile blocks (b) and reports (x) its player too; your
own deletes your account (D). Moderators have R in the lobby (the open reports: c closes
one, B bans, M mutes its player), B, M, U (unban) in a profile, and in a game Ctrl+P: Ban,
Mute or the Profile of either player.
In an online game the line above the footer says what stands at the table — an offer of a
draw or a takeback, a claim you may make — and the key that answers it.
"""


class HelpScreen(ModalScreen[None]):
    """The rules and the keys; Escape (or ?) closes it."""

    DEFAULT_CSS = """
    HelpScreen { align: center middle; }
    HelpScreen > VerticalScroll {
        width: 76;
        max-width: 100%;
        height: auto;
        max-height: 1fr;
        border: round $primary;
        background: $panel;
        scrollbar-size-vertical: 1;
        /* The thumb against its track as text against the panel: a half-cell end of the
           thumb is a shape that must stand out 3:1 in every colour mode. */
        scrollbar-color: $foreground 70%;
        scrollbar-color-hover: $foreground 85%;
        scrollbar-color-active: $foreground;
        scrollbar-background: $panel;
        scrollbar-background-hover: $panel;
        scrollbar-background-active: $panel;
    }
    """

    BINDINGS = [
        Binding("escape,question_mark,m", "dismiss_help", "Close help", id="help.close"),
    ]

    def compose(self) -> ComposeResult:
        """The help text in a scrollable frame."""
        with VerticalScroll():
            yield Markdown(HELP_TEXT)
        yield FittingFooter(show_command_palette=False)  # the way out stays in view

    def action_dismiss_help(self) -> None:
        """Back to where the player was."""
        self.dismiss(None)
