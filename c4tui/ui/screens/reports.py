"""The open reports, for a moderator (REPORTS, CLOSEREPORT, spec §7), and acting on them.

One row a report, oldest first: its number, when it was made (this computer's
time), who reported whom, why, the last game between them and the start of the
text; the chosen report's whole text shows under the list. ``c`` closes the
chosen report, ``B`` bans and ``M`` mutes the player it reports (a dialog asks
for how long), ``i`` opens their profile; r fetches the list again, Esc goes back.
The lobby offers this screen to moderators only (PROFILE's role); the server
checks again.
"""

from __future__ import annotations

from collections.abc import Iterable

from rich.text import Text
from textual import work
from textual.binding import Binding
from textual.widget import Widget
from textual.widgets import DataTable, Static

from c4tui.client import in_public
from c4tui.client.link import LobbyLink
from c4tui.client.outcomes import ReportsRefused, UnknownStatus
from c4tui.client.public_words import REPORTS
from c4tui.client.words import Voice
from c4tui.net.errors import NetworkError, ProtocolError
from c4tui.protocols.public import REPORTS_LISTED, ReportInfo
from c4tui.ui.public_actions import PublicActions
from c4tui.ui.screens.profiled_listing import ProfiledListing

#: The columns.
REPORT_COLUMNS = ("N", "When", "Reporter", "Reported", "Reason", "Game", "Text")
#: The fewest characters of a report's text a row shows (the whole text shows under the list).
FEWEST_IN_ROW = 8


def report_row(report: ReportInfo) -> tuple[str, ...]:
    """One report as its row shows it, its whole text last."""
    return (
        str(report.number),
        in_public.report_when(report),
        report.reporter,
        report.reported,
        report.reason.value,
        "-" if report.game is None else str(report.game),
        report.text,
    )


def fitted_rows(rows: list[tuple[str, ...]], width: int, padding: int) -> list[tuple[str, ...]]:
    """``rows`` with their texts cut short (an ellipsis) so that the columns fit ``width``.

    Each column is as wide as its widest cell or heading, ``padding`` cells either side.
    """
    others = [
        max(len(cell) for cell in column)
        for column in zip(REPORT_COLUMNS[:-1], *(row[:-1] for row in rows), strict=True)
    ]
    room = width - sum(others) - 2 * padding * len(REPORT_COLUMNS)
    room = max(FEWEST_IN_ROW, room)
    return [(*row[:-1], _cut(row[-1], room)) for row in rows]


def _cut(text: str, room: int) -> str:
    return text if len(text) <= room else text[: room - 1] + "…"


def report_details(report: ReportInfo) -> str:
    """The whole report in a sentence or two, for under the list."""
    game = "" if report.game is None else f" (their last game: {report.game})"
    said = f"“{report.text}”" if report.text else "(no text)"
    who = f"{report.reporter} reported {report.reported} for {report.reason.value}"
    return f"{report.number}: {who}{game}: {said}"


