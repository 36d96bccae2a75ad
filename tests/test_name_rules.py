"""The rules for names and passwords, said in the same words everywhere (issue 38).

One constant each in ``protocols/names.py``; every message and document says that
constant, and nothing else in the source phrases a rule of its own.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from c4tui.client import words
from c4tui.client.outcomes import RegisterOutcome
from c4tui.client.words import Voice
from c4tui.match.backends.online import parse_lobby_user, parse_password
from c4tui.protocols.names import PASSWORD_RULE, ROOM_RULE, USER_RULE

PACKAGE = Path(__file__).resolve().parent.parent / "c4tui"
#: A rule phrased in words ("… letters, digits …", "… printable ASCII characters …").
PHRASED_RULE = re.compile(r"letters, digits|printable ASCII characters")


def test_the_rules_say_ascii() -> None:
    assert USER_RULE == "1-20 ASCII letters, digits, - or _"
    assert ROOM_RULE == "1-20 ASCII letters, digits, spaces, - or _"
    assert PASSWORD_RULE == "1-128 printable ASCII characters without spaces"
    for rule in (USER_RULE, ROOM_RULE, PASSWORD_RULE):
        assert rule.isascii()  # said on every terminal, and on the wire if need be


def test_no_module_but_names_phrases_a_rule() -> None:
    phrasing = [
        f"{path.relative_to(PACKAGE)}:{number}"
        for path in PACKAGE.rglob("*.py")
        if path.name != "names.py"
        for number, line in enumerate(path.read_text().splitlines(), 1)
        if PHRASED_RULE.search(line)
    ]
    assert phrasing == []


def test_the_protocol_document_says_the_rules_in_the_same_words() -> None:
    document = (PACKAGE / "protocols" / "PROTOCOL.md").read_text()
    for rule in (USER_RULE, ROOM_RULE, PASSWORD_RULE):
        assert rule in document
    other_words = re.compile(r"\b1 to (20|128)\b")
    assert [line for line in document.splitlines() if other_words.search(line)] == []


@pytest.mark.parametrize("voice", list(Voice))
def test_a_registration_against_the_rules_says_both_rules(voice: Voice) -> None:
    said = words.REGISTER.said(RegisterOutcome.AGAINST_THE_RULES, voice, user="zoë")
    assert USER_RULE in said and PASSWORD_RULE in said


def test_the_login_fields_say_the_rules() -> None:
    for parse, bad, rule in (
        (parse_lobby_user, "zoë", USER_RULE),
        (parse_password, "a b", PASSWORD_RULE),
    ):
        with pytest.raises(ValueError, match=re.escape(rule)):
            parse(bad)
