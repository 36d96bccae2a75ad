"""Screens of the Textual app: the menu, the game and the help."""
