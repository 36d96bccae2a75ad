"""Blocking, reporting and moderating from any screen of the app (spec §7), said the same way.

The lobby's player list, a profile, a game and the moderators' reports all block,
report, ban and mute; ``PublicActions`` does it for the screen it is given: it
opens the dialog (report, ban, mute), sends the request in a worker of that
screen, and hands what came of it to the screen's ``say`` (an error when refused),
in ``client.in_public``'s sentences. A lost connection goes to ``lost`` (the lobby
comes back by itself), else it is said. ``then`` runs once a request was done
(a list shown again).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from textual.screen import Screen

from c4tui.client import in_public
from c4tui.client.in_public import Said
from c4tui.client.link import LobbyLink
from c4tui.net.errors import NetworkError, ProtocolError
from c4tui.ui.screens.ban import BanAsked, BanDialog
from c4tui.ui.screens.mute import MuteAsked, MuteDialog
from c4tui.ui.screens.report import ReportAsked, ReportDialog

#: Says a sentence on a screen; True: a refusal (shown as an error).
Say = Callable[[str, bool], None]
#: Runs once a request was done (what it returns is for nobody: a worker, say).
Then = Callable[[], object] | None


class PublicActions:
    """§7's requests for ``screen``, on its ``link`` (asked each time: a comeback replaces it).

    Args:
        screen: whose workers send, and over which the dialogs open.
        link: the connection in use.
        say: where what came of a request is said.
        lost: told of a lost connection (None: it is said).
        ascii_only: the dialogs' marks in ASCII.
    """

    def __init__(
        self,
        screen: Screen[Any],
        link: Callable[[], LobbyLink],
        say: Say,
        *,
        lost: Callable[[Exception], None] | None = None,
        ascii_only: bool = False,
    ) -> None:
        self._screen = screen
        self._link = link
        self._say = say
        self._lost = lost
        self._ascii_only = ascii_only

    def block(self, user: str, then: Then = None) -> None:
        """Block ``user``."""
        self._send(lambda link: in_public.block(link, user), then)

    def unblock(self, user: str, then: Then = None) -> None:
        """Stop blocking ``user``."""
        self._send(lambda link: in_public.unblock(link, user), then)

    def report(self, user: str) -> None:
        """Ask what the report on ``user`` says (a dialog), then send it."""

        def asked(report: ReportAsked | None) -> None:
            if report is not None:
                self._send(
                    lambda link: in_public.report(link, report.user, report.reason, report.text)
                )

        self._screen.app.push_screen(ReportDialog(user, ascii_only=self._ascii_only), asked)

    def ban(self, user: str, reason: str = "", then: Then = None) -> None:
        """Ask for how long and why (a dialog, ``reason`` offered), then ban ``user``."""

        def asked(ban: BanAsked | None) -> None:
            if ban is not None:
                self._send(lambda link: in_public.ban(link, ban.user, ban.hours, ban.reason), then)

        self._screen.app.push_screen(BanDialog(user, reason), asked)

    def unban(self, user: str, then: Then = None) -> None:
        """Lift ``user``'s ban."""
        self._send(lambda link: in_public.unban(link, user), then)

    def mute(self, user: str, then: Then = None) -> None:
        """Ask for how long (a dialog), then mute ``user``."""

        def asked(mute: MuteAsked | None) -> None:
            if mute is not None:
                self._send(lambda link: in_public.mute(link, mute.user, mute.minutes), then)

        self._screen.app.push_screen(MuteDialog(user), asked)

    def close_report(self, number: int, then: Then = None) -> None:
        """Close the open report ``number``."""
        self._send(lambda link: in_public.close_report(link, number), then)

    def _send(self, request: Callable[[LobbyLink], Awaitable[Said]], then: Then = None) -> None:
        """Send ``request`` in a worker of the screen; say what came of it."""

        async def sending() -> None:
            try:
                said = await request(self._link())
            except (NetworkError, ProtocolError, TimeoutError) as error:
                if self._lost is not None:
                    self._lost(error)
                else:
                    self._say(f"Not sent: the server is gone ({error}).", True)
                return
            self._say(said.text, said.refused)
            if then is not None and not said.refused:
                then()

        self._screen.run_worker(sending(), group="public", exit_on_error=False)
