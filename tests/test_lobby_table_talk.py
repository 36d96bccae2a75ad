"""The rooms' rules at the table (§5.6): draw offers, takebacks, aborts, claims and IDLE."""

from __future__ import annotations

from c4tui.engine import Move, MoveKind, Rules
from c4tui.lobby import CONNECT_FOUR, Lobby, Member, Outbox
from c4tui.lobby.journal import EndReason, GameFinished, MoveMade, MoveTakenBack
from c4tui.lobby.kinds import ConnectFourSettings
from c4tui.lobby.table_talk import Offer
from c4tui.protocols import lobby as wire
from c4tui.protocols.table_talk import AWAY_BEFORE_CLAIM, IDLE_BEFORE_CLAIM, IDLE_WARNING
from c4tui.protocols.terms import Clock, Terms

GAME = (4, 4, Rules.CLASSIC)
EMPTY = "0" * 16
Rooms = Lobby[ConnectFourSettings, Move]


class FakeTime:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def drop(column: int) -> Move:
    return Move(MoveKind.DROP, column)


def _game(terms: Terms = wire.CASUAL) -> tuple[Rooms, FakeTime, Member, Member, Member]:
    time = FakeTime()
    lobby: Rooms = Lobby(CONNECT_FOUR, grace=60, now=time)
    ann, bob, vic = Member("ann"), Member("bob"), Member("vic")
    lobby.create(ann, "a", GAME, terms)
    lobby.join(bob, "a", wire.Mode.PLAYER)
    lobby.join(vic, "a", wire.Mode.VIEWER)
    lobby.take_journal()
    return lobby, time, ann, bob, vic


def _to(outbox: Outbox, member: Member) -> list[str]:
    return [text for who, text in outbox if who is member]


def _both_moved(lobby: Rooms, ann: Member, bob: Member) -> None:
    lobby.play(ann, drop(0))
    lobby.play(bob, drop(1))
    lobby.take_journal()


# ----- draws --------------------------------------------------------------------------


def test_a_draw_may_be_offered_only_once_each_side_has_moved() -> None:
    lobby, _, ann, bob, _ = _game()
    assert lobby.talk.offer_draw(ann) == [(ann, "DRAW:ACKSTATUS:1")]
    lobby.play(ann, drop(0))
    assert lobby.talk.offer_draw(bob) == [(bob, "DRAW:ACKSTATUS:1")]
    lobby.play(bob, drop(1))
    assert lobby.talk.offer_draw(bob)[0] == (bob, "DRAW:ACKSTATUS:0")


def test_a_draw_offer_reaches_everyone_else_and_the_other_draw_accepts() -> None:
    lobby, _, ann, bob, vic = _game()
    _both_moved(lobby, ann, bob)
    offered = lobby.talk.offer_draw(ann)
    assert offered == [(ann, "DRAW:ACKSTATUS:0"), (bob, "DRAWOFFER:ann"), (vic, "DRAWOFFER:ann")]
    assert lobby.talk.offer_draw(ann) == [(ann, "DRAW:ACKSTATUS:2")]
    accepted = lobby.talk.offer_draw(bob)
    end = f"GAMEEND:{'0' * 12 + '1200'}:4"
    assert accepted == [(bob, "DRAW:ACKSTATUS:0"), (ann, end), (bob, end), (vic, end)]
    assert lobby.take_journal() == [GameFinished("a", None, EndReason.AGREEMENT)]
    assert lobby.rooms == {}


def test_a_declined_draw_is_told_to_the_offerer_and_may_be_offered_again() -> None:
    lobby, _, ann, bob, _ = _game()
    _both_moved(lobby, ann, bob)
    lobby.talk.offer_draw(ann)
    assert lobby.talk.decline(ann, Offer.DRAW) == [(ann, "DECLINEDRAW:ACKSTATUS:1")]  # its own
    assert lobby.talk.decline(bob, Offer.DRAW) == [
        (bob, "DECLINEDRAW:ACKSTATUS:0"),
        (ann, "DRAWDECLINED:bob"),
    ]
    assert lobby.talk.decline(bob, Offer.DRAW) == [(bob, "DECLINEDRAW:ACKSTATUS:1")]
    assert lobby.talk.offer_draw(ann)[0] == (ann, "DRAW:ACKSTATUS:0")


def test_a_move_by_the_offered_player_declines_the_offer() -> None:
    lobby, _, ann, bob, vic = _game()
    _both_moved(lobby, ann, bob)
    lobby.talk.offer_draw(bob)  # on ann's turn
    outbox = lobby.play(ann, drop(2))
    assert outbox[0] == (bob, "DRAWDECLINED:ann")
    assert _to(outbox, vic) == [f"BOARDSTATUS:{'0' * 12 + '1210'}"]
    assert lobby.talk.offer_draw(ann)[1] == (bob, "DRAWOFFER:ann")  # a new offer, not an answer


