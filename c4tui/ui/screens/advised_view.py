"""The person's asks for advice in a game: a hint, the analysis row and its best line.

The searches run in the background (``ui/advice.py`` owns their workers); these are
the keys that start them and the handlers that show their answers, one answer only
while it is about the position on the board.
"""

from __future__ import annotations

from c4tui.ui.advice import Advice
from c4tui.ui.screens.match_view import MatchView


class AdvisedView(MatchView):
    """A match view whose person can ask for a hint and turn the analysis on and off."""

    def action_why_no_hint(self) -> None:
        """h while Hint is dimmed: the game is over, or it is not a person's turn here."""
        if self.driver.is_over or self.driver.state.is_over:
            self.panel.say("The game is over: no hint to give.\nn: new game · esc: menu")
        else:
            self.panel.say("Hints are for your turn.")

    def action_hint(self) -> None:
        """Suggest a move for the person to move, worked out by the driver off the UI's hands."""
        if not self.driver.awaiting_submission():
            self.action_why_no_hint()
            return
        self.panel.say("Finding a hint…", "thinking")  # one line in the narrowest panel
        self.advice.find_hint()

    def on_advice_hint_found(self, message: Advice.HintFound) -> None:
        """Point the cursor at the suggested move and say what is known about it."""
        if not self.advice.is_current(message):
            return  # the player moved first
        self.board.cursor = message.result.move.column
        self.pop_mode = Advice.hint_pops(message.result)
        self.panel.say(self.advice.with_summary(Advice.hint_words(message.result)))

    def action_toggle_analysis(self) -> None:
        """Show or hide each column's outcome under the board."""
        on = self.advice.toggle_analysis()
        self.refresh_bindings()  # once the game is over, Analysis can only be turned off
        if on:
            self.panel.say("Analysis on: each column's outcome shows under the board")
        else:
            self.panel.say("Analysis off")

    def on_advice_analysis_found(self, message: Advice.AnalysisFound) -> None:
        """Label the columns, and name the best one in the panel."""
        if self.advice.is_current(message):  # else a move was played meanwhile
            self.panel.say(self.advice.analysis_found(message))

    def on_advice_best_line_found(self, message: Advice.BestLineFound) -> None:
        """Show best play to the end in the panel."""
        if self.advice.is_current(message):  # else a move was played meanwhile
            self.advice.best_line_found(message)
