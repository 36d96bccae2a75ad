"""An engine that holds 700 MB in itself and 700 MB in a child at its first move.

Assembled after attacks.py and playing.py (README.md).
"""

# ruff: noqa: F821 (hold_memory and serve come from the parts before this)

serve(lambda asked: asked == 1 and hold_memory())
