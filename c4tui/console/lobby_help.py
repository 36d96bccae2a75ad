"""What ``console --lobby`` says of itself: its help, and the game it asks for by default."""

from __future__ import annotations

from c4tui.console import history as past
from c4tui.console import lobby_puzzle, public, standing
from c4tui.match.settings import MatchSettings
from c4tui.protocols.table_talk import AWAY_BEFORE_CLAIM, IDLE_BEFORE_CLAIM

_MENU_DEFAULTS = MatchSettings()
#: The game ``quick`` and ``create`` ask for when none is named: the app menu's default
#: (7 × 6 classic), so that a console and an app left on their defaults meet. (A bare
#: QUICKPLAY on the wire means the protocol's own default, Pop Out; we always name the game.)
DEFAULT_GAME = (_MENU_DEFAULTS.columns, _MENU_DEFAULTS.rows, _MENU_DEFAULTS.rules)

#: What the console shows while it waits for a command.
LOBBY_PROMPT = "lobby> "

_AWAY, _IDLE = AWAY_BEFORE_CLAIM, IDLE_BEFORE_CLAIM / 60
_DEFAULT_WORDS = f"{DEFAULT_GAME[0]} {DEFAULT_GAME[1]} {DEFAULT_GAME[2].value}"

#: What may be typed while waiting in a room or watching one (``help`` there says it).
WATCHING_HELP = (
    "Waiting in a room or watching one: say TEXT to chat, quit (or leave, back) to leave it;\n"
    "  block USER, report USER REASON TEXT (as at lobby>); a moderator's ban, unban, mute too."
)
#: What may be typed in a game one plays (``help`` in it says it).
IN_GAME_HELP = f"""\
In a game: a column (3, or p 3 to pop), say TEXT to chat, forfeit to give up (asked first);
  draw offers a draw or accepts the other's, takeback asks to take your last move back
  or agrees to the other's asking, no declines their offer, abort calls the game off
  before both have moved, claim wins when the opponent has been away {_AWAY:g} s (or, without
  a clock, has not moved for {_IDLE:g} minutes: c4tui says when).
{public.IN_GAME_HELP}"""

HELP = f"""Commands:
  rooms                          every room: its board, players and state
  create NAME [COLS ROWS RULES] [rated|casual] [M+I] [red|yellow|random]
                                 open a room and wait in it (RULES: classic or popout;
                                 without them {_DEFAULT_WORDS}, as the app's menu; casual,
                                 no clock unless asked: 3+2 is 3 minutes each, +2 s a move;
                                 you play red unless you ask for yellow or random)
  join NAME                      play in a room whose creator waits
  watch NAME                     watch a room
  quick [COLS ROWS RULES] [rated|casual] [M+I] [red|yellow|random]
                                 play the next person waiting for the same game, or wait
                                 (colours at random unless you wish for one)
  players                        who is online: rating, free or busy, [bot]
  challenge USER [COLS ROWS RULES] [rated|casual] [M+I] [red|yellow|random]
                                 challenge USER by name (without settings: {_DEFAULT_WORDS},
                                 casual, no clock, you play red; 3+2 is 3 minutes, 2 s
                                 added a move)
  accept USER, decline USER      answer USER's challenge (challenges show at the prompt)
  rematch                        within a minute of a game's end: again, colours swapped
  say TEXT                       within a minute of a game's end: chat with its room ("gg")
{past.HELP}
{standing.HELP}
{lobby_puzzle.HELP}
{public.HELP}
  help, quit
{WATCHING_HELP}
{IN_GAME_HELP}
Ctrl-D ends c4tui; in a game you play, it asks first at a terminal (piped input that
ends forfeits the game).
When the connection drops or the server restarts, c4tui logs in again by itself and
goes on where you were (quit gives up)."""