class ReportsScreen(ProfiledListing):
    """The open reports; c closes one, B bans and M mutes the reported, Esc goes back.

    Args:
        link: the lobby connection (logged in as a moderator).
        ascii_only: draw with ASCII characters only (handed on to a profile).
        saves_last_until_quit: saved games go when the app quits (handed on likewise).
    """

    DEFAULT_CSS = """
    ReportsScreen #report-details { margin: 1 2 0 2; height: auto; padding: 0 1;
        border: round $primary; }
    ReportsScreen #reports-status { margin: 0 2; }
    """

    BINDINGS = [
        Binding("c", "close_report", "Close", id="reports.close"),
        Binding("B", "ban", "Ban", id="reports.ban"),
        Binding("M", "mute", "Mute", id="reports.mute"),
        Binding("i", "profile", "Profile", id="reports.profile"),
        Binding("r", "refresh", "Refresh", id="reports.refresh"),
        Binding("escape", "leave", "Back", id="reports.leave"),
    ]
    NAME = "reports"
    TITLE = "Open reports, oldest first"
    HELP = (
        "c closes the chosen report; B bans, M mutes the player it reports, i shows "
        "their profile; Esc goes back."
    )
    FETCHING = "Fetching the reports…"
    BACK_TO = "the reports"

    def __init__(
        self, link: LobbyLink, *, ascii_only: bool = False, saves_last_until_quit: bool = False
    ) -> None:
        super().__init__(link, ascii_only=ascii_only, saves_last_until_quit=saves_last_until_quit)
        self.public = PublicActions(self, lambda: self.link, self._say, ascii_only=ascii_only)
        #: The open reports, as last fetched, by number.
        self.reports: dict[int, ReportInfo] = {}

    def under_table(self) -> Iterable[Widget]:
        """The chosen report's whole text."""
        details = Static("", id="report-details", markup=False)
        details.border_title = "Report"
        yield details

    def add_columns(self, table: DataTable[object]) -> None:
        """A report's number, when, who reported whom, why, the game and the text."""
        table.add_columns(*REPORT_COLUMNS)

    @work(group="reports", exclusive=True, exit_on_error=False)
    async def fetch(self, quietly: bool = False) -> None:
        """The reports; ``quietly``: what was just done stays in the status line."""
        try:
            listed = await self.link.reports()
        except (NetworkError, ProtocolError, TimeoutError) as error:
            self._say(f"The server is gone: {error}", error=True)
            return
        if isinstance(listed, ReportsRefused | UnknownStatus):
            self._show([])
            self._say(REPORTS.said(listed, Voice.APP), error=True)
            return
        self._show(listed)
        if not quietly:
            self._say(_summary(listed))

    def _show(self, listed: list[ReportInfo]) -> None:
        table = self.query_one(DataTable)
        chosen = self.chosen
        table.clear()
        self.reports = {report.number: report for report in listed}
        rows = [report_row(report) for report in listed]
        scrollbar = 2  # the table's vertical scrollbar, once the rows do not fit
        for report, row in zip(
            listed, fitted_rows(rows, table.size.width - scrollbar, table.cell_padding), strict=True
        ):
            table.add_row(*(Text(cell) for cell in row), key=str(report.number))  # not markup
        numbers = list(self.reports)
        if chosen is not None and chosen.number in self.reports:
            table.move_cursor(row=numbers.index(chosen.number))
        self._show_details()
        self.refresh_bindings()

    @property
    def chosen(self) -> ReportInfo | None:
        """The report under the cursor (None: no reports)."""
        key = self.chosen_key
        return None if key is None else self.reports.get(int(key))

    def on_data_table_row_highlighted(self) -> None:
        """Another report chosen: its whole text under the list."""
        self._show_details()

    def _show_details(self) -> None:
        chosen = self.chosen
        details = self.query_one("#report-details", Static)
        details.display = chosen is not None
        if chosen is not None:
            details.update(report_details(chosen))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """What acts on a report only with one chosen."""
        if action in ("close_report", "ban", "mute", "profile"):
            return bool(self.reports)
        return True

    def action_close_report(self) -> None:
        """Close the chosen report (the list is fetched again)."""
        if (chosen := self.chosen) is not None:
            self.public.close_report(chosen.number, then=lambda: self.fetch(quietly=True))

    def action_ban(self) -> None:
        """Ban the player the chosen report is about (the report's number as the reason)."""
        if (chosen := self.chosen) is not None:
            reason = f"report {chosen.number} ({chosen.reason.value})"
            self.public.ban(chosen.reported, reason)

    def action_mute(self) -> None:
        """Mute the player the chosen report is about."""
        if (chosen := self.chosen) is not None:
            self.public.mute(chosen.reported)

    def action_profile(self) -> None:
        """The profile of the player the chosen report is about."""
        if (chosen := self.chosen) is not None:
            self.show_profile(chosen.reported)


def _summary(listed: list[ReportInfo]) -> str:
    """How many reports are open (REPORTS lists 50 at most: the oldest)."""
    if not listed:
        return "No open reports."
    counted = "1 open report" if len(listed) == 1 else f"{len(listed)} open reports"
    if len(listed) >= REPORTS_LISTED:  # the oldest: more may wait behind them
        return f"{counted} (the oldest {REPORTS_LISTED}: close some to see the rest)."
    return f"{counted}."
