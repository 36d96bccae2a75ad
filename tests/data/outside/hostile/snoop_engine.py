"""An engine that tries every attack on files, the network and the environment at its first
move, and kills the other programs it can see at every move.

Assembled after attacks.py and playing.py (README.md).
"""

# ruff: noqa: F821 (every_attack, kill_others and serve come from the parts before this)


def attack(asked):
    """Everything at the first move; the assassin again at every later one."""
    if asked == 1:
        every_attack()
    else:
        kill_others(quiet=True)


serve(attack)
