"""What the ssh door tells a visitor's app, read back; and a crash kept from the visitor's eyes."""

from __future__ import annotations

from pathlib import Path

import pytest
from rich.traceback import Traceback

from c4tui.protocols.ssh_visit import (
    ERRORS_ENV,
    GUESTS_ENV,
    IDLE_ENV,
    KEY_ENV,
    LOBBY_ENV,
    NAME_ENV,
    TOKEN_ENV,
    KeyVisit,
)
from c4tui.ui.app import keep_crash_report


def test_the_visit_is_read_from_the_environment() -> None:
    env = {
        TOKEN_ENV: "sshvisit-abc",
        LOBBY_ENV: "127.0.0.1:4471",
        KEY_ENV: "SHA256:xyz",
        NAME_ENV: "alice",
        GUESTS_ENV: "1",
        IDLE_ENV: "600",
        ERRORS_ENV: "/srv/errors",
    }
    visit = KeyVisit.from_env(env)
    assert visit.lobby == ("127.0.0.1", 4471)
    assert (visit.token, visit.fingerprint, visit.name) == ("sshvisit-abc", "SHA256:xyz", "alice")
    assert visit.guests and visit.idle_seconds == 600 and visit.errors == "/srv/errors"


@pytest.mark.parametrize("idle", ["", "0", "-5", "1e9", "abc"])
def test_an_idle_time_that_is_not_a_number_of_seconds_means_none(idle: str) -> None:
    visit = KeyVisit.from_env({LOBBY_ENV: "127.0.0.1:1", IDLE_ENV: idle})
    assert visit.idle_seconds is None
    assert not visit.guests


@pytest.mark.parametrize("lobby", ["", "127.0.0.1", "host:0", "host:port"])
def test_a_visit_without_a_lobby_is_refused(lobby: str) -> None:
    with pytest.raises(ValueError):
        KeyVisit.from_env({LOBBY_ENV: lobby})


def test_a_crash_report_goes_to_the_server_s_folder(tmp_path: Path) -> None:
    try:
        raise RuntimeError("the visit token sshvisit-secret in a local")
    except RuntimeError:
        traceback = Traceback(show_locals=True)
    said = keep_crash_report(str(tmp_path / "errors"), [traceback])
    assert said == "the server keeps a report of it"
    (report,) = (tmp_path / "errors").iterdir()
    assert "sshvisit-secret" in report.read_text(encoding="utf-8")


def test_a_report_that_cannot_be_written_is_said(tmp_path: Path) -> None:
    blocked = tmp_path / "file"
    blocked.write_text("not a folder", encoding="utf-8")
    assert keep_crash_report(str(blocked), ["boom"]) == "the server could not keep its report"
