"""Computer opponents: pure functions of a game state, no I/O, no UI.

``levels`` names the levels (the menu lists them without loading a search),
``search`` is the alpha-beta search, ``solver`` the exact solver (``exact_boards``: on
which boards it proves everything), ``perfect``
and ``analysis`` what Perfect play, hints and the analysis row ask of it.
"""