def test_the_offerers_own_move_leaves_its_offer_standing() -> None:
    lobby, _, ann, bob, _ = _game()
    _both_moved(lobby, ann, bob)
    lobby.talk.offer_draw(ann)
    assert _to(lobby.play(ann, drop(2)), ann) == [f"BOARDSTATUS:{'0' * 12 + '1210'}"]
    assert lobby.talk.offer_draw(bob)[1][1].endswith(":4")


def test_viewers_and_members_in_no_game_cannot_offer_anything() -> None:
    lobby, _, ann, bob, vic = _game()
    _both_moved(lobby, ann, bob)
    loner = Member("zed")
    for member in (vic, loner):
        assert lobby.talk.offer_draw(member) == [(member, "DRAW:ACKSTATUS:1")]
        assert lobby.talk.take_back(member) == [(member, "TAKEBACK:ACKSTATUS:1")]
        assert lobby.talk.abort(member) == [(member, "ABORT:ACKSTATUS:1")]
        assert lobby.talk.claim(member) == [(member, "CLAIM:ACKSTATUS:1")]


# ----- takebacks ----------------------------------------------------------------------


def test_a_takeback_asked_by_the_last_mover_and_agreed_undoes_the_move() -> None:
    lobby, _, ann, bob, vic = _game()
    lobby.play(ann, drop(0))
    assert lobby.talk.take_back(bob) == [(bob, "TAKEBACK:ACKSTATUS:1")]  # not bob's move
    assert lobby.talk.take_back(ann) == [(ann, "TAKEBACK:ACKSTATUS:0"), (bob, "TAKEBACKOFFER:ann")]
    assert lobby.talk.take_back(ann) == [(ann, "TAKEBACK:ACKSTATUS:2")]
    lobby.take_journal()
    agreed = lobby.talk.take_back(bob)
    board = f"BOARDSTATUS:{EMPTY}"
    assert agreed == [(bob, "TAKEBACK:ACKSTATUS:0"), (ann, board), (bob, board), (vic, board)]
    assert lobby.take_journal() == [MoveTakenBack("a", 1)]
    assert lobby.play(bob, drop(0)) == [(bob, "INVALID:not your turn")]
    lobby.play(ann, drop(3))
    assert lobby.take_journal() == [MoveMade("a", 1, drop(3))]


def test_only_the_last_move_is_taken_back_and_only_once() -> None:
    lobby, _, ann, bob, _ = _game()
    _both_moved(lobby, ann, bob)
    lobby.talk.take_back(bob)
    lobby.talk.take_back(ann)
    assert lobby.talk.take_back(ann) == [(ann, "TAKEBACK:ACKSTATUS:1")]  # ann's move before
    assert lobby.talk.take_back(bob) == [(bob, "TAKEBACK:ACKSTATUS:1")]


def test_a_declined_or_outplayed_takeback_is_told_to_its_asker() -> None:
    lobby, _, ann, bob, _ = _game()
    lobby.play(ann, drop(0))
    lobby.talk.take_back(ann)
    assert lobby.talk.decline(ann, Offer.TAKEBACK) == [(ann, "DECLINETAKEBACK:ACKSTATUS:1")]
    declined = lobby.talk.decline(bob, Offer.TAKEBACK)
    assert declined == [(bob, "DECLINETAKEBACK:ACKSTATUS:0"), (ann, "TAKEBACKDECLINED:bob")]
    lobby.talk.take_back(ann)
    assert lobby.play(bob, drop(1))[0] == (ann, "TAKEBACKDECLINED:bob")
    assert lobby.talk.take_back(bob)[0] == (bob, "TAKEBACK:ACKSTATUS:0")  # now bob moved last


def test_a_takeback_puts_the_clock_back_as_it_was_before_the_move() -> None:
    lobby, time, ann, bob, _ = _game(Terms(rated=False, clock=Clock(1, 2)))
    time.now += 10
    lobby.play(ann, drop(0))  # ann: 60 - 10 + 2 = 52 s
    time.now += 5
    lobby.play(bob, drop(1))  # bob: 60 - 5 + 2 = 57 s
    time.now += 20
    lobby.talk.take_back(bob)
    time.now += 3
    agreed = lobby.talk.take_back(ann)
    assert _to(agreed, ann) == [
        "TAKEBACK:ACKSTATUS:0",
        f"BOARDSTATUS:{'0' * 12 + '1000'}",
        "CLOCK:52000:55000",
    ]
    assert lobby.take_journal()[-1] == MoveTakenBack("a", 2)
    time.now += 1
    assert lobby.clocks.told(lobby.rooms["a"], [bob]) == [(bob, "CLOCK:52000:54000")]


