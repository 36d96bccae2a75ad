"""The high-score list, kept in the user's data folder (written whole or not at all)."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from pathlib import Path

from c4tui.storage import data_folder, write_atomically

#: Entries kept.
KEPT = 10


@dataclass(frozen=True)
class HighScore:
    """One finished game worth remembering."""

    score: int
    level: int
    date: str


def scores_path() -> Path:
    """Where the list lives."""
    return data_folder() / "columns-scores.json"


def high_scores() -> list[HighScore]:
    """The list, best first; empty if there is none or it cannot be read."""
    try:
        entries = json.loads(scores_path().read_text(encoding="utf-8"))
        return [HighScore(int(e["score"]), int(e["level"]), str(e["date"])) for e in entries]
    except (OSError, ValueError, TypeError, KeyError):
        return []


def add_score(entry: HighScore) -> int | None:
    """Add ``entry`` if it makes the list; its place (1 = best), or None."""
    scores = sorted([*high_scores(), entry], key=lambda e: -e.score)[:KEPT]
    if entry not in scores:
        return None
    write_atomically(scores_path(), json.dumps([asdict(e) for e in scores], indent=1))
    return scores.index(entry) + 1
