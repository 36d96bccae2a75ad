"""Clients of the room protocols: the lobby's and INFO1112 tic-tac-toe's, with typed answers.

Not match logic (that is ``c4tui.match``) and no front end: the console and the
app both play through these, and both say what an answer means with the one
table of words in ``words``.
"""
