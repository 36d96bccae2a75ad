"""Shared test settings: how hard hypothesis tries (more on CI)."""

import os

from hypothesis import HealthCheck, settings

settings.register_profile(
    "default", max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile(
    "ci", max_examples=1000, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
ON_CI = bool(os.environ.get("CI"))
_default_profile = "ci" if ON_CI else "default"
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", _default_profile))


def scaled(here: int, on_ci: int) -> int:
    """How much a slow test does: more on CI (which has the time), less on a developer's run."""
    return on_ci if ON_CI else here
