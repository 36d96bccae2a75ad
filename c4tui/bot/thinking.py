"""How long a bot's chooser may think, and a first move asked before the bot logs in.

A bot plays with an ``outside.Chooser``: c4tui's own AI at a level, or an outside
program (``--engine``, ``--kaggle``). How long it may think comes from the game's
clock when the game is timed, and from a steady pace otherwise. An outside program
is asked for one move before the bot logs in, so that a program that cannot even
start stops the bot at once with its reason, instead of forfeiting every game.
"""

from __future__ import annotations

import time

from c4tui.engine import GameState, Rules, format_move
from c4tui.outside.chooser import Chooser

#: Seconds a chooser may think in a game without a clock.
UNTIMED_SECONDS = 5.0
#: Seconds kept back from every timed move for the network and the server's clock.
NETWORK_MARGIN = 0.3
#: The least a timed move is given, however low the clock.
LEAST_SECONDS = 0.05


def thinking_time(state: GameState, my_ms: int | None, increment_ms: int) -> float:
    """Seconds to think on this move: all the clock allows spread over the moves left.

    ``my_ms`` is what our clock shows (None: the game is untimed). A move may use its
    share of the time left (as if half the empty cells were ours to fill) and most of
    the increment, less a margin for the network, so the bot never loses on time.
    """
    if my_ms is None:
        return UNTIMED_SECONDS
    empty = state.columns * state.rows - state.disc_count
    moves_left = max(1, empty // 2)
    share = my_ms / 1000 / moves_left + 0.8 * increment_ms / 1000
    ceiling = my_ms / 1000 / 2  # never stake half of what is left on one move
    return max(LEAST_SECONDS, min(share, ceiling) - NETWORK_MARGIN)


async def first_move(chooser: Chooser) -> str:
    """Ask ``chooser`` for a first move on an empty 7 × 6 classic board: what it said, in words.

    Its process (if it has one) stays up for the first game. Raises OutsideFailure
    (or ChooserError) when it cannot answer.
    """
    started = time.monotonic()
    move = await chooser.choose(GameState.new(7, 6, Rules.CLASSIC), UNTIMED_SECONDS, ())
    seconds = time.monotonic() - started
    return f"{chooser.describe()} answered {format_move(move)} in {seconds:.1f} s"
