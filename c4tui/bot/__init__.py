"""``c4tui bot``: a program that sits in a lobby and plays whoever asks (spec §5.5)."""
