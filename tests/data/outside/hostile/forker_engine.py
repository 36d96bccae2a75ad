"""An engine that forks 300 children at its first move; they sleep a minute.

Assembled after attacks.py and playing.py (README.md).
"""

# ruff: noqa: F821 (fork_children and serve come from the parts before this)

serve(lambda asked: asked == 1 and fork_children())
