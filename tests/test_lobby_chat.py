"""Chat in any printable Unicode (spec §5.6), and every other field of the lobby still ASCII."""

from __future__ import annotations

import pytest

from c4tui.net.errors import ProtocolError
from c4tui.protocols import lobby as wire
from c4tui.protocols import tictactoe as ttt
from c4tui.protocols.chat import valid_chat


@pytest.mark.parametrize(
    "text", ["héllo", "gg 🙂", "漢字 かな", "Ζωή", "a\u00a0b", " ", "é" * 200, "x:y:z"]
)
def test_any_printable_unicode_is_chat(text: str) -> None:
    assert valid_chat(text) and wire.parse_request(f"CHAT:{text}") == wire.Chat(text)


@pytest.mark.parametrize(
    "text",
    [
        "",
        "é" * 201,
        "\x1b[2J",  # a terminal's escape sequence: control characters are refused
        "tab\there",
        "\x7f",
        "a\u202eb",  # a bidirectional override (a format character)
        "a\u200bb",  # a zero-width space (format)
        "line\u2028break",
        "para\u2029graph",
        "\ue000",  # private use
        "\U000e0080",  # unassigned
        "\x85",  # NEL
    ],
)
def test_control_format_private_and_unassigned_characters_are_refused(text: str) -> None:
    assert not valid_chat(text)
    refused = wire.parse_request(f"CHAT:{text}")
    assert isinstance(refused, wire.BadFormat) and refused.reply.startswith("INVALID:")


@pytest.mark.parametrize(
    ("line", "answer"),
    [
        ("CREATE:café", "CREATE:ACKSTATUS:1"),
        ("LOGIN:zoë:pw", "LOGIN:ACKSTATUS:3"),
        ("REGISTER:zoë:pw", "REGISTER:ACKSTATUS:2"),
        ("REGISTER:zoe:pässword", "REGISTER:ACKSTATUS:2"),
        ("PROFILE:zoë", "PROFILE:ACKSTATUS:1"),
        ("CHALLENGE:zoë:7:6:classic:casual", "CHALLENGE:ACKSTATUS:1"),  # nobody is called so
    ],
)
def test_every_other_field_stays_ascii(line: str, answer: str) -> None:
    refused = wire.parse_request(line)
    assert isinstance(refused, wire.BadFormat) and refused.reply == answer


def test_an_unreadable_column_is_quoted_in_ascii() -> None:
    play = wire.parse_request("DROP:٣")
    assert isinstance(play, wire.Play) and play.unreadable == r"'\u0663' is not a column number"


def test_a_client_reads_unicode_chat_and_refuses_a_servers_control_characters() -> None:
    assert wire.parse_server_message("CHAT:bob:héllo 🙂") == wire.ChatLine("bob", "héllo 🙂")
    for hostile in ["CHAT:bob:\x1b]0;owned\x07", "CHAT:bob:a\u202eb", "CHAT:b\x1bob:hi"]:
        with pytest.raises(ProtocolError):
            wire.parse_server_message(hostile)


@pytest.mark.parametrize(
    "hostile",
    [
        "INVALID:\x1b[2J\x1b]0;owned\x07",  # clears the screen, retitles the terminal
        "INVALID:not your turn\u202e",
        "DRAWOFFER:\u202eann",
        "TAKEBACKOFFER:ann\x1b[8m",
        "IDLE:bo\u200fb",
        "BEGIN:\x1b[31mann:bob:7:6:popout",
        "AWAY:ann\x1b[1A:30",
        "CHALLENGED:zoë:7:6:classic:casual:-",
        "INVALID:héllo",
    ],
)
def test_a_client_refuses_any_servers_line_a_terminal_would_act_on(hostile: str) -> None:
    """Not only CHAT: every line but a chat's text is printable ASCII (§5.6), or is refused.

    The console writes what the server says (INVALID's reason, the names in DRAWOFFER,
    BEGIN, AWAY...) to the terminal: an escape sequence there would act on it.
    """
    with pytest.raises(ProtocolError):
        wire.parse_server_message(hostile)
    assert wire.parse_server_message("INVALID:not your turn") == wire.Invalid("not your turn")


def test_only_the_lobby_speaks_utf8() -> None:
    assert wire.SPEC.encoding == "utf-8" and wire.SPEC.frame("CHAT:a:é") == b"CHAT:a:\xc3\xa9\n"
    assert ttt.SPEC.encoding == "ascii"


@pytest.mark.parametrize(
    "command",
    ["CRÉATE", "LOGIN\u202e", "שלום", "ＬＯＧＩＮ", "DRAW\u200f" + "x" * 60],
)
def test_an_unknown_command_is_told_to_the_log_in_ascii(command: str) -> None:
    """The violation's words reach the server's log: nothing a client sent shows as it is.

    A right-to-left letter or override would reorder the operator's line, a look-alike
    letter pass for another; all are escaped.
    """
    with pytest.raises(wire.Violation) as raised:
        wire.parse_request(f"{command}:x")
    assert str(raised.value).isascii()
    with pytest.raises(ProtocolError) as unread:
        wire.parse_server_message(f"{command}:x")
    assert str(unread.value).isascii()
