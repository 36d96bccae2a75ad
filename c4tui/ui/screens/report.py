"""Reporting a player to the moderators (REPORT, spec §7): what it is about, and what happened.

The reason is a choice (chat, cheating, name, other); the text is at most 200
printable characters (chat's rule), and may be left empty. The text is checked
here before anything is sent, and explained in the dialog if it will not do;
Enter dismisses the dialog with the report asked for, Esc with None. Whoever
opened it sends the report and says what came of it (``ui.public_actions``).
"""

from __future__ import annotations

from dataclasses import dataclass

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Static

from c4tui.client.in_public import TEXT_RULE, text_refused
from c4tui.protocols.public import MAX_REPORT_TEXT, ReportReason
from c4tui.ui.widgets.choice import ChoiceSet

#: The reasons as the choice shows them, in the wire's order.
REASON_LABELS = tuple(reason.value.capitalize() for reason in ReportReason)


@dataclass(frozen=True)
class ReportAsked:
    """A report to send: about ``user``, for ``reason``, in ``text`` (checked: it can go)."""

    user: str
    reason: ReportReason
    text: str


class ReportDialog(ModalScreen[ReportAsked | None]):
    """Report ``user``: the reason, then the text; Enter sends, Esc cancels.

    Args:
        user: whom the report is about.
        ascii_only: draw the choice's marks with ASCII characters only.
    """

    DEFAULT_CSS = """
    ReportDialog { align: center middle; }
    ReportDialog .form-note { color: $text-muted; height: auto; }
    ReportDialog ChoiceSet { margin: 1 0; }
    ReportDialog Input { margin-top: 1; }
    """

    BINDINGS = [
        Binding("escape", "cancel", "Cancel", id="report.cancel"),
        Binding("enter", "send", "Send", priority=True, id="report.send"),
    ]

    def __init__(self, user: str, *, ascii_only: bool = False) -> None:
        super().__init__()
        self.user = user
        self._ascii_only = ascii_only

    def compose(self) -> ComposeResult:
        """The reason, the text, a status line and the buttons."""
        with Vertical(classes="form-dialog"):
            yield Static(f"Report {self.user} to the moderators", classes="form-title")
            yield Static("What is it about? (← → choose)", classes="form-note")
            yield ChoiceSet(REASON_LABELS, ascii_only=self._ascii_only, id="reason")
            yield Static(
                f"What happened, in {TEXT_RULE} (the last game between you is kept "
                "with the report):",
                classes="form-note",
            )
            yield Input(id="text", compact=True)  # not cut at 200: a longer text is said so
            yield Static("", id="report-status", classes="form-status", markup=False)
            with Horizontal():
                yield Button("Send (Enter)", id="send", variant="primary")
                yield Button("Cancel (Esc)", id="cancel")

    def on_mount(self) -> None:
        """The reason first."""
        self.query_one(ChoiceSet).focus()

    @on(Input.Changed, "#text")
    def _count(self, changed: Input.Changed) -> None:
        """How much of the text's room is used, said as it is typed (an error once over)."""
        used = len(changed.value)
        self._status(f"{used} of {MAX_REPORT_TEXT} characters", error=used > MAX_REPORT_TEXT)

    def _status(self, text: str, error: bool = False) -> None:
        status = self.query_one("#report-status", Static)
        status.update(text)
        status.set_class(error, "-error")

    @property
    def reason(self) -> ReportReason:
        """The reason chosen."""
        return list(ReportReason)[self.query_one(ChoiceSet).chosen]

    @on(Button.Pressed, "#send")
    def action_send(self) -> None:
        """Enter: from the reason, on to the text; else send, if the text can go."""
        if isinstance(self.focused, Button) and self.focused.id == "cancel":
            self.action_cancel()
            return
        field = self.query_one("#text", Input)
        if isinstance(self.focused, ChoiceSet):
            field.focus()
            return
        refusal = text_refused(field.value)
        if refusal is not None:
            self._status(refusal, error=True)
            field.focus()
            return
        self.dismiss(ReportAsked(self.user, self.reason, field.value))

    @on(Button.Pressed, "#cancel")
    def action_cancel(self) -> None:
        """No report."""
        self.dismiss(None)
