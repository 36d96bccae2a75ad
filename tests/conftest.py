"""Shared test settings: how hard hypothesis tries (more on CI), and a private data directory."""

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile(
    "default", max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile(
    "ci", max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
ON_CI = bool(os.environ.get("CI"))
_default_profile = "ci" if ON_CI else "default"
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", _default_profile))


def scaled(here: int, on_ci: int) -> int:
    """How much a slow test does: more on CI (which has the time), less on a developer's run."""
    return on_ci if ON_CI else here


@pytest.fixture(autouse=True)
def private_data_directory(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """User data (the server's accounts) in a temporary directory, never the real user's.

    Set in the environment, so processes a test starts use it too.
    """
    data = tmp_path_factory.mktemp("user-data")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("XDG_DATA_HOME", str(data))
        yield data


@pytest.fixture(autouse=True)
def still_discs(monkeypatch: pytest.MonkeyPatch) -> None:
    """Apps in tests draw each move at once (no falling discs, no smooth scrolling), so a
    snapshot or an assertion right after a move sees it in place. Tests of the animation
    turn it back on for their app."""
    import textual.constants

    monkeypatch.setattr(textual.constants, "TEXTUAL_ANIMATIONS", "none")
