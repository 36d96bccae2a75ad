"""How the hostile programs play between their attacks: the lowest free column, as an engine
(``serve``) or as a Kaggle agent (``kaggle_move``).

Assembled after attacks.py (README.md); ``serve(on_go)`` calls ``on_go(n)`` before
answering the nth ``go``, so an attack runs while the game is on.
"""

import sys


def answer(line):
    """One line to c4tui, at once."""
    print(line, flush=True)


def serve(on_go):
    """Answer c4tui until ``quit`` or the end of standard input."""
    columns, rows, heights, asked = 7, 6, [0] * 7, 0
    for line in sys.stdin:
        words = line.split()
        if words == ["c4e"]:
            answer("id name Hostile")
            answer("c4eok")
        elif words[:1] == ["newgame"]:
            columns, rows = int(words[1]), int(words[2])
        elif words[:1] == ["position"]:
            heights = [0] * columns
            for move in words[1:]:
                heights[int(move[1:]) - 1] += 1 if move[0] == "d" else -1
        elif words == ["isready"]:
            answer("readyok")
        elif words[:1] == ["go"]:
            asked += 1
            on_go(asked)
            answer(f"bestmove d{next(c for c in range(columns) if heights[c] < rows) + 1}")
        elif words == ["quit"]:
            break


def kaggle_move(observation, configuration):
    """A Kaggle agent's answer: the lowest free column (the top row's first empty cell)."""
    board = observation["board"]
    return next(column for column in range(configuration.columns) if board[column] == 0)
