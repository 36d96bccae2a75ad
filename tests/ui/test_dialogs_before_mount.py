"""Enter can reach a dialog before its fields exist (or after they went): it must do nothing.

The app's random-key test found this in the Columns setup on CI (NoMatches '#rows');
the connect and login dialogs have the same shape.
"""

from __future__ import annotations

from c4tui.match.backends.network import NetworkBackend
from c4tui.ui.screens.connect import ConnectDialog
from c4tui.ui.screens.login import LoginDialog


def test_enter_before_the_connect_dialog_has_its_fields_does_nothing() -> None:
    dialog = ConnectDialog(NetworkBackend, {})  # not mounted: no fields yet
    dialog.action_connect()
    dialog._connect_pressed()


def test_enter_before_the_login_dialog_has_its_fields_does_nothing() -> None:
    dialog = LoginDialog({})  # not mounted: no fields yet
    dialog.action_log_in()
    dialog.action_register()
