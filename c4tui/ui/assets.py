"""Where the files the app ships (stylesheet, screenshot) are, installed or in a checkout."""

from __future__ import annotations

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent.parent


def asset_path(name: str) -> Path:
    """The path of ``assets/<name>``: inside the installed package, else in the checkout."""
    installed = _PACKAGE / "assets" / name
    if installed.exists():
        return installed
    return _PACKAGE.parent / "assets" / name
