"""Tic-tac-toe for the INFO1112 handout's servers and clients: its rules, pure and small."""

from c4tui.tictactoe.game import Board, Mark, TicTacToeError, cell_of_number, parse_cell

__all__ = ["Board", "Mark", "TicTacToeError", "cell_of_number", "parse_cell"]
