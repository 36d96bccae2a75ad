"""What nodes say on the bus: every message survives encoding, and nothing else is obeyed."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from c4tui.server.cluster.messages import (
    Abort,
    Alive,
    BusMessage,
    Close,
    Gone,
    Leading,
    Line,
    Opened,
    Send,
    decode,
    encode,
)

names = st.text(min_size=1, max_size=30)
sessions = st.integers(min_value=0, max_value=2**40)
texts = st.text(max_size=300)
messages = st.one_of(
    st.builds(Opened, names, sessions, st.sampled_from(["", "127.0.0.1", "2001:db8::1"])),
    st.builds(Line, names, sessions, texts),
    st.builds(Gone, names, sessions),
    st.builds(Alive, names),
    st.builds(Leading, names),
    st.builds(Send, sessions, texts),
    st.builds(Close, sessions),
    st.builds(Abort, sessions),
)


@given(messages)
def test_every_message_comes_back_as_it_went(message: BusMessage) -> None:
    assert decode(encode(message)) == message


def test_an_older_nodes_opened_has_no_address() -> None:
    """A node from before §7 says no address: its clients count as one unknown one."""
    assert decode(b'{"k": "opened", "node": "a", "session": 1}') == Opened("a", 1, "")


@pytest.mark.parametrize(
    "data",
    [
        b"\xff",  # not UTF-8
        b"[1, 2]",  # not an object
        b'{"k": "explode"}',  # no such kind
        b'{"k": "line", "node": "a", "session": 1}',  # a field missing
        b'{"k": "line", "node": "a", "session": "1", "text": "x"}',  # a field of the wrong type
        b'{"k": "close", "session": true}',  # a bool is no session number
        b'{"k": "alive", "node": "a", "extra": 1}',  # a field too many
        b'{"k": "opened", "node": "a", "session": 1, "address": 7}',  # an address no string
    ],
)
def test_anything_else_is_refused_in_words(data: bytes) -> None:
    with pytest.raises(ValueError, match=r"\w"):
        decode(data)
