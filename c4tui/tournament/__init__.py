"""``c4tui tournament``: round robins and gauntlets between levels, engines and Kaggle agents.

The pure parts (the schedule, the standings with Elo, results.json's shape) are
apart from the parts that play (the openings found in the search pool, the games
run in parallel) and from the solver's review of the games (``review.py``), so each can
be tested alone.
"""
