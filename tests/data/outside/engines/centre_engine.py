"""A tiny engine in Python for c4tui's engine protocol: the first drop from the centre, else a pop.

The same player as its siblings in C, JavaScript and Java beside it, for the tournament
between languages (tests/outside/test_engine_languages.py); the protocol is in
c4tui/protocols/PROTOCOL.md.
"""

import sys

columns, rows, popout = 7, 6, False
board: list[list[int]] = [[] for _ in range(columns)]  # each column's discs from the bottom up
mover = 1  # 1 red, 2 yellow


def say(line):
    print(line, flush=True)


def follow(moves):
    """The board after the game so far, and who moves: drops stack, pops take the bottom disc."""
    discs, to_move = [[] for _ in range(columns)], 1
    for move in moves:
        column = int(move[1:]) - 1
        if 0 <= column < columns and move[0] == "d":
            discs[column].append(to_move)
        elif 0 <= column < columns and move[0] == "p" and discs[column]:
            discs[column].pop(0)
        to_move = 3 - to_move
    return discs, to_move


def best_move():
    """The first free column from the centre out (the left one first), else a pop of one's own."""
    order = sorted(range(columns), key=lambda column: (abs(2 * column - (columns - 1)), column))
    drops = [column for column in order if len(board[column]) < rows]
    pops = [column for column in order if popout and board[column][:1] == [mover]]
    if drops:
        return f"bestmove d{drops[0] + 1}"
    return f"bestmove p{pops[0] + 1}" if pops else "info string no legal move"


for line in sys.stdin:
    words = line.split()
    if words == ["c4e"]:
        say("id name Centre in Python")
        say("id author the c4tui tests")
        say("c4eok")
    elif words[:1] == ["newgame"]:
        columns, rows, popout = int(words[1]), int(words[2]), words[3:4] == ["popout"]
    elif words[:1] == ["position"]:
        board, mover = follow(words[1:])
    elif words[:1] == ["go"]:
        say(best_move())
    elif words == ["isready"]:
        say("readyok")
    elif words == ["quit"]:
        break
