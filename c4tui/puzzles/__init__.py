"""Puzzles to solve (issue 41): the shipped set, one attempt's rules, ratings, the daily puzzle.

``puzzle`` is a puzzle's shape; ``collection`` reads the set c4tui ships; ``attempt``
judges the moves of one try against the proven solution (no solver needed: the only
right move is the solution's); ``rating`` rates a try with the lobby's Glicko-2;
``progress`` is the player's record (rating, streaks, history) and ``keeping`` keeps it
in c4tui's data folder. Making puzzles and explaining a wrong move need the solver:
they are ``puzzles.making``.
"""
