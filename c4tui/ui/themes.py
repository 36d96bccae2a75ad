"""c4tui's own themes: readable in colour, without colour (NO_COLOR) and in 16 colours.

The widgets use Textual's theme variables only: the red discs are ``$error``, the
yellow ones ``$warning``, text about them ``$text-error`` / ``$text-warning``. So a
theme decides every colour, and these three are chosen for contrast: text at least
4.5:1 and discs at least 3:1 against what is behind them, also after Textual turns
each colour grey (NO_COLOR) or a terminal shows the nearest of its 16 colours
(``TERM=xterm``). For the 16 colours every background of the dark theme is dark and
grey enough to become the terminal's black: the only background on which a 16-colour
red disc still stands out. tests/ui/test_contrast.py measures all of this on screen.
"""

from __future__ import annotations

from textual.theme import Theme

#: Overrides shared by the dark themes: the cursor column and the winning line lighten the
#: background only a little, and nearly grey, so they stay black in 16 colours (where the
#: discs on them need it); the edges of unfocused fields are a visible grey.
_DARK_HIGHLIGHTS = {
    "primary-muted": "#282828",
    "success-muted": "#183018",
    "block-cursor-blurred-background": "#282828",
    "border-blurred": "#3a3a3a",
}

DARK = Theme(
    name="c4tui-dark",
    primary="#5fafef",
    secondary="#8787d7",
    accent="#ffaf5f",
    warning="#ffd75f",
    error="#ff6b6b",
    success="#5fd787",
    foreground="#e8e8e8",
    background="#121212",
    surface="#1a1a1a",
    panel="#242424",
    dark=True,
    variables=_DARK_HIGHLIGHTS,
)

LIGHT = Theme(
    name="c4tui-light",
    primary="#005fa3",
    secondary="#5f5faf",
    accent="#8f4a00",
    warning="#9a6a00",
    error="#c0262d",
    success="#1d7a34",
    foreground="#1c1c1c",
    background="#f4f4f4",
    surface="#fafafa",
    panel="#e4e4e4",
    dark=False,
    variables={
        "primary-muted": "#dde7f0",
        "success-muted": "#d3ead7",
        "block-cursor-blurred-background": "#dde7f0",
    },
)

#: Paul Tol's "bright" scheme, made to stay distinct for every kind of colour blindness:
#: red and yellow discs keep their names, and a win is cyan rather than green.
COLOUR_BLIND = Theme(
    name="c4tui-colour-blind",
    primary="#66ccee",
    secondary="#aa3377",
    accent="#ccbb44",
    warning="#ccbb44",
    error="#ee6677",
    success="#66ccee",
    foreground="#e8e8e8",
    background="#121212",
    surface="#1a1a1a",
    panel="#242424",
    dark=True,
    variables={**_DARK_HIGHLIGHTS, "success-muted": "#143040"},
)

THEMES = (DARK, LIGHT, COLOUR_BLIND)
#: Textual's themes that keep the terminal's own palette (offered beside c4tui's).
TERMINAL_THEMES = ("ansi-dark", "ansi-light")

#: The theme of a first start, and of a start whose saved theme cannot be used.
DEFAULT_THEME = DARK.name
