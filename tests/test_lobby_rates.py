"""The sliding window behind §7's limits: exact counts, refusals not counted, memory bounded."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from c4tui.lobby.rates import SlidingWindow
from c4tui.net.address import address_group
from c4tui.protocols.public import CHAT_LINES, CHAT_SECONDS, REGISTRATIONS_PER_HOUR

KEYS = ("a", "b", "c")


@given(
    st.integers(0, 4),
    st.floats(0.5, 20),
    st.lists(st.tuples(st.sampled_from(KEYS), st.floats(0, 8)), max_size=60),
)
def test_a_take_is_allowed_exactly_when_fewer_than_the_limit_fall_in_the_window(
    limit: int, seconds: float, steps: list[tuple[str, float]]
) -> None:
    """Against the plainest model: every event allowed so far, by key, and when."""
    window = SlidingWindow(limit, seconds)
    allowed: dict[str, list[float]] = {key: [] for key in KEYS}
    now = 0.0
    for key, wait in steps:
        now += wait
        recent = [when for when in allowed[key] if when > now - seconds]
        expected = limit == 0 or len(recent) < limit
        assert window.take(key, now) == expected
        if expected:
            allowed[key].append(now)
        assert window.used(key, now) == (0 if limit == 0 else len(recent) + expected)
    for times in allowed.values():  # no stretch of ``seconds`` ever held more than the limit
        for when in times:
            assert limit == 0 or sum(when - seconds < t <= when for t in times) <= limit


def test_the_sixth_is_refused_and_refusals_do_not_count() -> None:
    window = SlidingWindow(CHAT_LINES, CHAT_SECONDS)
    assert all(window.take("ann", 100 + n) for n in range(5))
    assert not window.take("ann", 104.5)
    assert window.take("bob", 104.5)  # another key is not touched
    for _ in range(100):  # hammering while full changes nothing
        assert not window.take("ann", 109.9)
    assert window.take("ann", 110)  # the first has left the window: exactly one more
    assert not window.take("ann", 110.5)


def test_zero_turns_it_off() -> None:
    window = SlidingWindow(0, 3600)
    assert not window.on
    assert all(window.take("10.0.0.1", 0) for _ in range(10_000))
    assert len(window) == 0


def test_memory_holds_only_the_last_windows_keys() -> None:
    window = SlidingWindow(REGISTRATIONS_PER_HOUR, 3600)
    for n in range(1000):
        window.take(f"10.0.{n // 256}.{n % 256}", 0.0)
    assert len(window) == 1000
    window.take("192.0.2.1", 3600.0)
    assert len(window) == 1  # every other key's events left the window


@pytest.mark.parametrize(("limit", "seconds"), [(-1, 10), (5, 0), (5, -1)])
def test_a_window_that_makes_no_sense_is_refused(limit: int, seconds: float) -> None:
    with pytest.raises(ValueError, match="makes no sense"):
        SlidingWindow(limit, seconds)


def test_one_ipv6_64_is_one_key_for_registrations() -> None:
    """The registration limit's key is the per-address limit's: IPv4 as is, IPv6 by /64."""
    window = SlidingWindow(2, 3600)
    assert window.take(address_group("2001:db8:1:2::1"), 0)
    assert window.take(address_group("2001:db8:1:2:dead:beef::7"), 0)
    assert not window.take(address_group("2001:db8:1:2:ffff::9"), 0)  # the same /64
    assert window.take(address_group("2001:db8:1:3::1"), 0)  # the next /64
    assert window.take(address_group("::ffff:192.0.2.1"), 0)  # IPv4 seen through IPv6 …
    assert window.take(address_group("192.0.2.1"), 0)
    assert not window.take(address_group("192.0.2.1"), 0)  # … is that IPv4 address
    assert window.take(address_group("192.0.2.2"), 0)
