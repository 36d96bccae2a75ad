"""Answer move requests with an AI level of whichever c4tui is on ``sys.path``.

``bench/ai_tournament.py --old-hard REV`` unpacks an older commit and runs this
script with ``PYTHONPATH`` pointing there, so the old Hard plays the new one from
a separate process: two versions of the same package cannot share one interpreter.

Protocol, one line each way: ``GAME LEVEL COLUMNS ROWS RULES SEED`` starts a game
(answers ``ok PATH-OF-C4TUI``); ``MOVE m1 m2 …`` gives the whole game so far in
the move notation and is answered with the level's move; end of input stops.
It uses only the engine and level APIs that every version of c4tui has.
"""

from __future__ import annotations

import sys

import c4tui
from c4tui.ai.levels import ai_level
from c4tui.engine import GameState, Rules
from c4tui.engine.moves import format_move, parse_move


def main() -> None:
    """Serve requests until standard input closes."""
    player = None
    new_game = None
    for line in sys.stdin:
        word, *rest = line.split()
        if word == "GAME":
            level, columns, rows, rules, seed = rest
            player = ai_level(level).make(int(seed))
            new_game = (int(columns), int(rows), Rules(rules))
            print("ok", c4tui.__file__, flush=True)
        elif word == "MOVE" and player is not None and new_game is not None:
            state = GameState.new(*new_game)
            for move in rest:
                state = state.play(parse_move(move))
            print(format_move(player.choose_move(state)), flush=True)
        else:
            print("error", line.strip(), flush=True)


if __name__ == "__main__":
    main()
