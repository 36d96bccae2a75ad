"""The lobby codec's words at the table (§5.6): DRAW, TAKEBACK, ABORT, CLAIM and what they bring."""

from __future__ import annotations

import pytest

from c4tui.net.errors import ProtocolError
from c4tui.protocols import lobby as wire
from c4tui.protocols import table_talk as talk

BOARD = "0" * 42


@pytest.mark.parametrize(
    ("line", "parsed"),
    [
        ("DRAW", talk.OfferDraw()),
        ("DECLINEDRAW", talk.DeclineDraw()),
        ("TAKEBACK", talk.OfferTakeback()),
        ("DECLINETAKEBACK", talk.DeclineTakeback()),
        ("ABORT", talk.Abort()),
        ("CLAIM", talk.Claim()),
    ],
)
def test_each_request_is_its_bare_command(line: str, parsed: object) -> None:
    assert wire.parse_request(line) == parsed


@pytest.mark.parametrize("command", ["DRAW", "DECLINEDRAW", "TAKEBACK", "DECLINETAKEBACK", "ABORT"])
def test_a_request_with_an_argument_is_a_bad_format(command: str) -> None:
    for line in (f"{command}:", f"{command}:bob", f"{command}:1:2"):
        assert wire.parse_request(line) == wire.BadFormat(f"{command}:ACKSTATUS:3")


def test_the_lowercase_command_is_unknown() -> None:
    with pytest.raises(wire.Violation):
        wire.parse_request("draw")


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("DRAWOFFER:ann", talk.DrawOffered("ann")),
        ("DRAWDECLINED:bob", talk.DrawDeclined("bob")),
        ("TAKEBACKOFFER:ann", talk.TakebackOffered("ann")),
        ("TAKEBACKDECLINED:bob", talk.TakebackDeclined("bob")),
        ("IDLE:bob", talk.Idle("bob")),
        (f"GAMEEND:{BOARD}:4", wire.GameEnd(BOARD, 4, "")),
        (f"GAMEEND:{BOARD}:5", wire.GameEnd(BOARD, 5, "")),
        (f"GAMEEND:{BOARD}:2:ann", wire.GameEnd(BOARD, 2, "ann")),
    ],
)
def test_the_server_messages_are_read(line: str, message: object) -> None:
    assert wire.parse_server_message(line) == message


@pytest.mark.parametrize(
    "line",
    [
        f"GAMEEND:{BOARD}:4:ann",  # a draw agreed has no winner
        f"GAMEEND:{BOARD}:5:ann",
        f"GAMEEND:{BOARD}:6",
        f"GAMEEND:{BOARD}:12",
        "DRAWOFFER",
        "DRAWOFFER:",
        "IDLE:ann:bob",
    ],
)
def test_malformed_server_messages_are_protocol_errors(line: str) -> None:
    with pytest.raises(ProtocolError):
        wire.parse_server_message(line)


def test_the_server_formats_what_clients_read() -> None:
    for kind in (talk.DrawOffered, talk.DrawDeclined, talk.TakebackOffered, talk.Idle):
        assert wire.parse_server_message(kind("ann").line) == kind("ann")
    assert talk.TakebackDeclined("bob").line == "TAKEBACKDECLINED:bob"
