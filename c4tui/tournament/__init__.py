"""c4tui tournament: programs and levels play each other; standings, Elo, the solver's review."""
