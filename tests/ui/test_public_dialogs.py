"""The report, ban and mute dialogs (Pilot): each checks what is typed and dismisses with it.

Nothing here needs a server: a dialog only says what was asked for (whoever opened
it sends it). A text or a number the wire would refuse keeps the dialog open and
says why; Esc dismisses with None.
"""

from __future__ import annotations

from textual.pilot import Pilot
from textual.screen import Screen
from textual.widgets import Input

from c4tui.protocols.public import MAX_REPORT_TEXT, ReportReason
from c4tui.ui.screens.ban import BanAsked, BanDialog
from c4tui.ui.screens.mute import MuteAsked, MuteDialog
from c4tui.ui.screens.report import ReportAsked, ReportDialog
from c4tui.ui.widgets.choice import ChoiceSet
from tests.ui.helpers import SIZE, make_app
from tests.ui.test_lobby_app import text_of, until


async def opened(pilot: Pilot, dialog: Screen[object]) -> list[object]:
    """Push ``dialog``; the list its result lands in."""
    results: list[object] = []
    await pilot.app.push_screen(dialog, results.append)
    await pilot.pause()
    return results


async def test_the_report_dialog_sends_the_reason_chosen_and_the_text() -> None:
    async with make_app().run_test(size=SIZE) as pilot:
        results = await opened(pilot, ReportDialog("bob"))
        assert isinstance(pilot.app.focused, ChoiceSet)  # the reason first
        await pilot.press("right")  # chat → cheating
        await pilot.press("enter")  # on to the text, nothing sent yet
        assert results == [] and isinstance(pilot.app.focused, Input)
        await pilot.press(*"engine: every move")
        assert text_of(pilot, "#report-status") == f"18 of {MAX_REPORT_TEXT} characters"
        await pilot.press("enter")
        await until(pilot, lambda: bool(results))
        assert results == [ReportAsked("bob", ReportReason.CHEATING, "engine: every move")]


async def test_the_report_dialog_keeps_a_text_over_200_characters_and_says_so() -> None:
    async with make_app().run_test(size=SIZE) as pilot:
        results = await opened(pilot, ReportDialog("bob"))
        field = pilot.app.screen.query_one("#text", Input)
        field.value = "x" * (MAX_REPORT_TEXT + 1)  # pasted: not cut short without a word
        field.focus()
        await pilot.pause()
        status = pilot.app.screen.query_one("#report-status")
        assert status.has_class("-error")
        await pilot.press("enter")
        await pilot.pause()
        assert results == [] and isinstance(pilot.app.screen, ReportDialog)
        assert text_of(pilot, "#report-status") == (
            "That text has 201 characters: it may have 200 at most."
        )
        field.value = "bell\a"
        await pilot.press("enter")
        await pilot.pause()
        assert results == [] and "control character" in text_of(pilot, "#report-status")
        field.value = ""  # nothing more to say: a report all the same
        await pilot.press("enter")
        await until(pilot, lambda: bool(results))
        assert results == [ReportAsked("bob", ReportReason.CHAT, "")]


async def test_esc_reports_nothing() -> None:
    async with make_app().run_test(size=SIZE) as pilot:
        results = await opened(pilot, ReportDialog("bob"))
        await pilot.press("escape")
        await until(pilot, lambda: bool(results))
        assert results == [None]


async def test_the_ban_dialog_checks_the_hours_and_the_reason() -> None:
    async with make_app().run_test(size=SIZE) as pilot:
        results = await opened(pilot, BanDialog("bob", "report 3 (chat)"))
        hours = pilot.app.screen.query_one("#hours", Input)
        reason = pilot.app.screen.query_one("#reason", Input)
        assert (hours.value, reason.value) == ("24", "report 3 (chat)")
        hours.value = "1000001"
        reason.focus()
        await pilot.press("enter")
        await pilot.pause()
        assert results == [] and "Hours are 0 (until unbanned)" in text_of(pilot, "#ban-status")
        assert pilot.app.focused is hours
        hours.value = "0"
        await pilot.press("enter")  # from the hours: on to the reason
        assert results == [] and pilot.app.focused is reason
        reason.value = "x" * (MAX_REPORT_TEXT + 1)
        await pilot.press("enter")
        await pilot.pause()
        assert results == [] and "201 characters" in text_of(pilot, "#ban-status")
        reason.value = "spam in every room"
        await pilot.press("enter")
        await until(pilot, lambda: bool(results))
        assert results == [BanAsked("bob", 0, "spam in every room")]


async def test_the_ban_dialogs_hours_take_digits_only() -> None:
    async with make_app().run_test(size=SIZE) as pilot:
        await opened(pilot, BanDialog("bob"))
        hours = pilot.app.screen.query_one("#hours", Input)
        hours.value = ""
        await pilot.press(*"-3x")
        assert hours.value == "3"


async def test_the_mute_dialog_checks_the_minutes() -> None:
    async with make_app().run_test(size=SIZE) as pilot:
        results = await opened(pilot, MuteDialog("bob"))
        minutes = pilot.app.screen.query_one("#minutes", Input)
        assert minutes.value == "60"
        for wrong in ("0", "10081", ""):
            minutes.value = wrong
            await pilot.press("enter")
            await pilot.pause()
            assert results == [] and "Minutes are 1 to 10080" in text_of(pilot, "#mute-status")
        minutes.value = "15"
        await pilot.press("enter")
        await until(pilot, lambda: bool(results))
        assert results == [MuteAsked("bob", 15)]
