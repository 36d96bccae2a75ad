"""A challenge to us, as a popup (spec §5.5): who, for which game, and Accept or Decline."""

from __future__ import annotations

from textual.binding import Binding

from c4tui.client import words
from c4tui.match.settings import describe_game
from c4tui.protocols.competition import Challenged
from c4tui.ui.screens.confirm import ConfirmDialog


class ChallengeDialog(ConfirmDialog):
    """``ann challenges you: 7 × 6 Classic, rated 3+2``: a (or Enter) accepts, d or Esc declines.

    Dismissed with True to accept; the screen below sends the answer.
    """

    BINDINGS = [
        Binding("a", "confirm", "Accept", priority=True),
        Binding("d", "cancel", "Decline"),
    ]

    def __init__(self, challenge: Challenged) -> None:
        board = describe_game(*challenge.game)
        super().__init__(
            words.challenges_you(challenge.user, board, challenge.terms),
            "Accept",
            "Decline",
            ("a", "d"),
        )
        self.challenge = challenge