# ----- aborts -------------------------------------------------------------------------


def test_either_player_aborts_before_both_have_moved_and_nobody_wins() -> None:
    for aborter in (0, 1):
        lobby, _, ann, bob, vic = _game()
        lobby.play(ann, drop(0))
        lobby.take_journal()
        member = (ann, bob)[aborter]
        end = f"GAMEEND:{'0' * 12 + '1000'}:5"
        assert lobby.talk.abort(member) == [
            (member, "ABORT:ACKSTATUS:0"),
            (ann, end),
            (bob, end),
            (vic, end),
        ]
        assert lobby.take_journal() == [GameFinished("a", None, EndReason.ABORTED)]


def test_an_abort_after_both_have_moved_is_too_late() -> None:
    lobby, _, ann, bob, _ = _game()
    _both_moved(lobby, ann, bob)
    assert lobby.talk.abort(ann) == [(ann, "ABORT:ACKSTATUS:1")]
    assert lobby.take_journal() == []


# ----- claims and IDLE ----------------------------------------------------------------


def test_a_claim_against_an_opponent_away_thirty_seconds_wins_at_once() -> None:
    lobby, time, ann, bob, vic = _game()
    lobby.play(ann, drop(0))
    lobby.leave(bob)
    lobby.take_journal()
    time.now += AWAY_BEFORE_CLAIM - 1
    assert lobby.talk.claim(ann) == [(ann, "CLAIM:ACKSTATUS:1")]
    time.now += 1
    end = f"GAMEEND:{'0' * 12 + '1000'}:2:ann"
    assert lobby.talk.claim(ann) == [(ann, "CLAIM:ACKSTATUS:0"), (ann, end), (vic, end)]
    assert lobby.take_journal() == [GameFinished("a", "ann", EndReason.DISCONNECT)]
    assert lobby.expire("bob") == []  # the grace's timer finds nothing left to do


def test_nothing_to_claim_against_a_present_opponent_in_a_timed_game() -> None:
    lobby, time, _ann, bob, _ = _game(Terms(rated=False, clock=Clock(30, 0)))
    time.now += IDLE_BEFORE_CLAIM * 2
    assert lobby.talk.claim(bob) == [(bob, "CLAIM:ACKSTATUS:1")]
    assert lobby.out_of_time() == []  # no IDLE with a clock


def test_a_restored_game_counts_both_players_away_from_the_restart() -> None:
    time = FakeTime()
    lobby: Rooms = Lobby(CONNECT_FOUR, grace=60, now=time)
    lobby.restore("a", ("ann", "bob"), GAME, [drop(0)])
    ann = Member("ann")
    lobby.rejoin(ann)
    time.now += AWAY_BEFORE_CLAIM
    assert lobby.talk.claim(ann)[0] == (ann, "CLAIM:ACKSTATUS:0")


def test_an_idle_mover_is_warned_at_five_minutes_and_claimed_against_at_ten() -> None:
    lobby, time, ann, bob, vic = _game()
    lobby.play(ann, drop(0))
    time.now += IDLE_WARNING - 1
    assert lobby.out_of_time() == []
    time.now += 1
    assert lobby.out_of_time() == [(ann, "IDLE:bob"), (bob, "IDLE:bob"), (vic, "IDLE:bob")]
    assert lobby.out_of_time() == []  # once a turn
    assert lobby.talk.claim(ann) == [(ann, "CLAIM:ACKSTATUS:1")]
    assert lobby.talk.claim(bob) == [(bob, "CLAIM:ACKSTATUS:1")]  # bob is the idle one
    time.now += IDLE_BEFORE_CLAIM - IDLE_WARNING
    lobby.take_journal()
    assert lobby.talk.claim(ann)[0] == (ann, "CLAIM:ACKSTATUS:0")
    assert lobby.take_journal() == [GameFinished("a", "ann", EndReason.FORFEIT)]


def test_a_move_starts_the_idle_count_again() -> None:
    lobby, time, ann, _bob, vic = _game()
    time.now += IDLE_WARNING
    assert _to(lobby.out_of_time(), vic) == ["IDLE:ann"]
    lobby.play(ann, drop(0))
    time.now += IDLE_WARNING - 1
    assert lobby.out_of_time() == []
    time.now += 1
    assert _to(lobby.out_of_time(), vic) == ["IDLE:bob"]
