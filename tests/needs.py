"""What a test needs from the machine: without it the test skips saying what to install, except
on CI (``CI`` set), which installs everything, where it fails instead."""

from __future__ import annotations

import os
from typing import NoReturn

import pytest


def unavailable(reason: str) -> NoReturn:
    """Skip the test for ``reason`` (on CI, fail)."""
    if os.environ.get("CI"):
        pytest.fail(reason)
    pytest.skip(reason)


def missing(what: str, package: str) -> NoReturn:
    """Skip the test for want of ``what``, Debian's ``package`` (on CI, fail)."""
    unavailable(f"{what} is not installed: apt-get install {package}")
