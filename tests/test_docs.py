"""The documents a newcomer reads: every link leads somewhere, and the README's set-up holds.

Issue 40 #22 moved serving, clusters, tournaments and benchmarks out of the README into
documents beside their code; a link left pointing at the old place would send a reader
nowhere, so every relative link (and its ``#anchor``) in every document is followed here.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: Folders whose Markdown is not the project's own documents.
NOT_DOCUMENTS = {".git", "__snapshots__", ".venv", "node_modules", "build"}
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
FENCE = re.compile(r"^```.*?^```", re.MULTILINE | re.DOTALL)


def documents() -> list[Path]:
    """Every Markdown document of the project."""
    return sorted(
        path for path in ROOT.rglob("*.md") if not NOT_DOCUMENTS & set(path.relative_to(ROOT).parts)
    )


def anchors(path: Path) -> set[str]:
    """The anchors GitHub gives ``path``'s headings: lower case, punctuation dropped, spaces -."""
    text = FENCE.sub("", path.read_text(encoding="utf-8"))
    found = set()
    for heading in re.findall(r"^#+ (.+)$", text, re.MULTILINE):
        slug = "".join(c for c in heading.lower() if c.isalnum() or c in " -_")
        found.add(slug.replace(" ", "-"))
    return found


def broken_links(path: Path) -> list[str]:
    """The relative links in ``path`` that lead to no file, or to no heading of it."""
    broken = []
    for target in LINK.findall(FENCE.sub("", path.read_text(encoding="utf-8"))):
        if re.match(r"^[a-z]+:", target):
            continue  # https:, mailto: — not ours to check offline
        file_part, _, anchor = target.partition("#")
        linked = (path.parent / file_part).resolve() if file_part else path
        if not linked.exists():
            broken.append(f"{target}: no such file")
        elif anchor and linked.suffix == ".md" and anchor not in anchors(linked):
            broken.append(f"{target}: no such heading")
    return broken


def test_every_link_in_every_document_leads_somewhere() -> None:
    found = documents()
    assert ROOT / "README.md" in found
    assert ROOT / "c4tui" / "server" / "README.md" in found
    broken = {str(path.relative_to(ROOT)): links for path in found if (links := broken_links(path))}
    assert broken == {}


def test_the_readme_is_the_players_part_and_links_the_rest() -> None:
    """Serving, clusters, tournaments and benchmarks each have a document beside their code."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for document in (
        "c4tui/server/README.md",
        "c4tui/server/cluster/README.md",
        "c4tui/tournament/README.md",
        "bench/README.md",
        "c4tui/outside/README.md",
        "c4tui/lobby/README.md",
    ):
        assert f"]({document})" in readme, document
    headings = re.findall(r"^## (.+)$", FENCE.sub("", readme), re.MULTILINE)
    assert headings[:3] == ["Contents", "Set up", "Playing in the app"]
    assert not any("serv" in heading.lower() for heading in headings), headings


def test_the_set_up_has_two_commands_in_a_virtual_environment_and_ci_runs_the_second() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    set_up = readme.split("## Set up", 1)[1].split("\n## ", 1)[0]
    commands = re.findall(r"^```sh\n(.+?)\n```", set_up, re.MULTILINE)
    assert len(commands) == 2, commands
    app, tests = commands
    for command in commands:  # PEP 668: Debian's and Ubuntu's Python refuse pip outside one
        assert command.startswith("python3 -m venv .venv && . .venv/bin/activate && ")
    assert app.endswith("&& c4tui")
    assert "minutes" in set_up  # how long the tests take
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert tests in ci.splitlines()
