"""A Kaggle agent that tries every attack on files, the network and the environment at its
load, and kills the other programs it can see at every move; it plays the lowest free column.

Assembled after attacks.py and playing.py (README.md).
"""

# ruff: noqa: F821 (every_attack, kill_others, kaggle_move: from the parts before this)

every_attack()


def agent(observation, configuration):
    """The last function: Kaggle's agent."""
    kill_others(quiet=True)
    return kaggle_move(observation, configuration)
