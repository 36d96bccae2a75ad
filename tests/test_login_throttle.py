"""The login throttle's memory (§7: a server in public): made-up names cannot grow it."""

from __future__ import annotations

from c4tui.server.accounts import FORGET_AFTER, MAX_DELAY, MAX_REMEMBERED, LoginThrottle


def test_a_user_who_keeps_failing_waits_longer_and_longer() -> None:
    throttle = LoginThrottle()
    delays = [throttle.failed("alice", 1, now=float(moment)) for moment in range(8)]
    assert delays[:2] == [0.0, 0.0]
    assert delays[2:] == sorted(delays[2:]) and delays[2] < delays[-1] <= MAX_DELAY


def test_a_users_failures_are_forgotten_an_hour_after_the_last() -> None:
    throttle = LoginThrottle()
    for moment in range(6):
        throttle.failed("mallory", 1, now=float(moment))
    assert throttle.failed("mallory", 1, now=10.0) > 0  # still counted: slowed
    later = 10.0 + FORGET_AFTER + 1
    assert throttle.failed("mallory", 1, now=later) == 0.0  # a first failure again


def test_logins_for_made_up_names_do_not_grow_its_memory_without_end() -> None:
    throttle = LoginThrottle()
    for number in range(MAX_REMEMBERED + 5_000):  # an attacker's names, all within a minute
        moment = number / 10_000
        earliest = moment + throttle.failed(f"nobody{number}", 1, now=moment)
        throttle.turn(f"nobody{number}", earliest, now=moment)
    assert throttle.remembered() <= MAX_REMEMBERED
    assert throttle.failed("nobody0", 1, now=60.0) == 0.0  # the first one was let go


def test_slowed_turns_are_let_go_once_they_are_out() -> None:
    throttle = LoginThrottle()
    for moment in range(5):
        earliest = moment + throttle.failed("bob", 5, now=float(moment))
        throttle.turn("bob", earliest, now=float(moment))
    throttle.succeeded("bob")
    assert throttle.remembered() == 1  # its turn is still to come
    throttle.turn("carol", 1000.0, now=1000.0)  # long after: nobody waits behind bob's
    assert throttle.remembered() == 0
